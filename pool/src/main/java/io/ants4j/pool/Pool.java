package io.ants4j.pool;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

/**
 * A pool of worker threads that runs each submitted {@link Runnable} on a recycled worker, with at most
 * {@link #cap()} workers alive at once: ants' {@code Pool}, and a full {@link java.util.concurrent.ExecutorService}.
 *
 * <pre>{@code
 * try (Pool pool = Pool.newPool(20)) {
 *     WaitGroup wg = new WaitGroup();
 *     for (int i = 0; i < 100; i++) {
 *         int id = i;
 *         wg.add(1);
 *         pool.execute(() -> {
 *             try { crawl(id); } finally { wg.done(); }
 *         });
 *     }
 *     wg.await();
 * }
 * }</pre>
 *
 * <p>Implementation notes. There is no task queue: {@link #execute} hands the task straight to an idle
 * worker (one spinning in the fast lane, having just finished a task; else the most recently used one, from a LIFO
 * stack, or with {@link PoolOptions#preAlloc()} the one idle the longest, from a FIFO ring of {@code capacity}
 * slots; else one leaving the lane), or starts a new worker thread while {@code running() < cap()}, or else
 * blocks the submitter until a worker comes back (or rejects it with {@link PoolOverloadException} if the pool
 * is {@linkplain PoolOptions#nonblocking() non-blocking} or {@linkplain PoolOptions#maxBlockingTasks()
 * maxBlockingTasks} submitters already wait). A worker that finishes a task takes the task of the submitter
 * that has waited longest, if one waits, or else goes back to the idle queue and waits for the next hand-off;
 * a background purger retires workers idle for longer than
 * {@linkplain PoolOptions#expiryDuration() expiryDuration}. The idle queue, the counts and the FIFO list of
 * waiting submitters are guarded by one {@code SpinLock}; the hand-off is a single slot per
 * worker (release/acquire plus park/unpark), so handing a task over allocates nothing but what the JDK's unpark of a
 * parked virtual worker does (its scheduler's task: 32 bytes on JDK 25; none for platform workers). Worker threads are
 * virtual unless {@link PoolOptions#threadFactory()} says otherwise. No method blocks inside
 * {@code synchronized}, but {@code shutdownNow}'s interrupt of a worker, which an exiting worker waits out
 * (an interrupt closes the interruptible channel the task blocks on, if any).
 *
 * <p>Virtual workers are not preempted. A task that waits for another by spinning on {@link Thread#yield()}
 * (Go's {@code runtime.Gosched()}) keeps its carrier thread busy, and with as many such tasks as carriers a
 * task woken meanwhile (its latch opened, its lock released) may not run for seconds, or not until the
 * spinners stop: the JDK's scheduler does not take a carrier from a virtual thread that yields. Go's scheduler
 * preempts, so ants' tests do this freely; two of them hang on virtual workers. Remedies: wait by parking or sleeping, even for
 * microseconds ({@link java.util.concurrent.locks.LockSupport#parkNanos}, a latch, a lock), not by yielding;
 * or run such tasks on platform workers ({@link PoolOptions.Builder#threadFactory}), which the operating
 * system preempts; or give the virtual-thread scheduler more carriers than tasks that spin
 * ({@code -Djdk.virtualThreadScheduler.parallelism}).
 *
 * <p>Failures: whatever a task throws goes to the {@linkplain PoolOptions#panicHandler() panic handler}, or is
 * logged at {@code ERROR}; the submitter never sees it (through {@link #submit} the {@code Future} carries it),
 * and the worker goes on. Rejections are {@link RejectedExecutionException}s: {@link PoolClosedException},
 * {@link PoolOverloadException}, or one caused by {@link InterruptedException} when a blocked submitter is
 * interrupted (its interrupt flag is set again).
 *
 * <p>Memory consistency effects: actions in a thread before it submits a task through {@link #execute},
 * {@link #tryExecute} or {@link #submit} happen-before the task runs, which happen-before the result is
 * retrieved through the {@code Future} and before {@link #awaitTermination} or {@link #releaseTimeout} return
 * normally.
 *
 * <p>Life cycle: {@link #release()} is {@link #shutdown()}; {@link #shutdownNow()} also interrupts the running
 * tasks and returns an empty list (tasks are never queued); {@link #releaseTimeout} and
 * {@link #awaitTermination} wait until no thread of the pool is alive; {@link #close()} (try-with-resources)
 * shuts down and waits, also when called from one of the pool's own tasks; {@link #reboot()} reopens a closed
 * pool.
 *
 * <p>As an {@link java.util.concurrent.ExecutorService}, a pool meets the interface's contract, and differs from
 * the JDK's executors only where ants' hand-off does, since there is no task queue:
 * <ul>
 * <li>{@link #execute}, and {@link #submit}, {@link #invokeAll} and {@link #invokeAny} through it, blocks the
 *     submitter while every worker is busy, where a {@code ThreadPoolExecutor} would queue the task; a
 *     {@linkplain PoolOptions#nonblocking() non-blocking} pool, or one where {@linkplain
 *     PoolOptions#maxBlockingTasks() maxBlockingTasks} submitters already wait, rejects it with
 *     {@link PoolOverloadException} instead. The timed {@code invokeAll} and {@code invokeAny} wait for a worker
 *     only until their deadline, as {@link #tryExecute} does (so also in a non-blocking pool).</li>
 * <li>{@link #shutdown} rejects the submitters still blocked, with {@link PoolClosedException}, where a
 *     {@code ThreadPoolExecutor} would run their queued tasks; {@link #shutdownNow} returns an empty list.</li>
 * </ul>
 * The {@code Future}s of {@link #submit}, {@link #invokeAll} and {@link #invokeAny} are {@link
 * java.util.concurrent.FutureTask}s: {@code cancel(true)} interrupts the worker running the task, and the
 * worker clears that interrupt before it takes its next task.
 */
public final class Pool extends AbstractPoolExecutor {

    private Pool(String name, int capacity, PoolOptions options) {
        super(name, new PoolCore(name, capacity, options, task -> ((Runnable) task).run(), new SpinningWorkers()));
    }

    /**
     * Makes a pool with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param capacity the most workers alive at once; {@code <= 0} means unlimited
     * @return a new open pool
     */
    public static Pool newPool(int capacity) {
        return newPool(capacity, PoolOptions.defaults());
    }

    /**
     * Makes a pool.
     *
     * @param capacity the most workers alive at once; {@code <= 0} means unlimited
     * @param options  the options
     * @return a new open pool
     * @throws NullPointerException     if {@code options} is null
     * @throws IllegalArgumentException if {@code options.preAlloc()} is set and the pool is unlimited
     */
    public static Pool newPool(int capacity, PoolOptions options) {
        return new Pool(Objects.requireNonNull(options, "options").nameOfNewPool(), capacity, options);
    }
}
