package io.ants4j.stress.primitives;

import io.ants4j.primitives.Once;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.function.Supplier;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Once.value "returns the same value every time", also to a caller that comes while the call that computed it
 * is still waking its waiters: actor1's call runs the supplier, which starts a waiter (a virtual thread that
 * calls the supplier of Once.value and parks behind the running call), waits until it is parked, and returns
 * the value announcing it; actor2 calls as soon as it sees the announcement. So actor2 reads the call's state
 * at about the moment it is marked complete, while the completing thread unparks the waiter: a caller that sees
 * the call complete must get its value, never {@code null}, and so must the waiter and actor1.
 *
 * <p>Coverage review 21, mutant O-U: the outcome written after the state that releases the waiters (and after
 * the unpark of each), where a late caller that sees the state complete reads the outcome not yet written: its
 * call returns {@code null}. The parked waiter makes the window the length of an unpark, which the existing
 * two-caller tests (no waiter, a window of a few instructions) did not reach, nor Fray (no scheduling point
 * between the state's swap and the plain write: an unpark is none).
 */
@JCStressTest
@Description("Once.value: a caller racing the completion of the call, while it wakes a parked waiter, gets its value.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "The runner, the late caller and the waiter got the value; the waiter ended.")
@Outcome(id = "1, 0, 1, 1", expect = FORBIDDEN, desc = "The late caller saw the call complete and got no value (null).")
@Outcome(expect = FORBIDDEN, desc = "A caller got null or another value, or the waiter did not park or end.")
@State
public class OnceValueLateCallerDuringWakeUpTest {

    /** Deliberately mutable, non-final: only the Once hand-off can publish its field safely. */
    public static final class Box {
        int v;
    }

    volatile boolean returning;
    volatile boolean waiterParked;
    Thread waiter;
    volatile Box seenByWaiter;

    final Supplier<Box> value = Once.value(this::compute);

    private Box compute() {
        Box b = new Box();
        b.v = 42;
        Thread w = Helper.start(() -> seenByWaiter = value.get());
        waiter = w;
        waiterParked = Spin.sleepUntil(() -> w.getState() == Thread.State.WAITING);
        returning = true;
        return b;
    }

    private static int valueOf(Box b) {
        return b != null && b.v == 42 ? 1 : 0;
    }

    @Actor
    public void actor1(IIII_Result r) {
        r.r1 = valueOf(value.get());
    }

    @Actor
    public void actor2(IIII_Result r) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!returning && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        r.r2 = valueOf(value.get());
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        boolean ended = Helper.join(waiter);
        r.r3 = ended ? valueOf(seenByWaiter) : 0;
        r.r4 = waiterParked ? 1 : 0;
    }
}
