package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Contracts (SpinningWorkers, the lane a multi-pool's sub-pools share): the slot holds a pool's mark "while a
 * worker of this pool withdraws: only a submitter of the same pool hands a payload to that worker"
 * (SpinningWorkers.java:83-85); {@code takeOutSpinner} "swaps SPINNING for TAKEN_OUT, then for the mark of the
 * worker's pool" (SpinningWorkers.java:37-40); {@code isWithdrawing(owner)} "Returns whether the worker in the lane
 * is owner's, withdrawing to its idle queue" (SpinningWorkers.java:313). Through these a multi-pool keeps
 * WorkerPool's counts ({@code idle()}: "each idle worker is counted once") and per-sub-pool capacity, and a task
 * closing the pool (which calls {@code takeOutSpinner} in each sub-pool's wait, holding only that sub-pool's lock)
 * counts only its own sub-pool's withdrawing worker as idle.
 *
 * <p>{@code takeOutSpinner} reads the spinner's pool and CASes {@code TAKEN_OUT} to that pool's mark in two steps.
 * A taker preempted between them (here: held inside the owner's {@code withdrawingMark()}, which it calls in
 * between) may see the lane change hands: the taken-out worker of pool B withdraws and goes home, a worker of pool
 * A enters and a second taker swaps it to {@code TAKEN_OUT}, not yet knowing its pool (held the same way). The
 * first taker's CAS then succeeds on this other {@code TAKEN_OUT} (an ABA) and writes B's mark for A's worker:
 * B's submitter hands its task to A's worker, which runs it. Each pause is at a point where a thread may be
 * preempted (inside the taker's two steps; a spinning worker's {@code stopsSpinning()} check).
 */
@Timeout(60)
class ATakenOutSpinnerIsMarkedForTheWorkersOwnPoolAcrossALaneHandOverTest {

    /** A pool of the shared lane whose calls from one chosen thread can be held. */
    private static final class HeldOwner implements SpinningWorkers.Owner {
        final Object mark = SpinningWorkers.newWithdrawingMark();
        volatile Thread holdMarkOf;
        final CountDownLatch markHeld = new CountDownLatch(1);
        final CountDownLatch releaseMark = new CountDownLatch(1);
        volatile boolean holdSpinner;
        final CountDownLatch spinnerHeld = new CountDownLatch(1);
        final CountDownLatch releaseSpinner = new CountDownLatch(1);

        @Override
        public boolean stopsSpinning() {
            if (holdSpinner) {
                holdSpinner = false;
                spinnerHeld.countDown();
                await(releaseSpinner);
            }
            return false;
        }

        @Override
        public Object withdrawingMark() {
            if (Thread.currentThread() == holdMarkOf) {
                holdMarkOf = null;
                markHeld.countDown();
                await(releaseMark);
            }
            return mark;
        }
    }

    @Test
    void aTakerPreemptedBetweenItsTwoStepsDoesNotMarkAnotherPoolsWorkerAsItsPools() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        HeldOwner poolA = new HeldOwner();
        HeldOwner poolB = new HeldOwner();

        // w1, a worker of B, spins in the lane, its pool written into the lane
        AtomicReference<Object> w1Got = new AtomicReference<>();
        Thread w1 = Thread.ofPlatform().start(() -> w1Got.set(lane.spin(SpinningWorkers.NONE, poolB)));
        TestSupport.eventually("w1 spins, its pool known", () -> spinner(lane) == poolB);

        // t1 takes w1 out and is preempted between reading w1's pool (B) and its CAS TAKEN_OUT -> B's mark
        Thread t1 = Thread.ofPlatform().unstarted(lane::takeOutSpinner);
        poolB.holdMarkOf = t1;
        t1.start();
        await(poolB.markHeld);

        // w1 withdraws for B; B's revert has it back: the lane is empty
        assertTrue(w1.join(TestSupport.WAIT), "w1 still spins");
        assertSame(SpinningWorkers.WITHDRAWING, w1Got.get());
        assertSame(SpinningWorkers.NONE, lane.withdrawn(), "B's revert of w1");

        // w2, a worker of A, enters and spins; it is preempted in its stopsSpinning check
        AtomicReference<Object> w2Got = new AtomicReference<>();
        Thread w2 = Thread.ofPlatform().start(() -> w2Got.set(lane.spin(SpinningWorkers.NONE, poolA)));
        TestSupport.eventually("w2 spins, its pool known", () -> spinner(lane) == poolA);
        poolA.holdSpinner = true;
        await(poolA.spinnerHeld);

        // t2 takes w2 out and is preempted between reading w2's pool (A) and its CAS TAKEN_OUT -> A's mark
        Thread t2 = Thread.ofPlatform().unstarted(lane::takeOutSpinner);
        poolA.holdMarkOf = t2;
        t2.start();
        await(poolA.markHeld);

        // t1 goes on: its CAS finds TAKEN_OUT, now w2's
        poolB.releaseMark.countDown();
        assertTrue(t1.join(TestSupport.WAIT), "t1 stuck");

        boolean bSeesItsWorker = lane.isWithdrawing(poolB);
        boolean bHandedA = lane.tryHandWithdrawing("B's task", poolB);
        poolA.releaseMark.countDown();
        poolA.releaseSpinner.countDown();
        assertTrue(t2.join(TestSupport.WAIT), "t2 stuck");
        assertTrue(w2.join(TestSupport.WAIT), "w2 still spins");
        Object w2Result = w2Got.get();
        if (w2Result == SpinningWorkers.WITHDRAWING) {
            lane.withdrawn();
        } else {
            lane.leave(); // hot: as a hot worker of a closed pool does
        }
        String seen = "isWithdrawing(B)=" + bSeesItsWorker + ", B's tryHandWithdrawing=" + bHandedA + ", w2 (A's worker)"
                + " got " + w2Result;
        assertFalse(bSeesItsWorker, "the lane holds B's withdrawing mark, yet the worker in it is A's (w2); B's own"
                + " worker w1 is back home: B, and a task closing the pool waiting in B, count A's worker as B's idle"
                + " one: " + seen);
        assertFalse(bHandedA, "B's submitter handed its task to A's worker through B's withdrawing mark: " + seen);
        assertFalse("B's task".equals(w2Result), "A's worker w2 ran B's task: " + seen);
    }

    private static Object spinner(SpinningWorkers lane) {
        try {
            Field f = SpinningWorkers.class.getDeclaredField("spinner");
            f.setAccessible(true);
            return f.get(lane);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
