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
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WeightedSemaphore, the cancel-vs-grant race (Go's Acquire whose context is done as ready is
 * closed): two waiters are queued for the one permit (virtual threads started when the state is
 * made, the first one first); the first is interrupted just as the holder releases. Whether the
 * grant or the interrupt wins, no permit is lost or duplicated and the second waiter gets the
 * permit: from the first waiter's release if it was granted, else from its give-back (the grant
 * raced with the interrupt) or its withdrawal (the interrupt came first). The victim is a thread
 * of this sample only, so the interrupt cannot leak into another.
 */
@JCStressTest
@Description("WeightedSemaphore: a head waiter interrupted as the permit is released loses no permit and wakes the next waiter.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The grant won: first waiter acquired (and released), second served, every permit back.")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The interrupt won: first waiter left (giving back a racing grant), second served, every permit back.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The second waiter was never served: a wake-up or the permit was lost.")
@Outcome(expect = FORBIDDEN, desc = "Permits lost or duplicated, a waiter left queued, or an impossible outcome.")
@State
public class WeightedSemaphoreInterruptRacingGrantTest {

    final WeightedSemaphore sem = new WeightedSemaphore(1);
    final Thread first;
    final Thread second;
    volatile int firstResult = -1;
    volatile int secondResult = -1;

    public WeightedSemaphoreInterruptRacingGrantTest() {
        sem.tryAcquire(1);
        first = Helper.start(() -> firstResult = WeightedSemaphores.use(sem, 1, () -> { }));
        WeightedSemaphores.untilWaiting(sem, 1);
        second = Helper.start(() -> secondResult = WeightedSemaphores.use(sem, 1, () -> { }));
        WeightedSemaphores.untilWaiting(sem, 2);
    }

    @Actor
    public void interrupter() {
        first.interrupt();
    }

    @Actor
    public void holder() {
        sem.release(1);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = Helper.join(first) ? firstResult : -1;
        r.r2 = Helper.join(second) ? secondResult : 0;
        r.r3 = WeightedSemaphores.whole(sem, 1) ? 1 : 0;
    }
}
