package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code idle()} is documented as "running() minus the workers busy with one", and the counts as
 * "exact at the moment of reading", so an idle count never exceeds the running count of the same instant.
 * MultiPoolCore.idle() read the shared lane before the sub-pools' idle queues, so a worker that left the lane
 * for its idle queue between the two reads was counted twice: 2 idle workers in a multi-pool of one. A reader
 * reads {@code idle()} and then {@code running()} while a submitter keeps the workers going between task, lane
 * and idle queue, pausing now and then so that a worker spins out of the lane; no worker retires meanwhile (no
 * purger, no tune, no release), so {@code running} only grows and the idle count read first must not exceed
 * it. Statistical: on the old code the multi-pool cases failed in every run, within a second.
 */
class IdleNeverAboveRunningTest {

    /** Half the former 3 s: on the old code the multi-pool cases failed in every run within a second. */
    private static final long BUDGET_NANOS = TimeUnit.MILLISECONDS.toNanos(1_500);
    private static final PoolOptions NO_PURGE = PoolOptions.builder()
            .threadFactory(Thread.ofPlatform().daemon().factory()).disablePurge(true).build();

    @Test
    @Timeout(60)
    void multiPoolIdleNeverCountsTheOneWorkerTwice() throws Exception {
        try (MultiPool pool = MultiPool.newMultiPool(1, 1, LoadBalancing.ROUND_ROBIN, NO_PURGE)) {
            assertIdleNeverAboveRunning(pool);
        }
    }

    /** Two sub-pools: the count holds both locks, and reads the lane under them. */
    @Test
    @Timeout(60)
    void multiPoolOfTwoIdleNeverAboveRunning() throws Exception {
        try (MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, NO_PURGE)) {
            assertIdleNeverAboveRunning(pool);
        }
    }

    @Test
    @Timeout(60)
    void poolIdleNeverCountsTheOneWorkerTwice() throws Exception {
        try (Pool pool = Pool.newPool(1, NO_PURGE)) {
            assertIdleNeverAboveRunning(pool);
        }
    }

    private static void assertIdleNeverAboveRunning(AbstractPoolExecutor pool) throws InterruptedException {
        AtomicReference<String> wrong = new AtomicReference<>();
        CountDownLatch stop = new CountDownLatch(1);
        Thread reader = Thread.ofPlatform().start(() -> {
            while (stop.getCount() > 0 && wrong.get() == null) {
                int idle = pool.idle();
                int running = pool.running();
                if (idle > running) {
                    wrong.set("idle() read " + idle + " with " + running + " workers running");
                }
            }
        });
        long deadline = System.nanoTime() + BUDGET_NANOS;
        long submitted = 0;
        while (System.nanoTime() - deadline < 0 && wrong.get() == null) {
            pool.execute(() -> { });
            submitted++;
            if ((submitted & 1) == 0) { // let the worker spin out of the lane and go back to its idle queue
                long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(100);
                while (System.nanoTime() - until < 0) {
                    Thread.onSpinWait();
                }
            }
        }
        stop.countDown();
        assertTrue(reader.join(Duration.ofSeconds(10)), "the reader never stopped");
        long n = submitted;
        assertTrue(wrong.get() == null, () -> wrong.get() + " (" + pool + ", after " + n + " submissions)");
    }
}
