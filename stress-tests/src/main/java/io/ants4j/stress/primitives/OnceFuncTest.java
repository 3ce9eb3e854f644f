package io.ants4j.stress.primitives;

import io.ants4j.primitives.Once;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** Once.func: the wrapped Runnable runs once however many threads call the wrapper, and all see its writes. */
@JCStressTest
@Description("Once.func: two callers race; the wrapped action runs exactly once and both see its writes.")
@Outcome(id = "7, 7, 1", expect = ACCEPTABLE, desc = "One run; both callers saw its write.")
@Outcome(expect = FORBIDDEN, desc = "Ran zero or several times, or a caller missed the write.")
@State
public class OnceFuncTest {

    final AtomicInteger runs = new AtomicInteger();
    int x;
    final Runnable f = Once.func(() -> {
        runs.incrementAndGet();
        x = 7;
    });

    @Actor
    public void actor1(III_Result r) {
        f.run();
        r.r1 = x;
    }

    @Actor
    public void actor2(III_Result r) {
        f.run();
        r.r2 = x;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        f.run();
        r.r3 = runs.get();
    }
}
