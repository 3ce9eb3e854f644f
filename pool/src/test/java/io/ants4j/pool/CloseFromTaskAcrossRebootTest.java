package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkerPool#close()} called from a task: "it releases the pool, waits until every other task has ended
 * except those that are themselves calling close on this pool (or have called it), and returns". A task closes
 * its pool while another task still runs; the pool is rebooted meanwhile (by another thread, as {@code reboot()}
 * allows at any time); the other task then ends, its worker idle in the reopened pool (kept, or purged), so no
 * task but the closing one is left, and {@code close()} must return. In a {@link MultiPool} the other task runs
 * on the other sub-pool, which after the reboot is open and has no closer of its own: a worker going idle or
 * retiring there must still wake the closing task.
 */
class CloseFromTaskAcrossRebootTest {

    @Test
    void poolCloseFromATaskReturnsOnceTheOtherTaskEndedAfterAReboot() throws Exception {
        Pool pool = Pool.newPool(2, options(true));
        closeFromTaskAcrossAReboot(pool, true);
    }

    @Test
    void poolCloseFromATaskReturnsOnceTheOtherTaskEndedAfterARebootThoughItsWorkerStaysIdle() throws Exception {
        Pool pool = Pool.newPool(2, options(false));
        closeFromTaskAcrossAReboot(pool, false);
    }

    @Test
    void multiPoolCloseFromATaskReturnsOnceTheOtherTaskEndedAfterAReboot() throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options(true));
        closeFromTaskAcrossAReboot(multi, true);
    }

    @Test
    void multiPoolCloseFromATaskReturnsOnceTheOtherTaskEndedAfterARebootThoughItsWorkerStaysIdle() throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options(false));
        closeFromTaskAcrossAReboot(multi, false);
    }

    /** Platform workers; idle ones purged after 20 ms, or never. */
    private static PoolOptions options(boolean purge) {
        return PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().daemon(true).name("close-across-reboot-worker-", 0).factory())
                .expiryDuration(Duration.ofMillis(20))
                .disablePurge(!purge)
                .build();
    }

    /**
     * @param purge whether the other task's worker, idle in the reopened pool, is purged before {@code close()}
     *              is expected to return; without purge it stays idle, and the task has ended all the same
     */
    private static void closeFromTaskAcrossAReboot(ExecutorService pool, boolean purge) throws Exception {
        WorkerPool wp = (WorkerPool) pool;
        CountDownLatch closerStarted = new CountDownLatch(1);
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        CountDownLatch otherRuns = new CountDownLatch(1);
        CountDownLatch otherMayEnd = new CountDownLatch(1);
        AtomicReference<Thread> closer = new AtomicReference<>();
        pool.execute(() -> {
            closer.set(Thread.currentThread());
            closerStarted.countDown();
            TestSupport.block(closeNow);
            wp.close();
            closeReturned.countDown();
        });
        TestSupport.await(closerStarted);
        pool.execute(() -> { // round robin: the other sub-pool of a multi-pool
            otherRuns.countDown();
            TestSupport.block(otherMayEnd);
        });
        TestSupport.await(otherRuns);
        try {
            closeNow.countDown();
            // the closing task releases the pool and waits for the other task
            TestSupport.eventually("the closing task waits for the other task", () -> wp.isClosed()
                    && closer.get().getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(closer.get().getStackTrace())
                            .anyMatch(f -> f.getMethodName().equals("awaitOnlyClosers")), pool::toString);
            wp.reboot();
            otherMayEnd.countDown();
            // the other task has ended (its worker purged, or idle): only the closing task is left
            TestSupport.eventually("the other task's worker is " + (purge ? "purged" : "idle"),
                    () -> purge ? wp.running() <= 1 : wp.idle() >= 1, pool::toString);
            assertTrue(closeReturned.await(5, TimeUnit.SECONDS),
                    () -> "close() from a task still waits, though no other task is left: " + pool
                            + "; the closing task: " + Arrays.toString(closer.get().getStackTrace()));
        } finally {
            otherMayEnd.countDown();
            wp.release(); // a release broadcasts termination: the closing task wakes up and returns
            closeReturned.await(10, TimeUnit.SECONDS);
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
