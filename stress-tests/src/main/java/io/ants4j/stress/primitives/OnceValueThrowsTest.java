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
import java.util.function.Supplier;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Once.value with a supplier that throws: it runs once, and every caller, racing or later, gets the
 * very same throwable instance.
 */
@JCStressTest
@Description("Once.value: a throwing supplier runs once; every caller gets the very same throwable.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Both callers and a later call got the same throwable; one supplier call.")
@Outcome(expect = FORBIDDEN, desc = "A caller got no throwable or a different one, or the supplier ran again.")
@State
public class OnceValueThrowsTest {

    final AtomicInteger calls = new AtomicInteger();
    final Supplier<Object> value = Once.value(() -> {
        calls.incrementAndGet();
        throw new IllegalStateException("first failure");
    });
    Throwable seen1;
    Throwable seen2;

    private Throwable call() {
        try {
            value.get();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    @Actor
    public void actor1() {
        seen1 = call();
    }

    @Actor
    public void actor2() {
        seen2 = call();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        Throwable later = call();
        r.r1 = seen1 != null && seen1 == seen2 ? 1 : 0;
        r.r2 = later == seen1 ? 1 : 0;
        r.r3 = calls.get();
    }
}
