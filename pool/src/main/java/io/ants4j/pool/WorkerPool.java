package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What every ants pool offers: its counts, its capacity, its name and statistics, and its life cycle (ants'
 * {@code poolCommon}). {@link Pool}, {@link PoolWithFunc}, {@link MultiPool} and {@link MultiPoolWithFunc}
 * implement it alike; they differ only in how work is submitted ({@code execute} or {@code invoke}).
 *
 * <p>The counts are instantaneous readings of values other threads change; they are exact at the moment of
 * reading and may be stale right after. A count of a multi-pool is the sum over its sub-pools at one instant
 * (read with every sub-pool's lock held), not sub-pools read at different moments. {@link #running()} counts
 * live workers, busy or idle (ants' meaning), and never exceeds {@link #cap()} unless the capacity was
 * {@linkplain #tune tuned} down while more workers were alive. Two calls read two moments: {@code idle()}
 * then {@code running()} may show more idle workers than running ones if workers retired in between.
 *
 * <p>Submitters that wait for a worker are served first come, first served: a worker that finishes its task,
 * or a worker slot that frees up (a worker retired, the capacity {@linkplain #tune raised}), goes to the
 * submitter that has waited longest, and a submission never takes a worker while another submitter waits,
 * also when it would not wait itself ({@code tryExecute} with a zero timeout). In a multi-pool this holds per
 * sub-pool: a submitter waits in the sub-pool the balancing picked. A submitter waits, and takes its place in
 * that order, from the moment it is counted in {@link #waiting()}: one that finds every worker busy first looks
 * again for a few microseconds (a short task's worker is about to come back), neither counted nor ordered, so
 * that a submission arriving meanwhile may get a worker before it.
 *
 * <p>Life cycle: a pool is open when made. {@link #release()} closes it (new work is rejected with
 * {@link PoolClosedException}, running tasks finish, idle workers stop); it has terminated once it is closed
 * and no worker is left; {@link #releaseTimeout} also waits for every thread of the pool to end;
 * {@link #reboot()} opens a closed pool again. Only {@code reboot()} goes back: once a pool is closed, it
 * stays closed, and once it has terminated, it stays terminated, until an explicit {@code reboot()}. The
 * transitions ({@code release}, {@code reboot}, {@code tune}, and {@code shutdownNow} where there is one) are
 * atomic with respect to each other, also across the sub-pools of a multi-pool. {@link #close()} releases the pool
 * and waits for it to terminate, so a pool fits try-with-resources.
 *
 * <p>Memory consistency effects: actions in a thread before it submits work happen-before that work runs,
 * which happens-before {@link #awaitTermination}, {@link #releaseTimeout} or {@link #close()} return normally
 * (and {@link #isTerminated()} returns true) after it.
 */
public interface WorkerPool extends AutoCloseable {

    /**
     * Returns the number of live workers, busy or idle.
     *
     * @return the number of running workers
     */
    int running();

    /**
     * Returns how many more workers the pool may start: {@code cap() - running()}, or {@code 0} while more
     * workers run than a {@linkplain #tune tuned-down} capacity allows, or {@code -1} if the pool is unlimited.
     * A bounded pool never returns a negative number; a multi-pool returns the sum over its sub-pools, or
     * {@link Integer#MAX_VALUE} if the sum is larger.
     *
     * @return the number of free worker slots, or {@code -1}
     */
    int free();

    /**
     * Returns the number of submitters blocked right now waiting for a worker.
     *
     * @return the number of waiting submitters
     */
    int waiting();

    /**
     * Returns the capacity: the most workers alive at once, or {@code -1} if the pool is unlimited. A multi-pool
     * returns the sum of its sub-pools' capacities, or {@link Integer#MAX_VALUE} if the sum is larger.
     *
     * @return the capacity, or {@code -1}
     */
    int cap();

    /**
     * Returns the number of workers alive and waiting for a task: {@link #running()} minus the workers busy
     * with one, at the same instant, so never more than that {@code running()}; each idle worker is counted
     * once. A worker that has just finished a task and spins in the pool's fast lane counts as idle, also while
     * it goes from the lane back to the idle queue.
     *
     * @return the number of idle workers
     */
    int idle();

    /**
     * Returns a snapshot of the pool's counters since it was made.
     *
     * @return the counters
     */
    PoolStats stats();

    /**
     * Returns the pool's name ({@link PoolOptions#name()}, by default {@code ants4j-pool-N}).
     *
     * @return the name
     */
    String name();

    /**
     * Changes the capacity. Ignored for unlimited and pre-allocated pools and for {@code size <= 0}. Growing
     * serves up to that many more blocked submitters, those that have waited longest first; shrinking stops no
     * worker but lets the surplus exit as they finish their tasks. A surplus worker that is idle (on the idle
     * queue, or spinning in the fast lane) may still take one more task first, as in ants, and exits after it
     * (or when purged): no more tasks run at once than workers were alive, and {@link #running()} comes down
     * to the new capacity as they finish.
     *
     * @param size the new capacity
     */
    void tune(int size);

    /**
     * Returns whether the pool is closed (released and not rebooted since). Once true, it stays true until
     * {@link #reboot()}.
     *
     * @return whether the pool is closed
     */
    boolean isClosed();

    /**
     * Returns whether the pool has terminated: it is closed and no worker is left, so every task it accepted
     * has completed ({@link java.util.concurrent.ExecutorService#isTerminated()}'s meaning). It does not wait
     * for threads to end: {@link #awaitTermination} does. Once true, it stays true until {@link #reboot()}.
     *
     * <p>Memory consistency effects: when it returns true, the actions of every task the pool ran
     * happen-before it returns.
     *
     * @return whether the pool has terminated
     */
    boolean isTerminated();

    /**
     * Blocks until the pool has {@linkplain #isTerminated() terminated} and every thread of it has ended
     * (workers, purger and ticker, also those started before a {@link #reboot()}), or the timeout elapses, or
     * the current thread is interrupted, whichever happens first. On a pool that stays open it waits the
     * whole timeout; a negative timeout counts as zero. Once it has returned true it does so at once until
     * {@link #reboot()}. Called on a thread of the pool that runs no task (by the pool's logger on its purger
     * or ticker, or by a worker thread's uncaught-exception handler once its worker has ended), it waits until
     * the pool has terminated, but not for the pool's threads to end: the caller is one of them, and two of
     * them would wait for each other; so there it may return true while the same call elsewhere still waits
     * (for that thread, among others), and what is said above holds for the calls on other threads.
     *
     * @param timeout the longest time to wait
     * @param unit    the unit of {@code timeout}
     * @return true if the pool terminated and all its threads ended; false if the timeout elapsed first
     * @throws InterruptedException  if interrupted while waiting
     * @throws NullPointerException  if {@code unit} is null
     * @throws IllegalStateException if called from inside a {@code shutdownNow} of this pool on the same thread
     *                               (by the pool's logger, told that an interrupt threw): the pool cannot
     *                               terminate before that {@code shutdownNow} has interrupted every task
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Closes the pool: new submissions are rejected with {@link PoolClosedException}, blocked submitters
     * (those counted in {@link #waiting()}) wake up with {@link PoolClosedException} (also when a
     * {@link #reboot()} follows before they wake: their tasks never run), running tasks finish, idle workers
     * stop. Does not wait. Calling it on a closed pool does nothing. A submitter still looking again for a
     * worker before it waits is not blocked yet: if the pool is rebooted before it looks, its call, which
     * overlaps both, goes on as a submission to the reopened pool.
     */
    void release();

    /**
     * Closes the pool like {@link #release()}, then waits until every worker thread and the pool's
     * background threads (also those started before a {@link #reboot()}) have ended. Called on a thread of the
     * pool, it waits as {@link #close()} does there: on a worker thread, for the other tasks but those closing
     * the pool (a task counts as closing it while it waits here, and after this returned normally; not after a
     * {@code TimeoutException}); on a thread that runs no task, until the pool has terminated (see
     * {@link #awaitTermination}). On a pool already closed it only waits.
     *
     * @param timeout the longest time to wait
     * @throws TimeoutException      if threads of the pool are still alive after {@code timeout}; the pool
     *                               stays closed and its threads end on their own
     * @throws NullPointerException  if {@code timeout} is null
     * @throws IllegalStateException if called from inside a {@code shutdownNow} of this pool on the same thread
     *                               (by the pool's logger, told that an interrupt threw): the pool cannot
     *                               terminate before that {@code shutdownNow} has interrupted every task; the
     *                               call changes nothing
     */
    void releaseTimeout(Duration timeout) throws TimeoutException;

    /**
     * Reopens a closed pool and restarts its background threads; does nothing on an open pool. Workers
     * still finishing tasks from before the release rejoin the reopened pool. It does not wait for the
     * background threads of before the release to end. This is the only way out of the closed and the
     * terminated states. A reboot that throws (it ran out of memory starting the background threads) leaves
     * the pool closed, as a whole, so it may be retried, or released and awaited.
     *
     * @throws IllegalStateException if called from inside a {@code shutdownNow} of this pool on the same thread
     *                               (by the pool's logger, told that an interrupt threw): the pool stays closed
     */
    void reboot();

    /**
     * Releases the pool and waits until it has terminated, as {@link java.util.concurrent.ExecutorService#close()}
     * does: if interrupted while waiting, it interrupts the running tasks (as {@code shutdownNow} does) once,
     * goes on waiting, and returns with the interrupt status set. Returns at once on a terminated pool, so
     * calling it again is harmless.
     *
     * <p>Called from a task running on this pool, {@code close} cannot wait for the pool to terminate, since
     * that needs the calling task to end: it releases the pool, waits until every other task has ended except
     * those that are themselves calling {@code close} on this pool (or have called it), and returns; the pool
     * terminates once the calling tasks return. So several tasks may close their own pool at once, and none
     * waits for another. (A JDK executor's {@code close} waits for the calling task forever.) The same holds
     * on a worker thread while its worker runs, between tasks (the uncaught-exception handler the pool hands a
     * task's failure to when its logger throws). Called on a thread of the pool that runs no task (the logger on
     * the purger, the uncaught-exception handler of a thread whose worker died), it waits until the pool has
     * terminated, not for the pool's threads to end (see {@link #awaitTermination}).
     *
     * <p>Memory consistency effects: the actions of every task of the pool, other than the calling one and the
     * other tasks that called {@code close} on it, happen-before {@code close} returns.
     *
     * @throws IllegalStateException if called from inside a {@code shutdownNow} of this pool on the same thread
     *                               (by the pool's logger, told that an interrupt threw; an interrupted
     *                               {@code close} calls {@code shutdownNow} too): the pool cannot terminate
     *                               before that {@code shutdownNow} has interrupted every task; the call changes
     *                               nothing, and that {@code shutdownNow} goes on and returns normally
     */
    @Override
    void close();
}
