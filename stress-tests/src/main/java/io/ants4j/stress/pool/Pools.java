package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolOptions;
import io.ants4j.stress.support.Spin;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Pool helpers of the tests. */
final class Pools {

    /** The bound for any blocking pool call of an actor, so that a lost worker fails instead of hanging. */
    static final Duration PATIENCE = Duration.ofSeconds(Spin.PATIENCE_SECONDS);

    private Pools() {
    }

    /**
     * A small pool per jcstress sample: no purger (an idle worker must not expire in the middle of
     * a sample), default virtual-thread workers.
     */
    static Pool perSample(int capacity) {
        return Pool.newPool(capacity, PoolOptions.builder().disablePurge(true).build());
    }

    /** Waits for {@code latch} at most {@link #PATIENCE}. */
    static boolean await(CountDownLatch latch) {
        try {
            return latch.await(PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Raises {@code max} to {@code value} if larger. */
    static void recordMax(AtomicInteger max, int value) {
        max.accumulateAndGet(value, Math::max);
    }
}
