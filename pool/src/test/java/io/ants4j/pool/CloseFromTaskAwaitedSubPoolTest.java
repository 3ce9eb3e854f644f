package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkerPool#close()} from a task: "it releases the pool, waits until every other task has ended
 * except those that are themselves calling close on this pool (or have called it), and returns"; "the actions of
 * every task of the pool, other than the calling one and the other tasks that called close on it, happen-before
 * close returns". CHANGELOG (Unreleased, Fixed): "close() from a task returns once the other tasks have ended even
 * if the pool was rebooted meanwhile".
 *
 * <p>The closing task waits while another task, Y, runs; the pool is rebooted (as {@code reboot()} allows at any
 * time) and a task X is submitted and starts; then Y ends. X is another task of the pool, running, and not
 * closing it: a {@link Pool}'s close waits for it (the control). A {@link MultiPool}'s close awaits its sub-pools
 * one after the other; X runs in sub-pool 0, which the closing task had already awaited before the reboot, so
 * close returns while X still runs.
 */
class CloseFromTaskAwaitedSubPoolTest {

    @Test
    void multiPoolCloseFromATaskDoesNotReturnWhileATaskStartedAfterARebootRuns() throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN, options());
        closeWhileATaskOfTheRebootedPoolRuns(multi);
    }

    /** Control: a Pool's close waits for that task (this one passes). */
    @Test
    void controlPoolCloseFromATaskDoesNotReturnWhileATaskStartedAfterARebootRuns() throws Exception {
        Pool pool = Pool.newPool(3, options());
        closeWhileATaskOfTheRebootedPoolRuns(pool);
    }

    private static PoolOptions options() {
        return PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().daemon(true).name("close-awaited-sub-pool-worker-", 0).factory())
                .disablePurge(true)
                .build();
    }

    private static void closeWhileATaskOfTheRebootedPoolRuns(ExecutorService pool) throws Exception {
        WorkerPool wp = (WorkerPool) pool;
        CountDownLatch closerStarted = new CountDownLatch(1);
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        CountDownLatch yRuns = new CountDownLatch(1);
        CountDownLatch yMayEnd = new CountDownLatch(1);
        CountDownLatch xRuns = new CountDownLatch(1);
        CountDownLatch xMayEnd = new CountDownLatch(1);
        CountDownLatch xEnded = new CountDownLatch(1);
        AtomicReference<Boolean> xRunningAtReturn = new AtomicReference<>();
        AtomicReference<Thread> closer = new AtomicReference<>();
        pool.execute(() -> { // round robin: sub-pool 0
            closer.set(Thread.currentThread());
            closerStarted.countDown();
            TestSupport.block(closeNow);
            wp.close();
            xRunningAtReturn.set(xRuns.getCount() == 0 && xEnded.getCount() == 1);
            closeReturned.countDown();
        });
        TestSupport.await(closerStarted);
        pool.execute(() -> { // sub-pool 1
            yRuns.countDown();
            TestSupport.block(yMayEnd);
        });
        TestSupport.await(yRuns);
        try {
            closeNow.countDown();
            // the closing task has released the pool and waits for Y (in a multi-pool: sub-pool 0 already passed)
            TestSupport.eventually("the closing task waits for Y", () -> wp.isClosed()
                    && closer.get().getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(closer.get().getStackTrace())
                            .anyMatch(f -> f.getMethodName().equals("awaitOnlyClosers")), pool::toString);
            wp.reboot();
            pool.execute(() -> { // the reboot reset round robin: sub-pool 0
                xRuns.countDown();
                TestSupport.block(xMayEnd);
                xEnded.countDown();
            });
            TestSupport.await(xRuns);
            yMayEnd.countDown(); // Y ends; X, a task that does not close the pool, still runs
            // negative wait: with the defect close() returns as soon as Y ends (sub-pool 1 then has no other task),
            // within microseconds of yMayEnd; correct, it waits for X, which ends only in the finally: 1 s is ample
            boolean returned = closeReturned.await(1, TimeUnit.SECONDS);
            assertFalse(returned && Boolean.TRUE.equals(xRunningAtReturn.get()),
                    () -> "close() from a task returned while another task of the pool (X, started after the"
                            + " reboot, not closing the pool) still ran: " + pool);
        } finally {
            yMayEnd.countDown();
            xMayEnd.countDown();
            assertTrue(closeReturned.await(10, TimeUnit.SECONDS), pool::toString);
            wp.release();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool::toString);
        }
    }
}
