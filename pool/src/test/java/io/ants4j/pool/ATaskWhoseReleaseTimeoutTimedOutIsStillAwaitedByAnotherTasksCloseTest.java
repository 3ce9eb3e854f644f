package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkerPool#close()} called from a task (WorkerPool.java:199-201): "it releases the pool, waits until every
 * other task has ended except those that are themselves calling {@code close} on this pool (or have called it),
 * and returns". Task A calls {@link WorkerPool#releaseTimeout} (not {@code close}) on its own pool; it times out
 * ({@code TimeoutException}: "the pool stays closed", WorkerPool.java:170) because task B runs, and A goes on
 * running. B then calls {@code close()}: A has neither called nor is calling {@code close}, so B's close must wait
 * for A. It returns at once while A still runs: releaseTimeout on a worker thread goes through {@code awaitClose},
 * which counts A's task as a closer until it ends, also after the TimeoutException told A the pool had not
 * terminated. So B's close() also breaks its memory-consistency clause (A's actions do not happen-before it).
 */
class ATaskWhoseReleaseTimeoutTimedOutIsStillAwaitedByAnotherTasksCloseTest {

    @Test
    void pool() throws Exception {
        check(Pool.newPool(2, options()));
    }

    @Test
    void multiPool() throws Exception {
        check(MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options()));
    }

    private static PoolOptions options() {
        return PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().daemon(true).name("rt-closer-", 0).factory())
                .disablePurge(true)
                .build();
    }

    private static void check(java.util.concurrent.ExecutorService pool) throws Exception {
        WorkerPool wp = (WorkerPool) pool;
        CountDownLatch aRuns = new CountDownLatch(1);
        CountDownLatch aGo = new CountDownLatch(1);
        CountDownLatch aTimedOut = new CountDownLatch(1);
        CountDownLatch aMayEnd = new CountDownLatch(1);
        CountDownLatch bRuns = new CountDownLatch(1);
        CountDownLatch bClose = new CountDownLatch(1);
        CountDownLatch bCloseReturned = new CountDownLatch(1);
        AtomicBoolean aEnded = new AtomicBoolean();
        AtomicBoolean aEndedWhenBsCloseReturned = new AtomicBoolean();
        pool.execute(() -> {
            aRuns.countDown();
            TestSupport.block(aGo);
            try {
                wp.releaseTimeout(Duration.ZERO);
            } catch (TimeoutException expected) {
                aTimedOut.countDown();
            }
            TestSupport.block(aMayEnd);
            aEnded.set(true);
        });
        pool.execute(() -> {
            bRuns.countDown();
            TestSupport.block(bClose);
            wp.close();
            aEndedWhenBsCloseReturned.set(aEnded.get());
            bCloseReturned.countDown();
        });
        TestSupport.await(aRuns);
        TestSupport.await(bRuns);
        aGo.countDown();
        TestSupport.await(aTimedOut); // B runs: A's releaseTimeout timed out, the pool stays closed
        bClose.countDown();
        try {
            // negative wait: with the defect B's close() counts A as a closer and returns at once, within
            // microseconds of bClose: 1 s is ample
            boolean returnedEarly = bCloseReturned.await(1, TimeUnit.SECONDS);
            assertFalse(returnedEarly && !aEndedWhenBsCloseReturned.get(),
                    "task B's close() returned while task A, which called releaseTimeout (timed out), not close,"
                            + " still runs: " + wp);
        } finally {
            aMayEnd.countDown();
        }
        TestSupport.await(bCloseReturned);
        assertTrue(wp.awaitTermination(10, TimeUnit.SECONDS), "pool did not terminate: " + wp);
    }
}
