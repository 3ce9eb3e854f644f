package io.ants4j.stress.primitives;

import io.ants4j.primitives.Once;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Once.value: every caller gets the very same instance, fully initialized (its plain, non-final
 * field set after construction is visible), and the supplier runs once.
 */
@JCStressTest
@Description("Once.value: racing callers get the same instance with its plain fields visible; one supplier call.")
@Outcome(id = "42, 42, 1, 1", expect = ACCEPTABLE, desc = "Same, fully visible instance; supplier called once.")
@Outcome(expect = FORBIDDEN, desc = "Different instances, a half-initialized instance, or several supplier calls.")
@State
public class OnceValueTest {

    /** Deliberately mutable, non-final: only the Once hand-off can publish its field safely. */
    public static final class Box {
        int v;
    }

    final AtomicInteger calls = new AtomicInteger();
    final Supplier<Box> value = Once.value(() -> {
        calls.incrementAndGet();
        Box b = new Box();
        b.v = 42;
        return b;
    });
    Box seen1;
    Box seen2;

    @Actor
    public void actor1(IIII_Result r) {
        Box b = value.get();
        seen1 = b;
        r.r1 = b.v;
    }

    @Actor
    public void actor2(IIII_Result r) {
        Box b = value.get();
        seen2 = b;
        r.r2 = b.v;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = (seen1 == seen2 && seen1 == value.get()) ? 1 : 0;
        r.r4 = calls.get();
    }
}
