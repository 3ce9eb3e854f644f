package io.ants4j.pool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Several independent {@link Pool}s behind one {@link java.util.concurrent.ExecutorService}, each task going to
 * the sub-pool a {@link LoadBalancing} strategy picks: ants' {@code MultiPool}. Each sub-pool has its own lock,
 * so a multi-pool suits many submitters hammering one pool.
 *
 * <pre>{@code
 * try (MultiPool pool = MultiPool.newMultiPool(4, 2_500, LoadBalancing.ROUND_ROBIN)) {
 *     requests.forEach(r -> pool.execute(() -> handle(r)));
 * }
 * }</pre>
 *
 * <p>Implementation notes. Every sub-pool is the same machinery as {@link Pool} with the same options and a
 * capacity of {@code sizePerPool}; the counts ({@link #running()}, {@link #free()}, {@link #waiting()},
 * {@link #cap()}) are sums over the sub-pools, with per-index variants. {@link LoadBalancing#ROUND_ROBIN} retries
 * an overloaded choice once on the least-running sub-pool. {@link #tune} sets each sub-pool's capacity.
 * {@link #release()} closes all sub-pools; {@link #releaseTimeout} closes them at once and waits for all of them
 * against one deadline, reporting every sub-pool that timed out in one {@link TimeoutException}.
 *
 * <p>Memory consistency effects: as {@link Pool}: actions before {@link #execute} happen-before the task runs.
 */
public final class MultiPool extends AbstractExecutorService implements WorkerPool {
    private final MultiPoolCore core;

    private MultiPool(int pools, int sizePerPool, LoadBalancing lb, PoolOptions options) {
        this.core = new MultiPoolCore("MultiPool", pools, sizePerPool, lb, options, t -> ((Runnable) t).run());
    }

    /**
     * Makes a multi-pool with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool, positive
     * @param lb          how to pick the sub-pool for a task
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} or {@code sizePerPool} is not positive
     * @throws NullPointerException     if {@code lb} is null
     */
    public static MultiPool newMultiPool(int pools, int sizePerPool, LoadBalancing lb) {
        return new MultiPool(pools, sizePerPool, lb, PoolOptions.defaults());
    }

    /**
     * Makes a multi-pool whose sub-pools all use {@code options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool, positive
     * @param lb          how to pick the sub-pool for a task
     * @param options     the options of every sub-pool
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} or {@code sizePerPool} is not positive
     * @throws NullPointerException     if {@code lb} or {@code options} is null
     */
    public static MultiPool newMultiPool(int pools, int sizePerPool, LoadBalancing lb, PoolOptions options) {
        return new MultiPool(pools, sizePerPool, lb, options);
    }

    /**
     * Runs {@code task} on a worker of the sub-pool the strategy picks.
     *
     * @param task the task
     * @throws NullPointerException       if {@code task} is null
     * @throws PoolClosedException        if the multi-pool is closed
     * @throws PoolOverloadException      if no worker is free and the submitter may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked
     */
    @Override
    public void execute(Runnable task) {
        core.submit(Objects.requireNonNull(task, "task"));
    }

    @Override
    public int running() {
        return core.running();
    }

    /**
     * Returns the running workers of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its running workers
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int running(int index) {
        return core.running(index);
    }

    @Override
    public int free() {
        return core.free();
    }

    /**
     * Returns the free worker slots of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its free slots
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int free(int index) {
        return core.free(index);
    }

    @Override
    public int waiting() {
        return core.waiting();
    }

    /**
     * Returns the blocked submitters of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its waiting submitters
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int waiting(int index) {
        return core.waiting(index);
    }

    /** Returns the sum of the sub-pools' capacities. */
    @Override
    public int cap() {
        return core.cap();
    }

    /** Sets the capacity of each sub-pool to {@code size} (the total becomes {@code pools * size}). */
    @Override
    public void tune(int size) {
        core.tune(size);
    }

    @Override
    public boolean isClosed() {
        return core.isClosed();
    }

    @Override
    public void release() {
        core.release();
    }

    @Override
    public void releaseTimeout(Duration timeout) throws TimeoutException {
        core.releaseTimeout(timeout);
    }

    @Override
    public void reboot() {
        core.reboot();
    }

    /**
     * Returns the task counters summed over the sub-pools.
     *
     * @return completed, failed and rejected counts since the multi-pool was made
     */
    public PoolStats stats() {
        return core.stats();
    }

    /** Same as {@link #release()}. */
    @Override
    public void shutdown() {
        core.release();
    }

    /**
     * Releases every sub-pool and interrupts the running tasks.
     *
     * @return an empty list: tasks are never queued
     */
    @Override
    public List<Runnable> shutdownNow() {
        core.shutdownNow();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return core.isClosed();
    }

    /**
     * Returns true if the multi-pool has terminated: it is shut down and no worker is left in any sub-pool,
     * so every task it accepted has completed. Like {@link Pool#isTerminated()}, it does not wait for threads
     * to end. Once true, it stays true until {@link #reboot()}.
     *
     * <p>Memory consistency effects: when it returns true, the actions of every task the multi-pool ran
     * happen-before it returns.
     *
     * @return whether the multi-pool has terminated
     */
    @Override
    public boolean isTerminated() {
        return core.isTerminated();
    }

    /**
     * Blocks until the multi-pool has {@linkplain #isTerminated() terminated} and every thread of every
     * sub-pool has ended (also those started before a {@link #reboot()}), or the timeout elapses, or the
     * current thread is interrupted, whichever happens first. On a multi-pool that stays open it waits the
     * whole timeout.
     *
     * @param timeout the longest time to wait
     * @param unit    the unit of {@code timeout}
     * @return true if the multi-pool terminated and all its threads ended; false if the timeout elapsed first
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return core.awaitTermination(unit.toNanos(timeout));
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
