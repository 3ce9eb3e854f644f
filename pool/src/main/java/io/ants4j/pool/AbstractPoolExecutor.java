package io.ants4j.pool;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link ExecutorService} that {@link Pool} and {@link MultiPool} are, for a pool whose {@code execute} blocks
 * the submitter while every worker is busy (where the JDK's executors queue the task).
 *
 * <p>Implementation notes. The algorithms are {@link java.util.concurrent.AbstractExecutorService}'s, with two
 * changes for ants' pools:
 * <ul>
 * <li>The timed forms hand each task over with the pool's bounded hand-off ({@link #trySubmitPayload}) against
 *     the call's deadline, not with {@code execute}, which would wait for a worker without bound: a task that
 *     gets no worker before the deadline is cancelled unrun. Like {@link #tryExecute}, that wait ignores
 *     {@link PoolOptions#nonblocking()}; a pool that refuses to let one more submitter wait
 *     ({@link PoolOptions#maxBlockingTasks()}) makes the call throw {@link PoolOverloadException}, as
 *     {@code execute} would.</li>
 * <li>A hand-off interrupted while it waits for a worker throws {@link InterruptedException}, the contract's
 *     exception for an interrupted wait, instead of {@code execute}'s {@link RejectedExecutionException}.</li>
 * </ul>
 * Every task is wrapped in a {@link FutureTask} before any is handed over, so a null task throws
 * {@link NullPointerException} before anything runs. {@code invokeAny} hands the tasks over one at a time and
 * only while none has come back with a result; while the pool is full, a hand-off waits for a worker, and a
 * result that comes back meanwhile is taken when it ends (at the latest at the deadline of the timed form). The
 * tasks of one call share a flag that the first normal completion sets before it completes its future; a task
 * that finds the flag set when its worker runs it cancels itself unrun, so the task of a hand-off that was
 * waiting while a result came back never starts.
 * {@code close} is {@link AbstractWorkerPool#close()}, which does not wait for the calling task when a task
 * closes its own pool.
 */
abstract class AbstractPoolExecutor extends AbstractWorkerPool implements ExecutorService {

    AbstractPoolExecutor(String name, Core core) {
        super(name, core);
    }

    /**
     * Runs {@code task} on a worker (ants' {@code Submit}; in a multi-pool, on a worker of the sub-pool the
     * strategy picks, or of another spinning in the shared fast lane), blocking while no worker is free unless the options forbid it. Where a JDK executor
     * would queue the task and return, this call waits until a worker takes it: the pool has no queue.
     *
     * @param task the task
     * @throws NullPointerException       if {@code task} is null
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws PoolOverloadException      if no worker is free and the submitter may not block
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked,
     *                                    or if a worker thread cannot be started
     */
    @Override
    public final void execute(Runnable task) {
        submitPayload(Objects.requireNonNull(task, "task"));
    }

    /**
     * Runs {@code task} on a worker if one is or becomes free within {@code timeout}. Ignores
     * {@link PoolOptions#nonblocking()}: the timeout is the caller's explicit bound ({@link Duration#ZERO} for
     * no wait at all); returns false as well when {@link PoolOptions#maxBlockingTasks()} submitters already
     * wait. A multi-pool waits on the sub-pool the strategy picks; round robin then looks once more on the
     * least-running one with the time left.
     *
     * @param task    the task
     * @param timeout the longest time to wait for a worker; a negative one counts as zero
     * @return whether the task was handed to a worker (false is counted as a rejection)
     * @throws NullPointerException       if an argument is null
     * @throws PoolClosedException        if the pool is closed, or closes while this call waits
     * @throws RejectedExecutionException caused by {@link InterruptedException} if interrupted while blocked,
     *                                    or if a worker thread cannot be started
     */
    public final boolean tryExecute(Runnable task, Duration timeout) {
        Objects.requireNonNull(task, "task");
        return trySubmitPayload(task, PoolCore.nanos(Objects.requireNonNull(timeout, "timeout")));
    }

    @Override
    public final Future<?> submit(Runnable task) {
        return handedOver(new FutureTask<Void>(Objects.requireNonNull(task, "task"), null));
    }

    @Override
    public final <T> Future<T> submit(Runnable task, T result) {
        return handedOver(new FutureTask<>(Objects.requireNonNull(task, "task"), result));
    }

    @Override
    public final <T> Future<T> submit(Callable<T> task) {
        return handedOver(new FutureTask<>(Objects.requireNonNull(task, "task")));
    }

    private <T> FutureTask<T> handedOver(FutureTask<T> f) {
        execute(f);
        return f;
    }

    /** Same as {@link #release()}. */
    @Override
    public final void shutdown() {
        release();
    }

    /**
     * Releases the pool and interrupts the running tasks. A task that does not respond to interrupts runs on;
     * submitters blocked waiting for a worker are rejected with {@link PoolClosedException}. A task that
     * starts after this call and before a {@link #reboot()} (one that was handed over as the pool closed)
     * starts interrupted. The interrupts are for the tasks of before the reboot: {@code reboot()} waits until
     * this call has delivered them, and a task of the reopened pool starts with its interrupt status clear,
     * like every task (a worker clears an interrupt left over from an earlier task before it starts the next).
     * On an exhausted heap it may throw {@code OutOfMemoryError} before it changes anything (a multi-pool then
     * releases the sub-pools it could not shut down, without interrupting their tasks). An interrupt that throws (closing the interruptible channel a task is blocked on can) does not stop the
     * others: it is logged at {@code ERROR} with the pool's {@linkplain PoolOptions#logger() logger}, and this
     * call returns normally (a logger that throws too loses that report). A logger that calls {@link #reboot()},
     * {@link #close()}, {@link #awaitTermination} or {@link #releaseTimeout} on this pool from there gets
     * {@link IllegalStateException}: the pool is not to reopen halfway through this call, nor can it terminate
     * before this call has interrupted every task.
     *
     * @return an empty list: the pool never queues tasks, so none is waiting to run
     */
    @Override
    public final List<Runnable> shutdownNow() {
        releaseNow();
        return List.of();
    }

    /** Same as {@link #isClosed()}. */
    @Override
    public final boolean isShutdown() {
        return isClosed();
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
    public final <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return invokeAll(tasks, false, 0L);
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
    public final <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        return invokeAll(tasks, true, PoolCore.deadline(unit.toNanos(timeout)));
    }

    /**
     * Returns the result of a task that completed normally, and cancels the others. The tasks are handed over
     * one at a time, and only while none has completed normally; while every worker is busy, handing over the
     * next one waits for a worker as {@link #execute} does, and a task whose hand-off was still waiting when one
     * completed normally is cancelled before it starts.
     *
     * @throws InterruptedException       if interrupted while waiting, for a worker or for the tasks
     * @throws ExecutionException         if every task failed (its cause is one of the failures)
     * @throws IllegalArgumentException   if {@code tasks} is empty
     * @throws NullPointerException       if {@code tasks} or one of them is null; then no task runs
     * @throws RejectedExecutionException as {@link #execute} throws it ({@link PoolClosedException},
     *                                    {@link PoolOverloadException}), unless a task handed over before has
     *                                    completed normally: its result is returned
     */
    @Override
    public final <T> T invokeAny(Collection<? extends Callable<T>> tasks)
            throws InterruptedException, ExecutionException {
        try {
            return invokeAny(tasks, false, 0L);
        } catch (TimeoutException e) {
            throw new AssertionError("an untimed invokeAny timed out", e);
        }
    }

    /**
     * Returns the result of a task that completed normally before the timeout elapsed, and cancels the others.
     * The tasks are handed over one at a time, and only while none has completed normally (a task whose
     * hand-off was still waiting for a worker when one completed normally is cancelled before it starts), each
     * waiting for a
     * worker only until the deadline as {@link #tryExecute} does (so also in a {@linkplain
     * PoolOptions#nonblocking() non-blocking} pool): the call never overruns its timeout by waiting for a worker.
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
     *                                    wait; unless a task handed over before has completed normally: its
     *                                    result is returned
     */
    @Override
    public final <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return invokeAny(tasks, true, PoolCore.deadline(unit.toNanos(timeout)));
    }

    private <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, boolean timed, long deadline)
            throws InterruptedException {
        ArrayList<Future<T>> futures = newTasks(tasks, null);
        int j = 0;
        timedOut:
        try {
            for (Future<T> f : futures) {
                if (!handOff((Runnable) f, timed, deadline)) {
                    break timedOut;
                }
            }
            for (int size = futures.size(); j < size; j++) {
                Future<T> f = futures.get(j);
                if (!f.isDone()) {
                    try {
                        if (timed) {
                            f.get(deadline - System.nanoTime(), NANOSECONDS);
                        } else {
                            f.get();
                        }
                    } catch (CancellationException | ExecutionException ignore) {
                        // the future reports it
                    } catch (TimeoutException e) {
                        break timedOut;
                    }
                }
            }
            return futures;
        } catch (Throwable t) {
            cancelAll(futures, 0);
            throw t;
        }
        cancelAll(futures, j);
        return futures;
    }

    private <T> T invokeAny(Collection<? extends Callable<T>> tasks, boolean timed, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<Callable<T>> snapshot = new ArrayList<>(tasks); // one size for the queue and the tasks
        int n = snapshot.size();
        if (n == 0) {
            throw new IllegalArgumentException("no tasks");
        }
        // a slot for every task before any runs: recording a completion on the worker allocates nothing
        BlockingQueue<Future<T>> completed = new ArrayBlockingQueue<>(n);
        ArrayList<Future<T>> futures = newTasks(snapshot, new QueueingFuture.Race<>(completed));
        try {
            ExecutionException failure = null;
            int next = 0;
            int active = 0;
            for (;;) {
                Future<T> f = completed.poll();
                if (f == null) {
                    boolean handed;
                    try {
                        handed = next < n && handOff((Runnable) futures.get(next), timed, deadline);
                    } catch (RejectedExecutionException refused) {
                        // a task may have completed normally while this hand-off waited: its result stands
                        for (Future<T> done; (done = completed.poll()) != null; ) {
                            if (done.state() == Future.State.SUCCESS) {
                                return done.resultNow();
                            }
                        }
                        throw refused;
                    }
                    if (handed) {
                        next++;
                        active++;
                        continue;
                    }
                    if (active == 0) {
                        if (next == n) {
                            throw failure; // every task has come back, each with a failure
                        }
                        throw new TimeoutException(); // the next task got no worker in time
                    }
                    f = timed ? completed.poll(deadline - System.nanoTime(), NANOSECONDS) : completed.take();
                    if (f == null) {
                        throw new TimeoutException();
                    }
                }
                active--;
                try {
                    return f.get(); // done: does not wait
                } catch (ExecutionException e) {
                    failure = e;
                } catch (CancellationException e) {
                    // handed over after another completed normally: the winner's completion is still to come
                }
            }
        } finally {
            cancelAll(futures, 0);
        }
    }

    /**
     * Hands {@code task} to a worker: with {@code execute} unless {@code timed}, else waiting for a worker until
     * {@code deadline}.
     *
     * @return false if {@code timed} and no worker was free before {@code deadline}
     * @throws InterruptedException  if interrupted while waiting for a worker (the status is cleared, as the
     *                               exception reports it)
     * @throws PoolOverloadException if the pool lets no more submitters wait
     */
    private boolean handOff(Runnable task, boolean timed, long deadline) throws InterruptedException {
        try {
            if (!timed) {
                execute(task);
                return true;
            }
            long nanos = deadline - System.nanoTime();
            if (nanos > 0L ? trySubmitPayload(task, nanos) : refuseAtDeadline()) { // a closed pool still says so
                return true;
            }
        } catch (RejectedExecutionException e) {
            if (e.getCause() instanceof InterruptedException ie) {
                Thread.interrupted(); // set again by the pool; the InterruptedException reports it now
                throw ie;
            }
            throw e;
        }
        // A bounded hand-off gives up before its deadline only when the pool lets no more submitters wait.
        if (deadline - System.nanoTime() > 0L) {
            throw new PoolOverloadException("no free worker and maxBlockingTasks submitters already wait");
        }
        return false;
    }

    /** Wraps every task, so that a null one throws before any is handed over. */
    private static <T> ArrayList<Future<T>> newTasks(Collection<? extends Callable<T>> tasks,
                                                     QueueingFuture.Race<T> race) {
        ArrayList<Future<T>> futures = new ArrayList<>(tasks.size());
        for (Callable<T> c : tasks) {
            futures.add(race == null ? new FutureTask<>(c) : new QueueingFuture<>(c, race));
        }
        return futures;
    }

    /**
     * Cancels the tasks from {@code from} on, interrupting those that run. An interrupt that throws (closing the
     * interruptible channel a task blocks on can) is logged, as {@code shutdownNow} logs it, and the walk goes on:
     * that task is cancelled all the same, and the call's outcome stands.
     */
    private <T> void cancelAll(List<Future<T>> futures, int from) {
        for (int i = from, size = futures.size(); i < size; i++) {
            try {
                futures.get(i).cancel(true);
            } catch (Throwable t) {
                core.reportOnCaller(t, "cancelling a task of invokeAll/invokeAny: its interrupt threw; the task is cancelled");
            }
        }
    }

    /**
     * A task of {@code invokeAny} that, once done, puts itself on the call's queue of completed tasks, into a slot
     * allocated with the queue: if it had to allocate there, an {@code OutOfMemoryError} on the worker would leave
     * the caller waiting for a completion that was never recorded. A task that starts after another of the call
     * completed normally cancels itself unrun; its completion then still comes after the winner's flag is set,
     * and the winner's own completion is queued whatever the order.
     */
    private static final class QueueingFuture<T> extends FutureTask<T> {
        private final Race<T> race;

        QueueingFuture(Callable<T> task, Race<T> race) {
            super(task);
            this.race = race;
        }

        @Override
        public void run() {
            if (race.won) {
                cancel(false); // handed over after another completed normally: never starts
                return;
            }
            super.run();
        }

        @Override
        protected void set(T value) {
            race.won = true; // before the future completes, so before the caller can take the result
            super.set(value);
        }

        @Override
        protected void done() {
            race.completed.add(this);
        }

        /** What the tasks of one call share: the queue of completions and whether one completed normally. */
        static final class Race<T> {
            final BlockingQueue<Future<T>> completed;
            volatile boolean won;

            Race(BlockingQueue<Future<T>> completed) {
                this.completed = completed;
            }
        }
    }
}
