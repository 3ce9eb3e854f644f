package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
        submitWhileTheWorkerWithdraws(false);
    }

    @Test
    void aZeroTimeoutTryExecuteTakesTheWorkerWithdrawingIdleFromTheLane() throws Exception {
        submitWhileTheWorkerWithdraws(true);
    }

    /**
     * The same state in a blocking pool with {@code maxBlockingTasks(1)}: a submitter that finds no worker on the
     * queue, no free slot and no spinning worker does not wait (nor count in {@code waiting()}, which would make
     * {@code maxBlockingTasks} reject the next) while the withdrawing worker is idle: it hands it its task.
     */
    @Test
    void aMaxBlockingTasksPoolDoesNotRejectWhileTheOnlyWorkerWithdrawsIdleFromTheLane() throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(1);
        PoolCore core = new PoolCore("withdrawing-lane-mbt", 1, PoolOptions.builder().maxBlockingTasks(1)
                .disablePurge(true).build(), task -> ((Runnable) task).run(), lane);
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) () -> {
            firstRunning.countDown();
            block(go);
        }, false, 0L));
        await(firstRunning);
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        AtomicBoolean stopBusy = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        AtomicReference<Throwable> firstThrew = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        boolean firstReturned = false;
        int waitingThen = -1;
        Thread first;
        try {
            core.lockCounts();
            try {
                go.countDown();
                eventually("the worker withdrawing from the lane (idle, not yet on the queue)",
                        () -> lane.idleWorkers() == 1 && !lane.hasSpinner(), core::toString);
                CountDownLatch allBusy = new CountDownLatch(carriers);
                for (int i = 0; i < carriers; i++) {
                    busy.add(Thread.ofVirtual().name("busy-" + i).start(() -> {
                        allBusy.countDown();
                        while (!stopBusy.get()) {
                            Thread.onSpinWait();
                        }
                    }));
                }
                await(allBusy);
                first = Thread.ofPlatform().daemon(true).name("first").start(() -> {
                    try {
                        core.dispatch((Runnable) ran::countDown, false, 0L);
                    } catch (Throwable t) {
                        firstThrew.set(t);
                    }
                });
                Thread f = first;
                eventually("the first submitter waiting for the pool's lock",
                        () -> Arrays.stream(f.getStackTrace())
                                .anyMatch(e -> e.getClassName().equals("io.ants4j.primitives.SpinLock")));
            } finally {
                core.unlockCounts();
            }
            first.join(TimeUnit.SECONDS.toMillis(10));
            firstReturned = !first.isAlive();
            waitingThen = core.waiting();
        } finally {
            stopBusy.set(true);
            for (Thread t : busy) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        boolean firstRan = ran.await(10, TimeUnit.SECONDS);
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        boolean returned = firstReturned;
        int waiting = waitingThen;
        assertAll(
                () -> assertNull(firstThrew.get(), "first submitter"),
                () -> assertTrue(returned, "the submitter waits for a worker while the pool's only worker is idle,"
                        + " withdrawing from the lane (waiting() = " + waiting + ")"),
                () -> assertEquals(0, waiting, "waiting() while the worker is idle"),
                () -> assertTrue(firstRan, "the task handed over ran"),
                () -> assertTrue(terminated, "not terminated: " + core));
    }

    private static void submitWhileTheWorkerWithdraws(boolean timedZero) throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(1); // withdraws after one spin
        PoolCore core = new PoolCore("withdrawing-lane", 1, PoolOptions.builder().nonblocking(true)
                .disablePurge(true).build(), // default factory: virtual workers
                task -> ((Runnable) task).run(), lane);
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) () -> {
            firstRunning.countDown();
            block(go);
        }, false, 0L));
        await(firstRunning);

        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        AtomicBoolean stopBusy = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean handedOver = new AtomicBoolean();
        CountDownLatch secondRan = new CountDownLatch(1);
        int runningAtSubmit;
        try {
            Thread submitter;
            core.lockCounts();
            try {
                go.countDown(); // the worker ends its task, spins once, withdraws, and waits for the lock
                eventually("the worker withdrawing from the lane (idle, not yet on the queue)",
                        () -> lane.idleWorkers() == 1 && !lane.hasSpinner(), core::toString);
                CountDownLatch allBusy = new CountDownLatch(carriers);
                for (int i = 0; i < carriers; i++) {
                    busy.add(Thread.ofVirtual().name("busy-" + i).start(() -> {
                        allBusy.countDown();
                        while (!stopBusy.get()) {
                            Thread.onSpinWait();
                        }
                    }));
                }
                await(allBusy); // every carrier taken: the virtual worker cannot run until they stop
                submitter = Thread.ofPlatform().daemon(true).name("submitter").start(() -> {
                    try {
                        handedOver.set(core.dispatch((Runnable) secondRan::countDown, timedZero, 0L));
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                });
                Thread s = submitter;
                eventually("the submitter past the fast lane, waiting for the pool's lock",
                        () -> Arrays.stream(s.getStackTrace())
                                .anyMatch(e -> e.getClassName().equals("io.ants4j.primitives.SpinLock")));
            } finally {
                core.unlockCounts();
            }
            submitter.join(TimeUnit.SECONDS.toMillis(10));
            runningAtSubmit = core.running();
        } finally {
            stopBusy.set(true);
            for (Thread t : busy) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        boolean ran = handedOver.get() && secondRan.await(10, TimeUnit.SECONDS);
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        assertAll(
                () -> assertEquals(1, runningAtSubmit, "precondition: the one worker alive"),
                () -> assertNull(thrown.get(), "the submission was refused while the pool's only worker was idle,"
                        + " withdrawing from the lane"),
                () -> assertTrue(ran, "the second task was not handed over and run (handed over: "
                        + handedOver.get() + ")"),
                () -> assertTrue(terminated, "not terminated: " + core));
    }
}
