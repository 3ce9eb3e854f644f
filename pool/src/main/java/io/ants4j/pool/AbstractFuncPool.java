package io.ants4j.pool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * The submit methods of {@link PoolWithFunc} and {@link MultiPoolWithFunc}: the argument of the pool's fixed
 * function is the payload, handed to a worker as it is, so a call allocates nothing of its own in steady state.
 *
 * <p>Implementation notes. Only the submit methods live here; the rest is {@link AbstractWorkerPool}'s.
 *
 * @param <T> the argument type of the function
 */
abstract class AbstractFuncPool<T> extends AbstractWorkerPool {

    AbstractFuncPool(String name, Core core) {
        super(name, core);
    }

    /**
     * Runs the pool's function on {@code arg} on a worker (ants' {@code Invoke}; in a multi-pool, on a worker
     * of the sub-pool the strategy picks, or of another spinning in the shared fast lane), blocking while no worker is free unless the options forbid it.
     *
     * @param arg the argument, {@code null} allowed
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws PoolOverloadException      if no worker is free and the caller may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked,
     *                                    or if a worker thread cannot be started
     */
    public final void invoke(T arg) {
        submitPayload(arg);
    }

    /**
     * Runs the pool's function on {@code arg} if a worker is or becomes free within {@code timeout}. Ignores
     * {@link PoolOptions#nonblocking()}: the timeout is the caller's explicit bound ({@link Duration#ZERO} for
     * no wait at all); returns false as well when {@link PoolOptions#maxBlockingTasks()} callers already wait.
     * A multi-pool waits on the sub-pool the strategy picks; round robin then looks once more on the
     * least-running one with the time left.
     *
     * @param arg     the argument, {@code null} allowed
     * @param timeout the longest time to wait for a worker; a negative one counts as zero
     * @return whether the argument was handed to a worker (false is counted as a rejection)
     * @throws NullPointerException       if {@code timeout} is null
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked,
     *                                    or if a worker thread cannot be started
     */
    public final boolean tryInvoke(T arg, Duration timeout) {
        return trySubmitPayload(arg, PoolCore.nanos(Objects.requireNonNull(timeout, "timeout")));
    }
}
