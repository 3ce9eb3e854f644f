package io.ants4j.pool;

/**
 * A snapshot of a pool's task counters since it was made (not reset by {@code reboot}). Each counter is read
 * separately, so under load the three are not one atomic snapshot.
 *
 * @param completed tasks that returned normally
 * @param failed    tasks that threw (handed to the panic handler or logged)
 * @param rejected  submissions refused: closed pool, overload, interrupted or timed-out waits
 */
public record PoolStats(long completed, long failed, long rejected) {

    /**
     * Returns the sum of this snapshot and another.
     *
     * @param other another snapshot
     * @return the element-wise sum
     */
    PoolStats plus(PoolStats other) {
        return new PoolStats(completed + other.completed, failed + other.failed, rejected + other.rejected);
    }
}
