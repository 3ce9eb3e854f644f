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
 * <p>As an {@link java.util.concurrent.ExecutorService}, a multi-pool differs from the JDK's executors where a
 * {@link Pool} does (see there): {@link #execute}, and {@code submit}, {@link #invokeAll} and {@link #invokeAny}
 * through it, blocks the submitter while the chosen sub-pool's workers are all busy instead of queueing the task;
 * the timed {@code invokeAll} and {@code invokeAny} wait for a worker only until their deadline;
 * {@link #shutdown} rejects the submitters still blocked; {@link #shutdownNow} returns an empty list. A
 * {@linkplain PoolOptions#maxBlockingTasks() maxBlockingTasks} limit holds per sub-pool.
 *
 * <p>Memory consistency effects: as {@link Pool}: actions before {@link #execute} happen-before the task runs.
 */
public final class MultiPool extends AbstractExecutorService implements WorkerPool {
    private final MultiPoolCore core;
    private final ExecutorSupport executorSupport;

    private MultiPool(int pools, int sizePerPool, LoadBalancing lb, PoolOptions options) {
        this.core = new MultiPoolCore("MultiPool", pools, sizePerPool, lb, options, t -> ((Runnable) t).run());
        this.executorSupport = new ExecutorSupport(this, core::trySubmit, core::awaitClose);
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
     * Runs {@code task} on a worker of the sub-pool the strategy picks, blocking while no worker of it is free
     * unless the options forbid it (where a JDK executor would queue the task and return).
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
     * Releases every sub-pool and interrupts the running tasks. A task that does not respond to interrupts runs
     * on; submitters blocked waiting for a worker are rejected with {@link PoolClosedException}.
     *
     * @return an empty list: tasks are never queued, so none is waiting to run
     */
    @Override
    public List<Runnable> shutdownNow() {
        core.shutdownNow();
        return List.of();
    }

    /**
     * As {@link Pool#invokeAll(Collection)}: hands the tasks over one by one as {@link #execute} does, waiting for
     * a worker while the chosen sub-pool is full.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks; the tasks
     *                                    not done are cancelled
     * @throws NullPointerException       if {@code tasks} or one of them is null; then no task runs
     * @throws RejectedExecutionException as {@link #execute} throws it; the tasks not done are cancelled
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return executorSupport.invokeAll(tasks);
    }

    /**
     * As {@link Pool#invokeAll(Collection, long, TimeUnit)}: waits for a worker only until the deadline (on the
     * sub-pool the strategy picks; round robin then looks once more on the least-running one), cancels what is
     * not done at the deadline, and never overruns the timeout by waiting for a worker.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks; the tasks
     *                                    not done are cancelled
     * @throws NullPointerException       if {@code tasks}, one of them, or {@code unit} is null; then no task
     *                                    runs
     * @throws RejectedExecutionException {@link PoolClosedException} if the multi-pool is closed, or
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
     * As {@link Pool#invokeAny(Collection)}: returns the result of a task that completed normally and cancels
     * the others, handing the tasks over one at a time as {@link #execute} does.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks
     * @throws ExecutionException         if every task failed (its cause is one of the failures)
     * @throws IllegalArgumentException   if {@code tasks} is empty
     * @throws NullPointerException       if {@code tasks} or one of them is null; then no task runs
     * @throws RejectedExecutionException as {@link #execute} throws it
     */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        return executorSupport.invokeAny(tasks);
    }

    /**
     * As {@link Pool#invokeAny(Collection, long, TimeUnit)}: returns the result of a task that completed
     * normally before the timeout elapsed and cancels the others, waiting for a worker only until the deadline.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks
     * @throws ExecutionException         if every task failed (its cause is one of the failures)
     * @throws TimeoutException           if no task completed normally before the timeout elapsed
     * @throws IllegalArgumentException   if {@code tasks} is empty
     * @throws NullPointerException       if {@code tasks}, one of them, or {@code unit} is null; then no task
     *                                    runs
     * @throws RejectedExecutionException {@link PoolClosedException} if the multi-pool is closed, or
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
     * As {@link Pool#close()}: shuts every sub-pool down and waits until the multi-pool has terminated; an
     * interrupt calls {@link #shutdownNow()} once and is kept. Called from a task running on this multi-pool, it
     * waits until every other task (in any sub-pool) has ended and returns; the multi-pool terminates once the
     * calling task returns.
     *
     * <p>Memory consistency effects: the actions of every task of the multi-pool, other than the calling one,
     * happen-before {@code close} returns.
     */
    @Override
    public void close() {
        executorSupport.close();
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
