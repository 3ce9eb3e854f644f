package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.FrayLane;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The pool's fast lane on its own ({@code SpinningWorkers}, through {@link FrayLane}), explored by Fray with a
 * worker that yields at every look at the slot: the pool's tests meet a worker spinning in the lane only at the
 * scheduling points around its spins (the lane's loop has none), so a state the worker holds for one spin is out
 * of their reach.
 */
@ExtendWith(FrayTestExtension.class)
class FastLaneFrayTest {
    /**
     * {@code SpinningWorkers.takeOutSpinner}: "Takes the worker spinning in the lane out of it, as if its spin
     * budget were spent: from then on it is withdrawing (idle, on its way to its pool's idle queue), and no
     * submitter's fast path hands it a payload"; a submitter's hand-off and the take-out exclude each other
     * ("exactly one of the two CASes wins, so the worker either leaves or has a payload to run"). A worker spins
     * (four looks, each a scheduling point), a taker takes it out and a submitter tries to hand it a task, in any
     * order: a take-out that changed the slot leaves the worker withdrawing at once (PoolCore.awaitOnlyClosers
     * counts it idle on the strength of that, re-checking right after the take-out); never both the take-out and
     * the hand-off; the worker runs the task exactly when it was handed, and returns WITHDRAWING when taken out;
     * the lane ends empty with its token given back (coverage review 11, mutant LN-T on the lane of that time:
     * takeOutSpinner without the second of its two steps, leaving a mark of no pool in the slot until the worker
     * looked, survived every pool Fray test, 3,000 iterations of
     * aTasksReleaseTimeoutZeroWaitsForNoIdleWorkerButForEveryAcceptedTask included; killed here at iteration 11).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSpinnerTakenOutIsWithdrawingAtOnceAndTakesNoPayload() throws Exception {
        int inLanesBefore = FrayLane.inLanes();
        FrayLane lane = FrayLane.withSpins(4);
        AtomicReference<Object> got = new AtomicReference<>();
        AtomicBoolean takenOut = new AtomicBoolean();
        AtomicBoolean handed = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread worker = start("worker", () -> got.set(lane.spin()));
        Thread taker = start("taker", () -> {
            if (lane.takeOutSpinner()) {
                takenOut.set(true);
                if (!lane.isWithdrawing()) {
                    wrong.set("takeOutSpinner changed the slot, yet the worker is not withdrawing");
                }
            }
        });
        Thread submitter = start("submitter", () -> handed.set(lane.tryHand("task")));
        join(worker, taker, submitter);
        assertTrue(wrong.get() == null, wrong::get);
        assertFalse(takenOut.get() && handed.get(), "the worker was taken out and handed a task");
        Object r = got.get();
        assertEquals(handed.get(), "task".equals(r), () -> "handed " + handed.get() + ", the worker got " + r);
        if (takenOut.get()) {
            assertSame(FrayLane.WITHDRAWING, r, () -> "taken out, the worker got " + r);
        }
        if (r == FrayLane.WITHDRAWING) {
            assertSame(FrayLane.NONE, lane.withdrawn(), "a payload reached a withdrawing worker");
        } else if ("task".equals(r)) {
            lane.leave();
        }
        assertEquals(inLanesBefore, FrayLane.inLanes(), "a lane token was not given back");
    }

    /**
     * {@code SpinningWorkers.Owner.marks}: "only a submitter of the same pool hands a payload to a withdrawing
     * worker ({@code tryHandWithdrawing}), since it may have withdrawn to serve a submitter waiting in its pool"; the
     * multi-pool's one exception to first come, first served lies "between a submitter's joining the waiters of a
     * sub-pool and that worker's next check" (MultiPoolCore), not after the worker withdrew. Pool a's worker spins
     * twice (each look a scheduling point) and withdraws, then its pool frees the lane ({@code withdrawn}, as its
     * revert does); meanwhile a submitter of pool b, sharing the lane, tries {@code tryHandWithdrawing} at every
     * step, and one of pool a tries once. The b submitter never hands a's withdrawing worker its task; the worker
     * gets a's task exactly when a's hand-off succeeded; the lane ends empty with its token given back. (Coverage
     * review 12, mutant LN-W: {@code tryHandWithdrawing} taking any pool's withdrawing mark, survived every
     * FastLaneFrayTest, PoolFrayTest and PoolCloseFromTaskFrayTest.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWorkerWithdrawingFromASharedLaneTakesNoPayloadOfAnotherPool() throws Exception {
        int inLanesBefore = FrayLane.inLanes();
        FrayLane a = FrayLane.withSpins(2);
        FrayLane b = a.anotherPoolOnTheSameLane();
        AtomicReference<Object> got = new AtomicReference<>();
        AtomicBoolean workerDone = new AtomicBoolean();
        AtomicBoolean aHanded = new AtomicBoolean();
        AtomicBoolean bHanded = new AtomicBoolean();
        Thread worker = start("a's worker", () -> {
            Object r = a.spin();
            got.set(r == FrayLane.WITHDRAWING ? a.withdrawn() : r);
            workerDone.set(true);
        });
        Thread bSubmitter = start("b's submitter", () -> {
            while (!workerDone.get()) {
                if (b.tryHandWithdrawing("b's task")) {
                    bHanded.set(true);
                    return;
                }
                Thread.yield();
            }
        });
        Thread aSubmitter = start("a's submitter", () -> aHanded.set(a.tryHandWithdrawing("a's task")));
        join(worker, bSubmitter, aSubmitter);
        assertFalse(bHanded.get(), () -> "b's submitter handed a's withdrawing worker its task; the worker got "
                + got.get());
        Object r = got.get();
        assertEquals(aHanded.get(), "a's task".equals(r), () -> "a handed " + aHanded.get() + ", the worker got " + r);
        if (!aHanded.get()) {
            assertSame(FrayLane.NONE, r, () -> "the worker got " + r);
        }
        assertEquals(inLanesBefore, FrayLane.inLanes(), "a lane token was not given back");
    }

    /**
     * {@code PoolWithFunc.invoke(arg)}: "{@code null} allowed"; in the lane {@code NULL} stands for a {@code null}
     * payload, and both hand-offs give it back as {@code null}: the spinning worker's ({@code tryHand}, returned by
     * {@code spin}) and the withdrawing worker's ({@code tryHandWithdrawing}, returned by {@code withdrawn}, a path
     * reached only when the submitter meets the worker between its withdrawal and its revert). A worker spins twice
     * (each look a scheduling point) while a submitter tries at every step to hand it {@code null}, by the fast
     * path and, that failing, by the hand-off to a withdrawing worker: the worker gets {@code null} exactly when
     * a hand-off succeeded, else nothing ({@code NONE}); the token comes back. (Coverage review 12, mutant N-W: {@code withdrawn} returning the
     * {@code NULL} stand-in itself: caught at iterations 20 and 11.)
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aNullPayloadReachesTheWorkerAsNullByEitherHandOff() throws Exception {
        int inLanesBefore = FrayLane.inLanes();
        FrayLane lane = FrayLane.withSpins(2);
        AtomicReference<Object> got = new AtomicReference<>(FrayLane.WITHDRAWING);
        AtomicReference<String> handed = new AtomicReference<>("no");
        Thread worker = start("worker", () -> {
            Object r = lane.spin();
            if (r == FrayLane.WITHDRAWING) {
                r = lane.withdrawn();
            } else if (r != FrayLane.NONE) {
                lane.leave(); // hot: leaves the lane after its payload
            }
            got.set(r);
        });
        Thread submitter = start("submitter", () -> {
            while (got.get() == FrayLane.WITHDRAWING) { // until the worker is done: at every step
                if (lane.tryHand(null)) {
                    handed.set("to the spinning worker");
                    return;
                }
                if (lane.tryHandWithdrawing(null)) {
                    handed.set("to the withdrawing worker");
                    return;
                }
                Thread.yield();
            }
        });
        join(worker, submitter);
        Object r = got.get();
        if ("no".equals(handed.get())) {
            assertSame(FrayLane.NONE, r, () -> "nothing handed, the worker got " + r);
        } else {
            assertTrue(r == null, () -> "null handed " + handed.get() + ", the worker got " + r);
        }
        assertEquals(inLanesBefore, FrayLane.inLanes(), "a lane token was not given back");
    }

    /**
     * {@code SpinningWorkers}: the lane does not "let a submission overtake a waiting submitter: the pool skips
     * the lane while submitters wait, and a spinning worker stops as soon as one waits in its pool";
     * docs/design.md: "a submitter never takes an idle worker, a free slot or the fast lane past a waiting one.
     * Before parking, a submitter looks again a few times, again only while nobody else waits" ({@code tryHand}
     * looks at {@code stopsSpinning} again before each CAS but the first). The worker took t from the lane and
     * runs it (hot); s1 tries to hand it a task and spins for it to come back; once s1 has looked at its pool
     * (its first CAS failed), another submitter starts to wait ({@code stopsSpinning} true from then on), and only
     * then does the worker come back to the lane. s1 never takes it: the worker withdraws (to serve the waiter),
     * with no payload, and the lane's token comes back. (Coverage review 13, mutant LN-L: {@code tryHand} without
     * its look before each CAS after the first, survived every FastLaneFrayTest, PoolFrayTest and
     * PoolCloseFromTaskFrayTest; the JDI test ASubmitterLookingForTheHotWorkerDoesNotOvertakeAWaitingSubmitterTest
     * forces the same window in the pool.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterLookingForTheHotWorkerDoesNotTakeItOnceAnotherSubmitterWaits() throws Exception {
        int inLanesBefore = FrayLane.inLanes();
        AtomicBoolean waiting = new AtomicBoolean();
        AtomicReference<Thread> s1Thread = new AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger s1Looks = new java.util.concurrent.atomic.AtomicInteger();
        FrayLane lane = FrayLane.withSpinsStoppingWhen(1000, () -> {
            if (Thread.currentThread() == s1Thread.get()) {
                s1Looks.incrementAndGet();
            }
            return waiting.get();
        });
        AtomicReference<Object> got = new AtomicReference<>();
        AtomicBoolean s1Handed = new AtomicBoolean();
        Thread worker = start("worker", () -> {
            Object first;
            while (!"t".equals(first = lane.spin())) {
                if (first == FrayLane.WITHDRAWING) {
                    lane.withdrawn();
                }
            }
            FrayThreads.until("a submitter waits", waiting::get);
            Object r = lane.spinHot(first);
            if (r == FrayLane.WITHDRAWING) {
                Object late = lane.withdrawn();
                got.set(late == FrayLane.NONE ? r : late);
            } else {
                got.set(r);
                lane.leave();
            }
        });
        FrayThreads.until("the worker spins", lane::hasSpinner);
        FrayThreads.until("t is handed to the worker", () -> lane.tryHand("t"));
        Thread s1 = new Thread(() -> s1Handed.set(lane.tryHand("s1")), "s1");
        s1Thread.set(s1);
        s1.start();
        Thread waiter = start("waiter", () -> {
            FrayThreads.until("s1 looked at its pool", () -> s1Looks.get() > 0);
            waiting.set(true);
        });
        join(worker, s1, waiter);
        assertFalse(s1Handed.get(), () -> "a submitter looking for the hot worker took it while another submitter"
                + " waited; the worker got " + got.get());
        assertSame(FrayLane.WITHDRAWING, got.get(), () -> "the worker got " + got.get());
        assertEquals(inLanesBefore, FrayLane.inLanes(), "a lane token was not given back");
    }
}
