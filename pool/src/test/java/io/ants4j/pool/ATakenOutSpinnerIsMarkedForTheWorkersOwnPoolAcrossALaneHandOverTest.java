package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * In a lane that several pools share (a multi-pool's sub-pools), a worker taken out of the lane
 * ({@code SpinningWorkers.takeOutSpinner}) withdraws for its own pool: the slot then holds that pool's withdrawing
 * mark, which only a submitter of the same pool hands a payload to, and {@code isWithdrawing(owner)} is true for its
 * pool only. Through these a multi-pool counts each idle worker once and a task closing it counts only its own
 * sub-pool's withdrawing worker. Here the lane changes hands between two take-outs: B's worker is taken out and goes
 * home, then A's worker enters, is held in its {@code stopsSpinning()} check (a point where it may be preempted), and
 * is taken out in turn. Review 46 found the taker of that time reading the worker's pool and writing its mark in two
 * steps, so that a taker preempted between them while the lane changed hands wrote B's mark for A's worker (B's
 * submitter then handed its task to A's worker); the mark now names its pool in the one word the taker swaps.
 */
@Timeout(60)
class ATakenOutSpinnerIsMarkedForTheWorkersOwnPoolAcrossALaneHandOverTest {

    /** A pool of the shared lane whose worker can be held in its {@code stopsSpinning()} check. */
    private static final class HeldOwner implements SpinningWorkers.Owner {
        final SpinningWorkers.Marks marks = SpinningWorkers.newMarks();
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
        public SpinningWorkers.Marks marks() {
            return marks;
        }
    }

    @Test
    void aWorkerTakenOutAfterTheLaneChangedHandsIsMarkedForItsOwnPool() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        HeldOwner poolA = new HeldOwner();
        HeldOwner poolB = new HeldOwner();

        // w1, a worker of B, spins in the lane; a taker takes it out: withdrawing for B at once
        AtomicReference<Object> w1Got = new AtomicReference<>();
        Thread w1 = Thread.ofPlatform().start(() -> w1Got.set(lane.spin(SpinningWorkers.NONE, poolB)));
        TestSupport.eventually("w1 spins", lane::hasSpinner);
        assertTrue(lane.takeOutSpinner());
        assertTrue(lane.isWithdrawing(poolB), "w1 taken out: withdrawing for B");
        assertFalse(lane.isWithdrawing(poolA));

        // w1 withdraws; B's revert has it back: the lane is empty
        assertTrue(w1.join(TestSupport.WAIT), "w1 still spins");
        assertSame(SpinningWorkers.WITHDRAWING, w1Got.get());
        assertSame(SpinningWorkers.NONE, lane.withdrawn(), "B's revert of w1");

        // w2, a worker of A, enters and spins; it is held in its stopsSpinning check; a taker takes it out
        AtomicReference<Object> w2Got = new AtomicReference<>();
        poolA.holdSpinner = true;
        Thread w2 = Thread.ofPlatform().start(() -> w2Got.set(lane.spin(SpinningWorkers.NONE, poolA)));
        await(poolA.spinnerHeld);
        assertTrue(lane.takeOutSpinner());
        boolean bSeesAWorker = lane.isWithdrawing(poolB);
        boolean aSeesItsWorker = lane.isWithdrawing(poolA);
        boolean bHandedA = lane.tryHandWithdrawing("B's task", poolB);
        poolA.releaseSpinner.countDown();
        assertTrue(w2.join(TestSupport.WAIT), "w2 still spins");
        Object w2Result = w2Got.get();
        if (w2Result == SpinningWorkers.WITHDRAWING) {
            lane.withdrawn();
        } else {
            lane.leave(); // hot: as a hot worker of a closed pool does
        }
        String seen = "isWithdrawing(A)=" + aSeesItsWorker + ", isWithdrawing(B)=" + bSeesAWorker
                + ", B's tryHandWithdrawing=" + bHandedA + ", w2 (A's worker) got " + w2Result;
        assertTrue(aSeesItsWorker, "A's worker taken out, not withdrawing for A: " + seen);
        assertFalse(bSeesAWorker, "the lane holds B's withdrawing mark for A's worker: " + seen);
        assertFalse(bHandedA, "B's submitter handed its task to A's worker: " + seen);
        assertSame(SpinningWorkers.WITHDRAWING, w2Result, "A's worker, taken out, did not withdraw: " + seen);
    }
}
