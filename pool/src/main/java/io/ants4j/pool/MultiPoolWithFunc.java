package io.ants4j.pool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Several independent {@link PoolWithFunc}s running one function, each argument going to the sub-pool a
 * {@link LoadBalancing} strategy picks: ants' {@code MultiPoolWithFunc}.
 *
 * <p>Implementation notes. The same multi-pool machinery as {@link MultiPool} over sub-pools that hand the
 * bare argument to a worker, so {@link #invoke} allocates nothing in steady state. Counts are sums over the
 * sub-pools, with per-index variants; {@link #releaseTimeout} reports every sub-pool that timed out in one
 * {@link TimeoutException}.
 *
 * <p>Memory consistency effects: actions before {@code invoke(arg)} happen-before the function runs on
 * {@code arg}.
 *
 * @param <T> the argument type of the function
 */
public final class MultiPoolWithFunc<T> implements WorkerPool {
    private final MultiPoolCore core;

    @SuppressWarnings("unchecked")
    private MultiPoolWithFunc(int pools, int sizePerPool, Consumer<? super T> fn, LoadBalancing lb,
                              PoolOptions options) {
        Objects.requireNonNull(fn, "fn");
        this.core = new MultiPoolCore("MultiPoolWithFunc", pools, sizePerPool, lb, options, (Consumer<Object>) fn);
    }

    /**
     * Makes a multi-pool running {@code fn} with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool, positive
     * @param fn          the function every worker runs
     * @param lb          how to pick the sub-pool for an argument
     * @param <T>         the argument type
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} or {@code sizePerPool} is not positive
     * @throws NullPointerException     if {@code fn} or {@code lb} is null
     */
    public static <T> MultiPoolWithFunc<T> newMultiPool(int pools, int sizePerPool, Consumer<? super T> fn,
                                                        LoadBalancing lb) {
        return new MultiPoolWithFunc<>(pools, sizePerPool, fn, lb, PoolOptions.defaults());
    }

    /**
     * Makes a multi-pool running {@code fn} whose sub-pools all use {@code options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool, positive
     * @param fn          the function every worker runs
     * @param lb          how to pick the sub-pool for an argument
     * @param options     the options of every sub-pool
     * @param <T>         the argument type
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} or {@code sizePerPool} is not positive
     * @throws NullPointerException     if {@code fn}, {@code lb} or {@code options} is null
     */
    public static <T> MultiPoolWithFunc<T> newMultiPool(int pools, int sizePerPool, Consumer<? super T> fn,
                                                        LoadBalancing lb, PoolOptions options) {
        return new MultiPoolWithFunc<>(pools, sizePerPool, fn, lb, options);
    }

    /**
     * Runs the function on {@code arg} in the sub-pool the strategy picks.
     *
     * @param arg the argument, {@code null} allowed
     * @throws PoolClosedException        if the multi-pool is closed
     * @throws PoolOverloadException      if no worker is free and the caller may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked
     */
    public void invoke(T arg) {
        core.submit(arg);
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
     * Returns the blocked callers of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its waiting callers
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

    /** Sets the capacity of each sub-pool to {@code size}. */
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
     * Blocks until the multi-pool has terminated (it is released and no worker is left in any sub-pool, so
     * every call of the function has returned) and every thread of every sub-pool has ended (also those
     * started before a {@link #reboot()}), or the timeout elapses, or the current thread is interrupted,
     * whichever happens first. On a multi-pool that stays open it waits the whole timeout. Once it has
     * returned true it does so at once until {@link #reboot()}.
     *
     * <p>Memory consistency effects: when it returns true, every call of the function happens-before it
     * returns.
     *
     * @param timeout the longest time to wait
     * @param unit    the unit of {@code timeout}
     * @return true if the multi-pool terminated and all its threads ended; false if the timeout elapsed first
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return core.awaitTermination(unit.toNanos(timeout));
    }

    /**
     * Returns the task counters summed over the sub-pools.
     *
     * @return completed, failed and rejected counts since the multi-pool was made
     */
    public PoolStats stats() {
        return core.stats();
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
