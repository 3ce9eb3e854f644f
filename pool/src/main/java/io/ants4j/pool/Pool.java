package io.ants4j.pool;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 * worker (the most recently used one: a LIFO stack, or a FIFO ring of {@code capacity} slots with
 * {@link PoolOptions#preAlloc()}), or starts a new worker thread while {@code running() < cap()}, or else
 * blocks the submitter until a worker comes back (or rejects it with {@link PoolOverloadException} if the pool
 * is {@linkplain PoolOptions#nonblocking() non-blocking} or {@linkplain PoolOptions#maxBlockingTasks()
 * maxBlockingTasks} submitters already wait). A worker that finishes a task goes back to the idle queue and
 * waits for the next hand-off; a background purger retires workers idle for longer than
 * {@linkplain PoolOptions#expiryDuration() expiryDuration}. The idle queue, the counts and the waiting
 * submitters are guarded by one {@code SpinLock} with a FIFO {@code Cond}; the hand-off is a single slot per
 * worker (release/acquire plus park/unpark), so handing a task over allocates nothing. Worker threads are
 * virtual unless {@link PoolOptions#threadFactory()} says otherwise. No method blocks inside
 * {@code synchronized}.
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
public final class Pool extends AbstractExecutorService implements WorkerPool {
    private final PoolCore core;
    private final ExecutorSupport executorSupport;

    private Pool(int capacity, PoolOptions options) {
        this.core = new PoolCore("Pool", capacity, options, task -> ((Runnable) task).run(),
                new SpinningWorkers());
        this.executorSupport = new ExecutorSupport(this, core::trySubmit, core::awaitClose);
    }

    /**
     * Makes a pool with the {@linkplain PoolOptions#defaults() default options}.
     *
     * @param capacity the most workers alive at once; {@code <= 0} means unlimited
     * @return a new open pool
     */
    public static Pool newPool(int capacity) {
        return new Pool(capacity, PoolOptions.defaults());
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
        return new Pool(capacity, Objects.requireNonNull(options, "options"));
    }

    /**
     * Runs {@code task} on a worker (ants' {@code Submit}), blocking while no worker is free unless the options
     * forbid it. Where a JDK executor would queue the task and return, this call waits until a worker takes it:
     * the pool has no queue.
     *
     * @param task the task
     * @throws NullPointerException       if {@code task} is null
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws PoolOverloadException      if no worker is free and the submitter may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked,
     *                                    or if a worker thread cannot be started
     */
    @Override
    public void execute(Runnable task) {
        core.submit(Objects.requireNonNull(task, "task"));
    }

    /**
     * Runs {@code task} on a worker if one is or becomes free within {@code timeout}. Ignores
     * {@link PoolOptions#nonblocking()}: the timeout is the caller's explicit bound ({@link Duration#ZERO} for
     * no wait at all); returns false as well when {@link PoolOptions#maxBlockingTasks()} submitters already
     * wait.
     *
     * @param task    the task
     * @param timeout the longest time to wait for a worker
     * @return whether the task was handed to a worker
     * @throws NullPointerException       if an argument is null
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked
     */
    public boolean tryExecute(Runnable task, Duration timeout) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(timeout, "timeout");
        return core.trySubmit(task, nanos(timeout));
    }

    static long nanos(Duration d) {
        if (d.isNegative()) {
            return 0L;
        }
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
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
     * Returns a snapshot of the task counters.
     *
     * @return completed, failed and rejected counts since the pool was made
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
     * Releases the pool and interrupts the running tasks. A task that does not respond to interrupts runs on;
     * submitters blocked waiting for a worker are rejected with {@link PoolClosedException}.
     *
     * @return an empty list: the pool never queues tasks, so none is waiting to run
     */
    @Override
    public List<Runnable> shutdownNow() {
        core.shutdownNow();
        return List.of();
    }

    /**
     * Runs every task and waits until all are done. The tasks are handed over one by one as {@link #execute}
     * does: while every worker is busy, the call waits for a worker before it hands over the next task.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks; the tasks
     *                                    not done are cancelled
     * @throws NullPointerException       if {@code tasks} or one of them is null; then no task runs
     * @throws RejectedExecutionException as {@link #execute} throws it ({@link PoolClosedException},
     *                                    {@link PoolOverloadException}); the tasks not done are cancelled
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return executorSupport.invokeAll(tasks);
    }

    /**
     * Runs every task and waits until all are done or the timeout elapses, then cancels the tasks not done. The
     * tasks are handed over one by one, waiting for a worker only until the deadline as {@link #tryExecute} does
     * (so also in a {@linkplain PoolOptions#nonblocking() non-blocking} pool): a task that gets no worker in time
     * is cancelled without running, and the call never overruns its timeout by waiting for a worker.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks; the tasks
     *                                    not done are cancelled
     * @throws NullPointerException       if {@code tasks}, one of them, or {@code unit} is null; then no task
     *                                    runs
     * @throws RejectedExecutionException {@link PoolClosedException} if the pool is closed, or
     *                                    {@link PoolOverloadException} if {@linkplain
     *                                    PoolOptions#maxBlockingTasks() maxBlockingTasks} submitters already
     *                                    wait; the tasks not done are cancelled
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        return executorSupport.invokeAll(tasks, timeout, unit);
    }

    /**
     * Returns the result of a task that completed normally, and cancels the others. The tasks are handed over
     * one at a time, and only while none has completed normally; while every worker is busy, handing over the
     * next one waits for a worker as {@link #execute} does.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks
     * @throws ExecutionException         if every task failed (its cause is one of the failures)
     * @throws IllegalArgumentException   if {@code tasks} is empty
     * @throws NullPointerException       if {@code tasks} or one of them is null; then no task runs
     * @throws RejectedExecutionException as {@link #execute} throws it ({@link PoolClosedException},
     *                                    {@link PoolOverloadException})
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        return executorSupport.invokeAny(tasks);
    }

    /**
     * Returns the result of a task that completed normally before the timeout elapsed, and cancels the others.
     * The tasks are handed over one at a time, and only while none has completed normally, each waiting for a
     * worker only until the deadline as {@link #tryExecute} does (so also in a {@linkplain PoolOptions#nonblocking()
     * non-blocking} pool): the call never overruns its timeout by waiting for a worker.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks
     * @throws ExecutionException         if every task failed (its cause is one of the failures)
     * @throws TimeoutException           if no task completed normally before the timeout elapsed
     * @throws IllegalArgumentException   if {@code tasks} is empty
     * @throws NullPointerException       if {@code tasks}, one of them, or {@code unit} is null; then no task
     *                                    runs
     * @throws RejectedExecutionException {@link PoolClosedException} if the pool is closed, or
     *                                    {@link PoolOverloadException} if {@linkplain
     *                                    PoolOptions#maxBlockingTasks() maxBlockingTasks} submitters already
     *                                    wait
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return executorSupport.invokeAny(tasks, timeout, unit);
    }

    /**
     * Shuts the pool down and waits until it has terminated ({@link java.util.concurrent.ExecutorService#close()}).
     * If interrupted while waiting, calls {@link #shutdownNow()} once, goes on waiting, and returns with the
     * interrupt status set. Returns at once on a terminated pool, so calling it again is harmless.
     *
     * <p>Called from a task running on this pool, {@code close} cannot wait for the pool to terminate, since that
     * needs the calling task to end: it shuts the pool down, waits until every other task has ended, and returns;
     * the pool terminates once the calling task returns. (A JDK executor's {@code close} waits for the calling
     * task forever.) An interrupt then calls {@link #shutdownNow()} as above, which interrupts the calling task
     * too; its interrupt status is set when {@code close} returns either way.
     *
     * <p>Memory consistency effects: the actions of every task of the pool, other than the calling one,
     * happen-before {@code close} returns.
     */
    @Override
    public void close() {
        executorSupport.close();
    }

    /** Same as {@link #isClosed()}. */
    @Override
    public boolean isShutdown() {
        return core.isClosed();
    }

    /**
     * Returns true if the pool has terminated: it is shut down and no worker is left, so every task it
     * accepted has completed. It does not wait for threads to end (a worker gives back its place just before
     * its thread ends, and the purger and ticker are only asked to stop): {@link #awaitTermination} does. The
     * idle workers the shutdown stops leave as soon as they wake, so a pool whose last task has returned
     * terminates within microseconds. Once true, it stays true until {@link #reboot()}.
     *
     * <p>Memory consistency effects: when it returns true, the actions of every task the pool ran
     * happen-before it returns.
     *
     * @return whether the pool has terminated
     */
    @Override
    public boolean isTerminated() {
        return core.isTerminated();
    }

    /**
     * Blocks until the pool has {@linkplain #isTerminated() terminated} and every thread of it has ended
     * (workers, purger and ticker, also those started before a {@link #reboot()}), or the timeout elapses, or
     * the current thread is interrupted, whichever happens first. On a pool that stays open it waits the
     * whole timeout. Once it has returned true it does so at once until {@link #reboot()}.
     *
     * @param timeout the longest time to wait
     * @param unit    the unit of {@code timeout}
     * @return true if the pool terminated and all its threads ended; false if the timeout elapsed first
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return core.awaitTermination(unit.toNanos(timeout));
    }

    /** Returns the state and counts, e.g. {@code Pool[open, cap=4, running=2, idle=1, waiting=0, ...]}. */
    @Override
    public String toString() {
        return core.toString();
    }
}
