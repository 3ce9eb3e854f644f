package io.ants4j.pool;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A pool whose workers all run one function, fixed when the pool is made, on the arguments passed to
 * {@link #invoke}: ants' {@code PoolWithFunc} (generic, as ants' {@code PoolWithFuncGeneric}).
 *
 * <pre>{@code
 * try (PoolWithFunc<Path> pool = PoolWithFunc.newPool(8, path -> index(path));
 *      Stream<Path> files = Files.walk(root)) {
 *     files.forEach(pool::invoke);
 * }
 * }</pre>
 *
 * <p>Implementation notes. Same machinery as {@link Pool} (idle LIFO stack or pre-allocated ring, spin lock
 * and FIFO list of waiting submitters, purger, capacity counted under the lock); only the payload differs:
 * {@code invoke} hands the bare argument to an idle worker's one-slot channel and the worker calls the function
 * on it. In steady state (an idle worker available) {@code invoke} allocates nothing of its own: no task object, no
 * queue node, no future (waking a parked virtual worker allocates what the JDK's unpark does: 32 bytes on JDK 25).
 * {@code null} is a valid argument.
 *
 * <p>Failures: whatever the function throws goes to the {@linkplain PoolOptions#panicHandler() panic handler},
 * or is logged at {@code ERROR}; {@code invoke} never sees it and the worker goes on.
 *
 * <p>Memory consistency effects: actions in a thread before it calls {@code invoke(arg)} or
 * {@code tryInvoke(arg, timeout)} happen-before the function runs on {@code arg}, which happens-before
 * {@link #awaitTermination}, {@link #releaseTimeout} or {@link #close()} return normally.
 *
 * @param <T> the argument type of the function
 */
public final class PoolWithFunc<T> extends AbstractFuncPool<T> {

    @SuppressWarnings("unchecked")
    private PoolWithFunc(String name, int capacity, Consumer<? super T> fn, PoolOptions options) {
        super(name, new PoolCore(name, capacity, options, (Consumer<Object>) fn, new SpinningWorkers()));
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
        return newPool(capacity, fn, PoolOptions.defaults());
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
        Objects.requireNonNull(fn, "fn");
        return new PoolWithFunc<>(Objects.requireNonNull(options, "options").nameOfNewPool(), capacity, fn, options);
    }
}
