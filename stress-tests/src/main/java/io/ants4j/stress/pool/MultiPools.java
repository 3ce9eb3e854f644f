package io.ants4j.stress.pool;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.PoolClosedException;
import io.ants4j.pool.PoolOptions;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Multi-pool helpers of the life-cycle tests. */
final class MultiPools {

    /** Parts of a per-sample multi-pool: two are enough for two walks over them to cross. */
    static final int PARTS = 2;

    /**
     * How long a closed multi-pool without workers may take to report termination before a test calls it
     * late: it has nothing to wait for, so it must report it at once; the bound only tells "late" from
     * "never" (a part left open) without waiting the whole {@link Pools#PATIENCE} for each such sample.
     */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private MultiPools() {
    }

    /** A round-robin multi-pool of {@link #PARTS} parts of capacity 1, no purger (see {@link Pools#perSample}). */
    static MultiPool perSample() {
        return MultiPool.newMultiPool(PARTS, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().disablePurge(true).build());
    }

    /**
     * Submits one empty task per part (round robin visits every part in {@link #PARTS} submissions).
     *
     * @return how many were rejected with {@link PoolClosedException}, or -1 on any other exception
     */
    static int closedParts(MultiPool mp) {
        int closed = 0;
        for (int i = 0; i < PARTS; i++) {
            try {
                mp.execute(() -> { });
            } catch (PoolClosedException e) {
                closed++;
            } catch (RuntimeException e) {
                return -1;
            }
        }
        return closed;
    }

    /**
     * How a closed multi-pool that never ran a task reports termination.
     *
     * @return 0 at once, 1 late (within {@link #SETTLE_NANOS}), 2 not even then (a part is still open)
     */
    static int termination(MultiPool mp) {
        if (mp.isTerminated()) {
            return 0;
        }
        long deadline = System.nanoTime() + SETTLE_NANOS;
        while (System.nanoTime() - deadline < 0) {
            if (mp.isTerminated()) {
                return 1;
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        return 2;
    }
}
