package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
 * README (Pool): "{@code execute} hands a task straight to the most recently idle worker, starts a new worker
 * while fewer than {@code cap()} are alive, or else blocks the submitter" (ants' {@code retrieveWorker}: an idle
 * worker first, a new one only if none is idle). WorkerPool.idle: "A worker that has just finished a task and
 * spins in the pool's fast lane counts as idle, also while it goes from the lane back to the idle queue". Commit
 * ff368d4 hands a task to a worker withdrawing from the lane only when the pool is full: with a free slot the
 * submitter starts a second worker while the only one is idle on its way to the queue.
 *
 * <p>Deterministic as {@link NonblockingSubmitTakesTheWorkerWithdrawingFromTheLaneTest}: the test holds the pool
 * lock while the worker withdraws, and keeps the virtual worker off every carrier with busy virtual threads, so
 * that the platform submitter takes the lock first when the test lets it go.
 */
class SubmitTakesTheIdleWorkerBeforeStartingOneTest {

    @Test
    void aSubmitWithAFreeSlotTakesTheWorkerWithdrawingIdleFromTheLane() throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(1); // withdraws after one spin
        PoolCore core = new PoolCore("withdrawing-lane-free-slot", 2, PoolOptions.builder().disablePurge(true).build(),
                task -> ((Runnable) task).run(), lane);
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        assertTrue(core.dispatch((Runnable) () -> {
            firstThread.set(Thread.currentThread());
            firstRunning.countDown();
            block(go);
        }, false, 0L));
        await(firstRunning);

        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        AtomicBoolean stopBusy = new AtomicBoolean();
        List<Thread> busy = new ArrayList<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Thread> secondThread = new AtomicReference<>();
        CountDownLatch secondRan = new CountDownLatch(1);
        int idleBefore;
        int runningAfter;
        try {
            Thread submitter;
            core.lockCounts();
            try {
                go.countDown(); // the worker ends its task, spins once, withdraws, and waits for the lock
                eventually("the worker withdrawing from the lane (idle, not yet on the queue)",
                        () -> lane.idleWorkers() == 1 && !lane.hasSpinner(), core::toString);
                idleBefore = core.queuedLocked() + lane.idleWorkers(); // idle(), read under the lock we hold
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
                        core.dispatch((Runnable) () -> {
                            secondThread.set(Thread.currentThread());
                            secondRan.countDown();
                        }, false, 0L);
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
            runningAfter = core.running();
        } finally {
            stopBusy.set(true);
            for (Thread t : busy) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        boolean ran = secondRan.await(10, TimeUnit.SECONDS);
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        int idle = idleBefore;
        int running = runningAfter;
        assertAll(
                () -> assertEquals(1, idle, "precondition: idle() = 1 when the task was submitted"),
                () -> assertNull(thrown.get(), "the submission threw"),
                () -> assertTrue(ran, "the second task did not run"),
                () -> assertEquals(1, running, "running() after a submission to a pool whose only worker was idle"
                        + " (withdrawing from the lane): a second worker was started instead"),
                () -> assertSame(firstThread.get(), secondThread.get(),
                        "the task did not run on the idle worker but on a new one"),
                () -> assertTrue(terminated, "not terminated: " + core));
    }
}
