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

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WeightedSemaphore, strict FIFO without barging: one permit is held and a first waiter is
 * queued (a virtual thread started when the state is made); a second thread asks for the permit
 * just as the holder releases it. Whether it arrives before the release (and queues behind the
 * first) or after it (when the permit is already granted to the first), it must never get the
 * permit before the first waiter, whose request fits.
 */
@JCStressTest
@Description("WeightedSemaphore: a newcomer racing a release never gets in before the waiter queued first.")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "The queued waiter first (turn 0), then the newcomer (turn 1); every permit back.")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "The newcomer barged in before the queued waiter.")
@Outcome(expect = FORBIDDEN, desc = "Someone never got the permit (lost wake-up), or permits lost or duplicated.")
@State
public class WeightedSemaphoreFifoTest {

    final WeightedSemaphore sem = new WeightedSemaphore(1);
    final AtomicInteger turn = new AtomicInteger();
    final Thread first;
    volatile int firstTurn = -1; // the turn numbers: the order of acquisition

    public WeightedSemaphoreFifoTest() {
        sem.tryAcquire(1);
        first = Helper.start(() -> WeightedSemaphores.use(sem, 1, () -> firstTurn = turn.getAndIncrement()));
        WeightedSemaphores.untilWaiting(sem, 1);
    }

    @Actor
    public void newcomer(III_Result r) {
        r.r1 = -1;
        WeightedSemaphores.use(sem, 1, () -> r.r1 = turn.getAndIncrement());
    }

    @Actor
    public void holder() {
        sem.release(1);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(first) ? firstTurn : -1;
        r.r3 = WeightedSemaphores.whole(sem, 1) ? 1 : 0;
    }
}
