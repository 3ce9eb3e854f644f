package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * What every ants pool offers: its counts, its capacity, and its life cycle (ants' {@code poolCommon}).
 *
 * <p>The counts are instantaneous readings of values other threads change; they are exact at the moment of
 * reading and may be stale right after. {@link #running()} counts live workers, busy or idle (ants' meaning),
 * and never exceeds {@link #cap()} unless the capacity was {@linkplain #tune tuned} down while more workers
 * were alive.
 *
 * <p>Life cycle: a pool is open when made. {@link #release()} closes it (new work is rejected with
 * {@link PoolClosedException}, running tasks finish, idle workers stop); it has terminated once it is closed
 * and no worker is left; {@link #releaseTimeout} also waits for every thread of the pool to end;
 * {@link #reboot()} opens a closed pool again. Only {@code reboot()} goes back: once a pool is closed, it
 * stays closed, and once it has terminated, it stays terminated, until an explicit {@code reboot()}. The
 * transitions ({@code release}, {@code reboot}, {@code tune}, and {@code shutdownNow} where there is one) are
 * atomic with respect to each other, also across the sub-pools of a multi-pool.
 */
public interface WorkerPool {

    /**
     * Returns the number of live workers, busy or idle.
     *
     * @return the number of running workers
     */
    int running();

    /**
     * Returns how many more workers the pool may start: {@code cap() - running()}, or {@code 0} while more
     * workers run than a {@linkplain #tune tuned-down} capacity allows, or {@code -1} if the pool is unlimited.
     * A bounded pool never returns a negative number.
     *
     * @return the number of free worker slots, or {@code -1}
     */
    int free();

    /**
     * Returns the number of submitters blocked right now waiting for a worker.
     *
     * @return the number of waiting submitters
     */
    int waiting();

    /**
     * Returns the capacity: the most workers alive at once, or {@code -1} if the pool is unlimited.
     *
     * @return the capacity, or {@code -1}
     */
    int cap();

    /**
     * Changes the capacity. Ignored for unlimited and pre-allocated pools and for {@code size <= 0}. Growing
     * wakes that many blocked submitters; shrinking lets surplus workers exit as they finish their tasks.
     *
     * @param size the new capacity
     */
    void tune(int size);

    /**
     * Returns whether the pool is closed (released and not rebooted since). Once true, it stays true until
     * {@link #reboot()}.
     *
     * @return whether the pool is closed
     */
    boolean isClosed();

    /**
     * Closes the pool: new submissions are rejected with {@link PoolClosedException}, blocked submitters
     * wake up with {@link PoolClosedException}, running tasks finish, idle workers stop. Does not wait.
     * Calling it on a closed pool does nothing.
     */
    void release();

    /**
     * Closes the pool like {@link #release()}, then waits until every worker thread and the pool's
     * background threads (also those started before a {@link #reboot()}) have ended. On a pool already
     * closed it only waits.
     *
     * @param timeout the longest time to wait
     * @throws TimeoutException     if threads of the pool are still alive after {@code timeout}; the pool
     *                              stays closed and its threads end on their own
     * @throws NullPointerException if {@code timeout} is null
     */
    void releaseTimeout(Duration timeout) throws TimeoutException;

    /**
     * Reopens a closed pool and restarts its background threads; does nothing on an open pool. Workers
     * still finishing tasks from before the release rejoin the reopened pool. It does not wait for the
     * background threads of before the release to end. This is the only way out of the closed and the
     * terminated states.
     */
    void reboot();
}
