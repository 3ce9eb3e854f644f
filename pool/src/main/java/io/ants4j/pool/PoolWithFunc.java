package io.ants4j.pool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A pool whose workers all run one function, fixed when the pool is made, on the arguments passed to
 * {@link #invoke}: ants' {@code PoolWithFunc} (generic, as ants' {@code PoolWithFuncGeneric}).
 *
 * <pre>{@code
 * PoolWithFunc<Path> pool = PoolWithFunc.newPool(8, path -> index(path));
 * try (Stream<Path> files = Files.walk(root)) {
 *     files.forEach(pool::invoke);
 * } finally {
 *     pool.releaseTimeout(Duration.ofMinutes(1));
 * }
 * }</pre>
 *
 * <p>Implementation notes. Same machinery as {@link Pool} (idle LIFO stack or pre-allocated ring, spin lock
 * and FIFO condition, purger, capacity counted under the lock); only the payload differs: {@code invoke}
 * hands the bare argument to an idle worker's one-slot channel and the worker calls the function on it. In
 * steady state (an idle worker available) {@code invoke} allocates nothing: no task object, no queue node, no
 * future. {@code null} is a valid argument.
 *
 * <p>Failures: whatever the function throws goes to the {@linkplain PoolOptions#panicHandler() panic handler},
 * or is logged at {@code ERROR}; {@code invoke} never sees it and the worker goes on.
 *
 * <p>Memory consistency effects: actions in a thread before it calls {@code invoke(arg)} happen-before the
 * function runs on {@code arg}, which happens-before {@link #releaseTimeout} returns normally.
 *
 * @param <T> the argument type of the function
 */
public final class PoolWithFunc<T> implements WorkerPool {
    private final PoolCore core;

    @SuppressWarnings("unchecked")
    private PoolWithFunc(int capacity, Consumer<? super T> fn, PoolOptions options) {
        Objects.requireNonNull(fn, "fn");
        Objects.requireNonNull(options, "options");
        this.core = new PoolCore("PoolWithFunc", capacity, options, (Consumer<Object>) fn, new SpinningWorkers());
    }

    /**
     * Makes a pool running {@code fn} with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param capacity the most workers alive at once; {@code <= 0} means unlimited
     * @param fn       the function every worker runs
     * @param <T>      the argument type
     * @return a new open pool
     * @throws NullPointerException if {@code fn} is null
     */
    public static <T> PoolWithFunc<T> newPool(int capacity, Consumer<? super T> fn) {
        return new PoolWithFunc<>(capacity, fn, PoolOptions.defaults());
    }

    /**
     * Makes a pool running {@code fn}.
     *
     * @param capacity the most workers alive at once; {@code <= 0} means unlimited
     * @param fn       the function every worker runs
     * @param options  the options
     * @param <T>      the argument type
     * @return a new open pool
     * @throws NullPointerException     if {@code fn} or {@code options} is null
     * @throws IllegalArgumentException if {@code options.preAlloc()} is set and the pool is unlimited
     */
    public static <T> PoolWithFunc<T> newPool(int capacity, Consumer<? super T> fn, PoolOptions options) {
        return new PoolWithFunc<>(capacity, fn, options);
    }

    /**
     * Runs the pool's function on {@code arg} on a worker (ants' {@code Invoke}), blocking while no worker is
     * free unless the options forbid it.
     *
     * @param arg the argument, {@code null} allowed
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws PoolOverloadException      if no worker is free and the caller may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked,
     *                                    or if a worker thread cannot be started
     */
    public void invoke(T arg) {
        core.submit(arg);
    }

    @Override
    public int running() {
        return core.running();
    }

    @Override
    public int free() {
        return core.free();
    }

    @Override
    public int waiting() {
        return core.waiting();
    }

    @Override
    public int cap() {
        return core.cap();
    }

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
     * Blocks until the pool has terminated (it is released and no worker is left, so every call of the
     * function has returned) and every thread of it has ended (workers, purger and ticker, also those started
     * before a {@link #reboot()}), or the timeout elapses, or the current thread is interrupted, whichever
     * happens first (as {@link java.util.concurrent.ExecutorService#awaitTermination}). On a pool that stays
     * open it waits the whole timeout. Once it has returned true it does so at once until {@link #reboot()}.
     *
     * <p>Memory consistency effects: when it returns true, every call of the function happens-before it
     * returns.
     *
     * @param timeout the longest time to wait
     * @param unit    the unit of {@code timeout}
     * @return true if the pool terminated and all its threads ended; false if the timeout elapsed first
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return core.awaitTermination(unit.toNanos(timeout));
    }

    /**
     * Returns a snapshot of the task counters.
     *
     * @return completed, failed and rejected counts since the pool was made
     */
    public PoolStats stats() {
        return core.stats();
    }

    /** Returns the state and counts, e.g. {@code PoolWithFunc[open, cap=4, running=2, ...]}. */
    @Override
    public String toString() {
        return core.toString();
    }
}
