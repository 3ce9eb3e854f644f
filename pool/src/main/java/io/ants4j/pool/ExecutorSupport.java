package io.ants4j.pool;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link ExecutorService} members that {@link Pool} and {@link MultiPool} share: {@code invokeAll},
 * {@code invokeAny} and {@code close}, for a pool whose {@code execute} blocks the submitter while every worker
 * is busy (where the JDK's executors queue the task).
 *
 * <p>Implementation notes. The algorithms are {@link java.util.concurrent.AbstractExecutorService}'s and the
 * default {@link ExecutorService#close()}'s, with three changes for ants' pools:
 * <ul>
 * <li>The timed forms hand each task over with the pool's bounded hand-off ({@link PoolCore#trySubmit},
 *     {@link MultiPoolCore#trySubmit}) against the call's deadline, not with {@code execute}, which would wait
 *     for a worker without bound: a task that gets no worker before the deadline is cancelled unrun. Like
 *     {@link Pool#tryExecute}, that wait ignores {@link PoolOptions#nonblocking()}; a pool that refuses to let
 *     one more submitter wait ({@link PoolOptions#maxBlockingTasks()}) makes the call throw
 *     {@link PoolOverloadException}, as {@code execute} would.</li>
 * <li>A hand-off interrupted while it waits for a worker throws {@link InterruptedException}, the contract's
 *     exception for an interrupted wait, instead of {@code execute}'s {@link RejectedExecutionException}.</li>
 * <li>{@code close} waits through {@link CloseWait} rather than {@code awaitTermination}, so that a task
 *     closing its own pool does not wait for itself (the pool cannot terminate before that task returns), as the
 *     default {@code close} would, forever.</li>
 * </ul>
 * Every task is wrapped in a {@link FutureTask} before any is handed over, so a null task throws
 * {@link NullPointerException} before anything runs. {@code invokeAny} hands the tasks over one at a time and
 * only while none has come back with a result; while the pool is full, a hand-off waits for a worker, and a
 * result that comes back meanwhile is taken when it ends (at the latest at the deadline of the timed form).
 */
final class ExecutorSupport {

    /** A pool's bounded hand-off: {@link PoolCore#trySubmit} or {@link MultiPoolCore#trySubmit}. */
    @FunctionalInterface
    interface TimedHandOff {
        /**
         * Hands {@code payload} to a worker if one is or becomes free within {@code nanos}; false if none did,
         * or if the pool lets no more submitters wait.
         */
        boolean trySubmit(Object payload, long nanos);
    }

    /** The wait of {@code close}: {@link PoolCore#awaitClose} or {@link MultiPoolCore#awaitClose}. */
    @FunctionalInterface
    interface CloseWait {
        /** Waits at most {@code nanos} for the shut-down pool to be done; true if it is. */
        boolean await(long nanos) throws InterruptedException;
    }

    private final ExecutorService pool;
    private final TimedHandOff timedHandOff;
    private final CloseWait closeWait;

    ExecutorSupport(ExecutorService pool, TimedHandOff timedHandOff, CloseWait closeWait) {
        this.pool = pool;
        this.timedHandOff = timedHandOff;
        this.closeWait = closeWait;
    }

    <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        return invokeAll(tasks, false, 0L);
    }

    <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        return invokeAll(tasks, true, PoolCore.deadline(unit.toNanos(timeout)));
    }

    <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        try {
            return invokeAny(tasks, false, 0L);
        } catch (TimeoutException e) {
            throw new AssertionError("an untimed invokeAny timed out", e);
        }
    }

    <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return invokeAny(tasks, true, PoolCore.deadline(unit.toNanos(timeout)));
    }

    /**
     * {@link ExecutorService#close()}: shuts the pool down and waits through {@link CloseWait}; an interrupt
     * calls {@code shutdownNow} once and is re-asserted before returning.
     */
    void close() {
        if (pool.isTerminated()) {
            return;
        }
        pool.shutdown();
        boolean interrupted = false;
        for (;;) {
            try {
                if (closeWait.await(TimeUnit.DAYS.toNanos(1))) {
                    break;
                }
            } catch (InterruptedException e) {
                if (!interrupted) {
                    pool.shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
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
        BlockingQueue<Future<T>> completed = new LinkedBlockingQueue<>();
        ArrayList<Future<T>> futures = newTasks(tasks, completed);
        int n = futures.size();
        if (n == 0) {
            throw new IllegalArgumentException("no tasks");
        }
        try {
            ExecutionException failure = null;
            int next = 0;
            int active = 0;
            for (;;) {
                Future<T> f = completed.poll();
                if (f == null) {
                    if (next < n && handOff((Runnable) futures.get(next), timed, deadline)) {
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
                pool.execute(task);
                return true;
            }
            long nanos = deadline - System.nanoTime();
            if (nanos > 0L && timedHandOff.trySubmit(task, nanos)) {
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
                                                     BlockingQueue<Future<T>> completed) {
        ArrayList<Future<T>> futures = new ArrayList<>(tasks.size());
        for (Callable<T> c : tasks) {
            futures.add(completed == null ? new FutureTask<>(c) : new QueueingFuture<>(c, completed));
        }
        return futures;
    }

    private static <T> void cancelAll(List<Future<T>> futures, int from) {
        for (int i = from, size = futures.size(); i < size; i++) {
            futures.get(i).cancel(true);
        }
    }

    /** A task that, once done, puts itself on {@code invokeAny}'s queue of completed tasks. */
    private static final class QueueingFuture<T> extends FutureTask<T> {
        private final BlockingQueue<Future<T>> completed;

        QueueingFuture(Callable<T> task, BlockingQueue<Future<T>> completed) {
            super(task);
            this.completed = completed;
        }

        @Override
        protected void done() {
            completed.add(this);
        }
    }
}
