package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The machinery behind a pool: {@link PoolCore} for {@link Pool} and {@link PoolWithFunc}, {@link MultiPoolCore}
 * for the multi-pools. {@link AbstractWorkerPool} turns it into the public {@link WorkerPool}, counting the
 * submissions and rejections and reporting the life-cycle events; the core counts what happens below it
 * (tasks run, submitters blocked).
 *
 * <p>Implementation notes. The methods mirror {@link WorkerPool}'s, with timeouts in nanoseconds and with
 * {@link #release} and {@link #shutdownNow} telling whether the call closed the pool, so that the pool reports a
 * release exactly once.
 */
interface Core {

    /**
     * Hands {@code payload} to a worker, blocking unless {@code timed} as the options say; counts no
     * submission and no rejection.
     *
     * @return true when handed over; false only if {@code timed} and no worker came within {@code nanos} (or
     *         the blocking limit was reached)
     * @throws PoolClosedException        if the pool is closed, or closes while waiting
     * @throws PoolOverloadException      if not {@code timed} and the pool may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while waiting
     *                                    (the interrupt flag is set again), or if a worker thread cannot start
     */
    boolean dispatch(Object payload, boolean timed, long nanos);

    int running();

    int free();

    int waiting();

    int cap();

    int idle();

    /** The counters below the submit path: completed, failed, blocked (submitted and rejected are zero). */
    PoolStats stats();

    /** The state for {@code toString}: open, closed or terminated, and what else tells this core apart. */
    String state();

    /**
     * Changes the capacity, atomically with respect to the other tunes of this core (so that the
     * {@code PoolTuned} event of each records the capacity before and after that very tune, without a lock
     * around the call: a multi-pool's logger may tune from inside its {@code shutdownNow}); returns both
     * capacities, packed by {@link #capacities}.
     */
    long tune(int size);

    /** Packs the capacities before and after a tune. */
    static long capacities(int before, int after) {
        return (long) before << 32 | after & 0xFFFF_FFFFL;
    }

    static int capacityBefore(long capacities) {
        return (int) (capacities >> 32);
    }

    static int capacityAfter(long capacities) {
        return (int) capacities;
    }

    /**
     * Logs at {@code ERROR}, on the pool's logger, a failure met by a caller of the pool that goes on (an
     * interrupt that threw while cancelling a task); never throws.
     */
    void reportOnCaller(Throwable failure, String message);

    boolean isClosed();

    boolean isTerminated();

    boolean awaitTermination(long nanos) throws InterruptedException;

    /** Closes the pool; whether this call closed it (false if it was closed already). */
    boolean release();

    /** Closes the pool and interrupts the running tasks; whether this call closed it. */
    boolean shutdownNow();

    /**
     * The wait of {@code releaseTimeout}, once the caller has released the pool: on a thread of the pool, for its
     * other tasks but those closing it; on any other, for termination. Throws {@link TimeoutException} if that did
     * not happen within {@code timeout}; an interrupt does not cut the wait short but is kept. It does not close
     * the pool itself: a reboot between the release and this wait stands.
     */
    void awaitReleased(Duration timeout) throws TimeoutException;

    void reboot();

    /**
     * Whether the current thread is inside one of this pool's life-cycle transitions: the only user code that
     * runs there is the pool's logger, told by {@code shutdownNow} that an interrupt threw. A call that would
     * reopen the pool or wait for it to terminate is refused there: the walk that calls the logger is not over.
     */
    boolean inTransitionOnCurrentThread();

    /**
     * Waits as {@code ExecutorService.close} must once the pool is released: until it has terminated, or,
     * called from one of its own tasks, until every other task has ended but those that are closing the pool
     * too (each such task is counted as closing until it ends).
     *
     * @return false if that did not happen within {@code nanos}
     */
    boolean awaitClose(long nanos) throws InterruptedException;
}
