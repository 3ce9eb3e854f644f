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
 * Once.value published through a plain field (a data race): a reader that sees the supplier
 * object, whatever it sees of its construction, gets the computed value, never null and never an
 * exception from a supplier it could not see; the supplier runs once.
 */
@JCStressTest
@Description("Once.value published through a data race: a reader gets the value, not null or an exception.")
@Outcome(id = "42, 42, 1", expect = ACCEPTABLE, desc = "The reader saw the object and got the value; one supplier call.")
@Outcome(id = "42, -1, 1", expect = ACCEPTABLE, desc = "The reader did not see the object yet.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "get() returned null: a default of the value field taken for the value.")
@Outcome(id = ".*, -2, .*", expect = FORBIDDEN, desc = "get() threw: e.g. the supplier field read as null.")
@Outcome(expect = FORBIDDEN, desc = "A wrong value or several supplier calls.")
@State
public class OnceValueRacyPublicationTest {

    final AtomicInteger calls = new AtomicInteger();
    /** Deliberately plain: the publication races with the reader. */
    Supplier<OnceValueTest.Box> shared;

    @Actor
    public void publisher(III_Result r) {
        Supplier<OnceValueTest.Box> value = Once.value(() -> {
            calls.incrementAndGet();
            OnceValueTest.Box b = new OnceValueTest.Box();
            b.v = 42;
            return b;
        });
        shared = value;
        r.r1 = value.get().v;
    }

    @Actor
    public void reader(III_Result r) {
        Supplier<OnceValueTest.Box> value = shared;
        if (value == null) {
            r.r2 = -1;
            return;
        }
        try {
            OnceValueTest.Box b = value.get();
            r.r2 = b == null ? 0 : b.v;
        } catch (RuntimeException e) {
            r.r2 = -2;
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = calls.get();
    }
}
