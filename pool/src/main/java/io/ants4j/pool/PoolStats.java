package io.ants4j.pool;

import java.time.Duration;

/**
 * A snapshot of a pool's counters since it was made (not reset by {@code reboot}); for a multi-pool, the sums
 * over its sub-pools. Each counter is read separately, so under load the six are not one atomic snapshot.
 *
 * @param submitted      submissions handed to a worker
 * @param completed      tasks that returned normally
 * @param failed         tasks that threw (handed to the panic handler or logged)
 * @param rejected       submissions refused: closed pool, overload, interrupted or timed-out waits, a worker
 *                       thread that could not be made or started (the submitter got the factory's or
 *                       {@code Thread.start()}'s exception, an {@code Error} included)
 * @param blockedSubmits submissions that had to wait for a worker (parked until one came back, the pool
 *                       closed, the wait timed out or was interrupted), whatever came of the wait
 * @param blockedTime    the total time those submissions waited: with {@code blockedSubmits}, the figure to
 *                       size a pool by
 */
public record PoolStats(long submitted, long completed, long failed, long rejected,
                        long blockedSubmits, Duration blockedTime) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if {@code blockedTime} is null
     */
    public PoolStats {
        java.util.Objects.requireNonNull(blockedTime, "blockedTime");
    }

    /** Returns the element-wise sum of this snapshot and another. */
    PoolStats plus(PoolStats o) {
        return new PoolStats(submitted + o.submitted, completed + o.completed, failed + o.failed,
                rejected + o.rejected, blockedSubmits + o.blockedSubmits, blockedTime.plus(o.blockedTime));
    }
}
