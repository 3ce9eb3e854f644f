package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review: {@code idle()} is documented as "running() minus the workers busy with one", and the counts as
 * "exact at the moment of reading". A multi-pool with one worker can never have two idle workers, but
 * MultiPoolCore.idle() reads the shared lane before the sub-pools' idle queues, so a worker that leaves the
 * lane for its idle queue between the two reads is counted twice. Statistical: fails within seconds.
 */
class IdleCountReviewTest {

    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(8);

    @Test
    @Timeout(60)
    void multiPoolIdleNeverCountsTheOneWorkerTwice() throws Exception {
        try (MultiPool pool = MultiPool.newMultiPool(1, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().threadFactory(Thread.ofPlatform().daemon().factory()).build())) {
            assertIdleNeverAboveOne(pool::idle, pool);
        }
    }

    private static void assertIdleNeverAboveOne(Supplier<Integer> idle, AbstractPoolExecutor pool)
            throws InterruptedException {
        AtomicInteger worst = new AtomicInteger();
        CountDownLatch stop = new CountDownLatch(1);
        Thread reader = Thread.ofPlatform().start(() -> {
            while (stop.getCount() > 0) {
                int n = idle.get();
                if (n > worst.get()) {
                    worst.set(n);
                }
            }
        });
        long deadline = System.nanoTime() + BUDGET_NANOS;
        long submitted = 0;
        while (System.nanoTime() - deadline < 0 && worst.get() <= 1) {
            pool.execute(() -> { });
            submitted++;
            if ((submitted & 7) == 0) { // let the worker leave the lane and go back to the idle queue now and then
                long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(200);
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
            }
        }
        stop.countDown();
        reader.join(Duration.ofSeconds(10));
        assertTrue(worst.get() <= 1, "idle() reported " + worst.get() + " idle workers in a pool with one worker ("
                + pool + ", after " + submitted + " submissions)");
    }
}
