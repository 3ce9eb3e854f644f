package io.ants4j.pool;

import static io.ants4j.pool.LaneFixtures.awaitWaitingForThePoolLock;
import static io.ants4j.pool.LaneFixtures.poolWithItsOnlyWorkerBusy;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.LaneFixtures.BusyPool;
import io.ants4j.pool.LaneFixtures.CarriersOccupied;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A non-blocking pool rejects a submission only when no worker is free (PoolOptions.nonblocking: "never block a
 * submitter: reject at once with PoolOverloadException when no worker is free"); a worker that spun in the fast
 * lane in vain and is on its way back to the idle queue is idle (WorkerPool.idle: "A worker that has just
 * finished a task and spins in the pool's fast lane counts as idle, also while it goes from the lane back to
 * the idle queue"), and {@code idle()} says so. Commit 7eaec92 made a non-blocking submit take a worker
 * SPINNING in the lane before it rejects, but not one WITHDRAWING from it: the submitter finds
 * {@code WITHDRAWING} on the fast path (treated as nobody), the worker not yet on the queue under the lock,
 * {@code hasSpinner()} false, and throws {@link PoolOverloadException} while {@code idle() == running() == 1}.
 * A zero-timeout {@code tryExecute} ("if one is or becomes free within timeout") returns false the same way.
 *
 * <p>Deterministic: the test holds the pool lock while the worker withdraws (so it waits for the lock in its
 * revert), then keeps the virtual worker off every carrier with busy virtual threads (virtual threads are not
 * preempted), so the platform submitter is the one that takes the lock when the test lets it go.
 */
class NonblockingSubmitTakesTheWorkerWithdrawingFromTheLaneTest {

    @Test
    void aNonblockingExecuteIsNotRejectedWhileTheOnlyWorkerWithdrawsIdleFromTheLane() throws Exception {
        Submission s = submitWhileTheWorkerWithdraws(PoolOptions.builder().nonblocking(true), false);
        assertAll(
                () -> assertNull(s.thrown.get(), "the submission was refused while the pool's only worker was idle,"
                        + " withdrawing from the lane"),
                () -> assertTrue(s.handedOver.get() && s.ran, "the second task was not handed over and run (handed"
                        + " over: " + s.handedOver.get() + ")"),
                () -> assertTrue(s.terminated, "not terminated"));
    }

    @Test
    void aZeroTimeoutTryExecuteTakesTheWorkerWithdrawingIdleFromTheLane() throws Exception {
        Submission s = submitWhileTheWorkerWithdraws(PoolOptions.builder().nonblocking(true), true);
        assertAll(
                () -> assertNull(s.thrown.get(), "tryExecute threw"),
                () -> assertTrue(s.handedOver.get(), "tryExecute(task, ZERO) returned false while the pool's only"
                        + " worker was idle, withdrawing from the lane"),
                () -> assertTrue(s.ran, "the second task did not run"),
                () -> assertTrue(s.terminated, "not terminated"));
    }

    /**
     * The same state in a blocking pool with {@code maxBlockingTasks(1)}: a submitter that finds no worker on the
     * queue, no free slot and no spinning worker does not wait (nor count in {@code waiting()}, which would make
     * {@code maxBlockingTasks} reject the next) while the withdrawing worker is idle: it hands it its task.
     */
    @Test
    void aMaxBlockingTasksPoolDoesNotRejectWhileTheOnlyWorkerWithdrawsIdleFromTheLane() throws Exception {
        Submission s = submitWhileTheWorkerWithdraws(PoolOptions.builder().maxBlockingTasks(1), false);
        assertAll(
                () -> assertNull(s.thrown.get(), "the submitter threw"),
                () -> assertTrue(s.returned, "the submitter waits for a worker while the pool's only worker is idle,"
                        + " withdrawing from the lane (waiting() = " + s.waiting + ")"),
                () -> assertEquals(0, s.waiting, "waiting() while the worker is idle"),
                () -> assertTrue(s.ran, "the task handed over ran"),
                () -> assertTrue(s.terminated, "not terminated"));
    }

    /** What a submission made while the pool's only worker withdrew from the lane came to. */
    private static final class Submission {
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final AtomicBoolean handedOver = new AtomicBoolean();
        boolean returned;
        int waiting = -1;
        boolean ran;
        boolean terminated;
    }

    private static Submission submitWhileTheWorkerWithdraws(PoolOptions.Builder options, boolean timedZero)
            throws Exception {
        SpinningWorkers lane = new SpinningWorkers(1); // withdraws after one spin
        BusyPool pool = poolWithItsOnlyWorkerBusy("withdrawing-lane", // default factory: virtual workers
                options.disablePurge(true).build(), lane);
        PoolCore core = pool.core();
        Submission s = new Submission();
        CountDownLatch secondRan = new CountDownLatch(1);
        core.lockCounts();
        boolean locked = true;
        try {
            pool.finish().countDown(); // the worker ends its task, spins once, withdraws, and waits for the lock
            eventually("the worker withdrawing from the lane (idle, not yet on the queue)",
                    () -> lane.idleWorkers() == 1 && !lane.hasSpinner(), core::toString);
            try (CarriersOccupied carriers = new CarriersOccupied()) { // the virtual worker cannot run meanwhile
                Thread submitter = Thread.ofPlatform().daemon(true).name("submitter").start(() -> {
                    try {
                        s.handedOver.set(core.dispatch((Runnable) secondRan::countDown, timedZero, 0L));
                    } catch (Throwable t) {
                        s.thrown.set(t);
                    }
                });
                awaitWaitingForThePoolLock(submitter, "the submitter past the fast lane, waiting for the pool's lock");
                core.unlockCounts(); // the submitter takes it first: the worker is held off its carrier
                locked = false;
                submitter.join(TimeUnit.SECONDS.toMillis(10));
                s.returned = !submitter.isAlive();
                s.waiting = core.waiting();
            }
        } finally {
            if (locked) {
                core.unlockCounts();
            }
        }
        s.ran = secondRan.await(10, TimeUnit.SECONDS);
        core.release();
        s.terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        return s;
    }
}
