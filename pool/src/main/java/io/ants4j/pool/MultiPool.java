package io.ants4j.pool;

import java.util.Objects;
import java.util.concurrent.TimeoutException;

/**
 * Several independent {@link Pool}s behind one {@link java.util.concurrent.ExecutorService}, each task going to
 * the sub-pool a {@link LoadBalancing} strategy picks: ants' {@code MultiPool}. Each sub-pool has its own lock,
 * so a multi-pool suits many submitters hammering one pool. The sub-pools share one fast lane (see
 * {@link Pool}): a task may run on a worker of another sub-pool that has just finished a task and spins there
 * for the next, counted in that worker's sub-pool (no worker is started for it; each sub-pool stays within its
 * capacity), so that a stream of short tasks runs on one running thread.
 *
 * <pre>{@code
 * try (MultiPool pool = MultiPool.newMultiPool(4, 2_500, LoadBalancing.ROUND_ROBIN)) {
 *     requests.forEach(r -> pool.execute(() -> handle(r)));
 * }
 * }</pre>
 *
 * <p>Implementation notes. Every sub-pool is the same machinery as {@link Pool} with the same options and a
 * capacity of {@code sizePerPool} ({@code <= 0}: unlimited, as in ants); the counts ({@link #running()},
 * {@link #free()}, {@link #waiting()}, {@link #cap()}) are sums over the sub-pools ({@code cap()} and
 * {@code free()} saturate at {@link Integer#MAX_VALUE}), with per-index variants. {@link LoadBalancing#ROUND_ROBIN} retries
 * an overloaded choice once on the least-running sub-pool. {@link #tune} sets each sub-pool's capacity.
 * {@link #release()} closes all sub-pools; {@link #releaseTimeout} closes them at once and waits for all of them
 * against one deadline, reporting every sub-pool that timed out in one {@link TimeoutException}.
 *
 * <p>As an {@link java.util.concurrent.ExecutorService}, a multi-pool differs from the JDK's executors where a
 * {@link Pool} does (see there): {@link #execute}, and {@code submit}, {@link #invokeAll} and {@link #invokeAny}
 * through it, blocks the submitter while the chosen sub-pool's workers are all busy instead of queueing the task;
 * the timed {@code invokeAll} and {@code invokeAny} wait for a worker only until their deadline;
 * {@link #shutdown} rejects the submitters still blocked; {@link #shutdownNow} returns an empty list. A
 * {@linkplain PoolOptions#maxBlockingTasks() maxBlockingTasks} limit holds per sub-pool, and so does the order
 * of blocked submitters (first come, first served), with one exception: the sub-pools share a fast lane, and
 * in the instant a submitter starts to wait, a worker of its sub-pool that is still spinning in that lane may
 * take a task submitted to another sub-pool.
 *
 * <p>Memory consistency effects: as {@link Pool}: actions before {@link #execute} happen-before the task runs.
 */
public final class MultiPool extends AbstractPoolExecutor {
    private final MultiPoolCore parts;

    private MultiPool(String name, int pools, int sizePerPool, LoadBalancing lb, PoolOptions options) {
        super(name, new MultiPoolCore(name, pools, sizePerPool, lb, options, t -> ((Runnable) t).run()));
        this.parts = (MultiPoolCore) core;
    }

    /**
     * Makes a multi-pool with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool; {@code <= 0} means unlimited
     * @param lb          how to pick the sub-pool for a task
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} is not positive
     * @throws NullPointerException     if {@code lb} is null
     */
    public static MultiPool newMultiPool(int pools, int sizePerPool, LoadBalancing lb) {
        return newMultiPool(pools, sizePerPool, lb, PoolOptions.defaults());
    }

    /**
     * Makes a multi-pool whose sub-pools all use {@code options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool; {@code <= 0} means unlimited
     * @param lb          how to pick the sub-pool for a task
     * @param options     the options of every sub-pool
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} is not positive, or {@code options.preAlloc()} is set and
     *                                  the sub-pools are unlimited
     * @throws NullPointerException     if {@code lb} or {@code options} is null
     */
    public static MultiPool newMultiPool(int pools, int sizePerPool, LoadBalancing lb, PoolOptions options) {
        return new MultiPool(Objects.requireNonNull(options, "options").nameOfNewPool(), pools, sizePerPool, lb,
                options);
    }

    /**
     * Returns the running workers of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its running workers
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int running(int index) {
        return parts.running(index);
    }

    /**
     * Returns the free worker slots of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its free slots
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int free(int index) {
        return parts.free(index);
    }

    /**
     * Returns the blocked submitters of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its waiting submitters
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int waiting(int index) {
        return parts.waiting(index);
    }
}
