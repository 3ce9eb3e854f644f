package io.ants4j.pool;

import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Several independent {@link PoolWithFunc}s running one function, each argument going to the sub-pool a
 * {@link LoadBalancing} strategy picks: ants' {@code MultiPoolWithFunc}. As in {@link MultiPool}, an argument
 * may go to a worker of another sub-pool spinning in the fast lane the sub-pools share.
 *
 * <p>Implementation notes. The same multi-pool machinery as {@link MultiPool} over sub-pools that hand the
 * bare argument to a worker, so {@link #invoke} allocates nothing of its own in steady state. Counts are sums over the
 * sub-pools, with per-index variants; {@link #releaseTimeout} reports every sub-pool that timed out in one
 * {@link TimeoutException}.
 *
 * <p>Memory consistency effects: actions before {@code invoke(arg)} happen-before the function runs on
 * {@code arg}.
 *
 * @param <T> the argument type of the function
 */
public final class MultiPoolWithFunc<T> extends AbstractFuncPool<T> {
    private final MultiPoolCore parts;

    @SuppressWarnings("unchecked")
    private MultiPoolWithFunc(String name, int pools, int sizePerPool, Consumer<? super T> fn, LoadBalancing lb,
                              PoolOptions options) {
        super(name, new MultiPoolCore(name, pools, sizePerPool, lb, options, (Consumer<Object>) fn));
        this.parts = (MultiPoolCore) core;
    }

    /**
     * Makes a multi-pool running {@code fn} with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool; {@code <= 0} means unlimited
     * @param fn          the function every worker runs
     * @param lb          how to pick the sub-pool for an argument
     * @param <T>         the argument type
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} is not positive
     * @throws NullPointerException     if {@code fn} or {@code lb} is null
     */
    public static <T> MultiPoolWithFunc<T> newMultiPool(int pools, int sizePerPool, Consumer<? super T> fn,
                                                        LoadBalancing lb) {
        return newMultiPool(pools, sizePerPool, fn, lb, PoolOptions.defaults());
    }

    /**
     * Makes a multi-pool running {@code fn} whose sub-pools all use {@code options}.
     *
     * @param pools       the number of sub-pools, positive
     * @param sizePerPool the capacity of each sub-pool; {@code <= 0} means unlimited
     * @param fn          the function every worker runs
     * @param lb          how to pick the sub-pool for an argument
     * @param options     the options of every sub-pool
     * @param <T>         the argument type
     * @return a new open multi-pool
     * @throws IllegalArgumentException if {@code pools} is not positive, or {@code options.preAlloc()} is set and
     *                                  the sub-pools are unlimited
     * @throws NullPointerException     if {@code fn}, {@code lb} or {@code options} is null
     */
    public static <T> MultiPoolWithFunc<T> newMultiPool(int pools, int sizePerPool, Consumer<? super T> fn,
                                                        LoadBalancing lb, PoolOptions options) {
        Objects.requireNonNull(fn, "fn");
        return new MultiPoolWithFunc<>(Objects.requireNonNull(options, "options").nameOfNewPool(), pools,
                sizePerPool, fn, lb, options);
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
     * Returns the blocked callers of one sub-pool.
     *
     * @param index the sub-pool, {@code 0 <= index < pools}
     * @return its waiting callers
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int waiting(int index) {
        return parts.waiting(index);
    }
}
