package io.ants4j.stress.primitives;

import io.ants4j.primitives.WeightedSemaphore;
import io.ants4j.stress.support.Helper;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WeightedSemaphore, Go's head-of-line rule: both permits are held and a waiter for both is
 * queued (a virtual thread started when the state is made); one permit is released just as a
 * newcomer tries to take one. The freed permit would fit the newcomer but not the waiter, and
 * the newcomer must not take it: a waiter that does not fit holds back everyone behind it, so
 * large requests are never starved. The arbiter releases the other permit, which lets the
 * waiter in.
 */
@JCStressTest
@Description("WeightedSemaphore: a freed permit that fits a newcomer but not the queued waiter stays with the waiter.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "The newcomer was refused; the waiter got both permits; every permit back.")
@Outcome(id = "1, .*, .*", expect = FORBIDDEN, desc = "The newcomer took a permit past a waiter that did not fit yet.")
@Outcome(expect = FORBIDDEN, desc = "The waiter was never served (lost wake-up), or permits lost or duplicated.")
@State
public class WeightedSemaphoreHeadOfLineTest {

    final WeightedSemaphore sem = new WeightedSemaphore(2);
    final Thread large;
    volatile int largeResult = -1;

    public WeightedSemaphoreHeadOfLineTest() {
        sem.tryAcquire(2);
        large = Helper.start(() -> largeResult = WeightedSemaphores.use(sem, 2, () -> { }));
        WeightedSemaphores.untilWaiting(sem, 1);
    }

    @Actor
    public void newcomer(III_Result r) {
        boolean barged = sem.tryAcquire(1);
        if (barged) {
            sem.release(1);
        }
        r.r1 = barged ? 1 : 0;
    }

    @Actor
    public void holder() {
        sem.release(1);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        sem.release(1);
        r.r2 = Helper.join(large) ? largeResult : 0;
        r.r3 = WeightedSemaphores.whole(sem, 2) ? 1 : 0;
    }
}
