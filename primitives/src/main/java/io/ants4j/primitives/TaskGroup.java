package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;

/**
 * A group of tasks working on parts of one job: the port of Go's {@code errgroup.Group}. {@link #go}
 * starts a task, blocking while {@code limit} tasks of the group run; {@link #await} waits for every
 * task started and returns their results in the order of the {@code go} calls; the first task to fail
 * cancels the others.
 *
 * <pre>{@code
 * try (TaskGroup<Page> group = TaskGroup.create(8)) {  // at most 8 fetches at once
 *     for (String url : urls) {
 *         group.go(() -> fetch(url));
 *     }
 *     List<Page> pages = group.await();                 // in the order of the urls
 * }                                                     // close(): nothing of the group outlives the block
 * }</pre>
 *
 * <p><b>Limit.</b> {@code go} blocks while {@code limit} tasks of this group run; blocked submitters go
 * in first come, first served, and {@link #tryGo} never overtakes them. A submitter interrupted while it
 * waits gets a {@link RejectedExecutionException} caused by the {@link InterruptedException}, and its
 * interrupt status is set again. A task counts against the limit from the moment {@code go} lets it in
 * until it returns, also while it waits in the executor's own queue.
 *
 * <p><b>Failure and cancellation.</b> The first task to throw cancels the group: every other task of
 * the group that runs is interrupted (its {@code Future} reports it cancelled), tasks that have not
 * started yet never start, blocked submitters are let go, and {@code await} throws an
 * {@link ExecutionException} whose cause is that first throwable. What other tasks throw afterwards is
 * attached to it as suppressed (at most 16), except an {@link InterruptedException}, which the
 * cancellation itself caused. {@link #cancel()} cancels the group the same way without a failure, and
 * {@code await} then throws a {@link CancellationException}. Cancellation is final: afterwards
 * {@code go} and {@code tryGo} start nothing and return an already cancelled {@code Future}.
 * Cancelling the {@code Future} of a single task cancels that task only; its place in the results of
 * {@code await} holds {@code null}.
 *
 * <p><b>Rounds.</b> {@code await} waits for every task started, also after a failure, so no task of the
 * group runs when it returns or throws. A {@code go} concurrent with a running {@code await} is allowed:
 * if it is counted before {@code await} finds every task done, {@code await} waits for it and returns
 * its result too; otherwise it opens the next round, whose results the next {@code await} returns (as
 * errgroup allows {@code Go} after {@code Wait}).
 *
 * <p><b>Executor.</b> By default each task runs in a virtual thread of its own. Any {@link Executor} may
 * be given instead, a bounded pool included; it must run every task it accepts. If its
 * {@code execute} throws, {@code go} throws that exception (a {@code RuntimeException} other than
 * {@link RejectedExecutionException} wrapped in one) and the task is not part of the group.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread prior to {@code go} <i>happen-before</i> the
 * task runs; everything a task does happens-before its {@code Future} yields its outcome and before
 * {@code await} or {@code close} returns (or {@code await} throws).
 *
 * @param <T> the type of the tasks' results
 */
public final class TaskGroup<T> implements AutoCloseable {
    /*
     * Implementation notes.
     *
     * One SpinLock guards the group's state: the number of tasks let in and not yet returned (active),
     * the number of submitters waiting for a slot (blocked), the current round, and the first failure.
     * The cancelled flag is volatile so that a task about to start and isCancelled read it without the
     * lock; it changes only under the lock, and only from false to true. Blocked submitters wait on a
     * Cond of that lock (FIFO); a returning task signals one, cancellation broadcasts. A newcomer waits
     * while anyone is blocked, so a slot freed for the head of the queue is never taken by a barger; a
     * woken submitter no longer counts itself, and whoever leaves the wait while a slot is still free
     * (having taken one of several, or leaving on a throwable) signals the next, so no slot is stranded.
     * A platform-thread submitter that finds the group full and nobody blocked first spin-waits, reading
     * active and blocked without the lock (a stale value costs only a spin or a trip to the lock): a task
     * of microseconds frees a slot long before an unparked platform thread runs again (tens of µs), and
     * without the spin every go at the limit paid that wake-up (docs/benchmark-notes.md). Virtual threads
     * park and wake cheaply and do not spin, so they never hold a carrier that the tasks need.
     *
     * A round is the list of the tasks let in since the previous await returned, in go order, and a
     * WaitGroup counting those not yet returned. go registers a task in the current round and adds to
     * its WaitGroup in one critical section; await waits on the round's WaitGroup, then under the lock
     * closes the round only if its count is still 0 (a go may have slipped in after the WaitGroup
     * released it: then it waits again). Once closed, a round's list never changes, so its results are
     * read without the lock; a second awaiter of the same round finds it closed and reads the same list.
     * A member is never removed from the list (cancellation walks it without the lock); one the
     * executor rejected is marked and left out of the results. After cancellation no round closes, and
     * await waits for the current one.
     *
     * Each task is a Member: a FutureTask around the user's Callable (the Future the caller gets) and
     * the Runnable handed to the executor, whose finally gives back the slot and counts the task done,
     * however the task ends. The Callable wrapper reports a throwable before the FutureTask records it,
     * so the first failure cancels the others as early as possible. Cancelling the group marks each
     * member of the current round (frozen: no go registers after the flag is set) and cancels its
     * FutureTask with interruption; a member that starts afterwards finds the flag and does not run. An
     * interrupt that such a cancellation delivers is cleared once the FutureTask has returned, so it does
     * not leak into the executor's next task. What can fail to allocate (the member, the next round, a
     * round's list growing) comes before the state changes or is undone, so an OutOfMemoryError leaves
     * the group as it was; exceptions are made only when thrown (cancel() makes none: close() after a
     * successful await costs no stack trace), and a failure that cannot be kept is dropped, not thrown.
     */
    private static final int MAX_SUPPRESSED = 16;
    /** Spin-waits of a platform-thread submitter at the limit before it parks (tens of µs). */
    private static final int SLOT_SPINS = 1000;
    private static final VarHandle ACTIVE;
    private static final VarHandle BLOCKED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACTIVE = lookup.findVarHandle(TaskGroup.class, "active", int.class);
            BLOCKED = lookup.findVarHandle(TaskGroup.class, "blocked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final ThreadFactory VIRTUAL_THREADS = Thread.ofVirtual().name("ants4j-task-", 0).factory();
    private static final Executor THREAD_PER_TASK = task -> VIRTUAL_THREADS.newThread(task).start();

    private final int limit;
    private final Executor executor;
    private final SpinLock lock = new SpinLock();
    private final Cond slotFreed = new Cond(lock);

    /** Guarded by {@link #lock}; {@link #spinWhileFull} reads it and {@link #blocked} without. */
    private int active;
    private int blocked;
    private Round<T> round = new Round<>();
    private volatile boolean cancelled;
    /** The first failure; null while none. */
    private Throwable failure;
    /** After a cancel() without a failure: holds what tasks threw afterwards, made on the first such throw. */
    private CancellationException laterFailures;
    private int suppressed;

    private TaskGroup(int limit, Executor executor) {
        this.limit = limit <= 0 ? Integer.MAX_VALUE : limit;
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Creates a group without a limit that runs each task in a virtual thread of its own.
     *
     * @param <T> the type of the tasks' results
     * @return a new group
     */
    public static <T> TaskGroup<T> create() {
        return new TaskGroup<>(0, THREAD_PER_TASK);
    }

    /**
     * Creates a group that runs each task in a virtual thread of its own, at most {@code limit} at once
     * (errgroup's {@code SetLimit}).
     *
     * @param <T> the type of the tasks' results
     * @param limit the most tasks of the group that run at once; zero or negative: no limit
     * @return a new group
     */
    public static <T> TaskGroup<T> create(int limit) {
        return new TaskGroup<>(limit, THREAD_PER_TASK);
    }

    /**
     * Creates a group that runs its tasks on {@code executor}, at most {@code limit} at once.
     *
     * @param <T> the type of the tasks' results
     * @param limit the most tasks of the group that run at once; zero or negative: no limit
     * @param executor runs the tasks; it must run every task it accepts
     * @return a new group
     * @throws NullPointerException if {@code executor} is null
     */
    public static <T> TaskGroup<T> create(int limit, Executor executor) {
        return new TaskGroup<>(limit, executor);
    }

    /**
     * Starts {@code task} in the group, first waiting while {@code limit} tasks of the group run. If the
     * group is cancelled, before or while this call waits, the task does not start and the returned
     * {@code Future} is cancelled.
     *
     * @param task the task; what it returns is its result, what it throws fails the group
     * @return the task's {@code Future}
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if interrupted while waiting (caused by the
     *     {@link InterruptedException}; the interrupt status is set again), or if the executor rejected
     *     the task
     */
    public Future<T> go(Callable<? extends T> task) {
        Member<T> member = new Member<>(this, Objects.requireNonNull(task, "task"));
        spinWhileFull();
        boolean letIn = false;
        lock.lock();
        try {
            boolean woken = false;
            while (!cancelled && (active >= limit || (blocked > 0 && !woken))) {
                blocked++;
                try {
                    slotFreed.await();
                } finally {
                    blocked--;
                }
                woken = true;
            }
            letIn = !cancelled && register(member);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for a slot of the TaskGroup", e);
        } finally {
            if (active < limit && blocked > 0) {
                slotFreed.signal(); // a slot still free (or one this submitter leaves unused) goes to the next
            }
            lock.unlock();
        }
        return letIn ? start(member) : member.cancelled();
    }

    /**
     * Starts {@code task} in the group only if it can start without waiting: fewer than {@code limit}
     * tasks of the group run and no submitter waits (errgroup's {@code TryGo}). If the group is
     * cancelled, the task does not start and the returned {@code Future} is cancelled.
     *
     * @param task the task; what it returns is its result, what it throws fails the group
     * @return the task's {@code Future}, or empty if it would have had to wait
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if the executor rejected the task
     */
    public Optional<Future<T>> tryGo(Callable<? extends T> task) {
        Member<T> member = new Member<>(this, Objects.requireNonNull(task, "task"));
        boolean letIn;
        lock.lock();
        try {
            if (cancelled) {
                letIn = false;
            } else if (active >= limit || blocked > 0) {
                return Optional.empty();
            } else {
                letIn = register(member);
            }
        } finally {
            lock.unlock();
        }
        return Optional.of(letIn ? start(member) : member.cancelled());
    }

    /**
     * Spin-waits, in a platform thread, while the group is full and nobody waits for a slot: a slot
     * a short task frees comes sooner than a parked platform thread wakes. Reads without the lock.
     */
    private void spinWhileFull() {
        if (limit == Integer.MAX_VALUE || Thread.currentThread().isVirtual()) {
            return;
        }
        for (int i = 0; i < SLOT_SPINS && (int) ACTIVE.getOpaque(this) >= limit
                && (int) BLOCKED.getOpaque(this) == 0 && !cancelled; i++) {
            Thread.onSpinWait();
        }
    }

    /** Counts {@code member} in and adds it to the current round; lock held. Always true. */
    private boolean register(Member<T> member) {
        Round<T> r = round;
        r.pending.add(1);
        try {
            r.members.add(member); // may fail to allocate
        } catch (Throwable t) {
            r.pending.done();
            throw t;
        }
        member.round = r;
        active++;
        return true;
    }

    private Future<T> start(Member<T> member) {
        try {
            executor.execute(member);
        } catch (Throwable t) {
            unregister(member);
            if (t instanceof RuntimeException && !(t instanceof RejectedExecutionException)) {
                throw new RejectedExecutionException("the executor of the TaskGroup threw", t);
            }
            throw t;
        }
        return member.future;
    }

    /** Takes back a member the executor never accepted; it stays in its round's list, marked. */
    private void unregister(Member<T> member) {
        lock.lock();
        try {
            member.rejected = true;
            freeSlot();
        } finally {
            lock.unlock();
        }
        member.future.cancel(false);
        member.round.pending.done();
    }

    /** Gives back a slot; lock held. */
    private void freeSlot() {
        active--;
        if (blocked > 0) {
            slotFreed.signal();
        }
    }

    /** Called by every member when its run ends, however it ends. */
    private void ended(Member<T> member) {
        lock.lock();
        try {
            freeSlot();
        } finally {
            lock.unlock();
        }
        member.round.pending.done();
    }

    /** Called by a member whose task threw {@code thrown}. */
    private void failed(Member<T> member, Throwable thrown) {
        Round<T> toCancel = null;
        lock.lock();
        try {
            if (!cancelled) {
                failure = thrown;
                toCancel = cancelLocked();
            } else if (!(thrown instanceof InterruptedException) && thrown != failure
                    && suppressed < MAX_SUPPRESSED) {
                try {
                    Throwable into = failure;
                    if (into == null) {
                        if (laterFailures == null) {
                            laterFailures = new CancellationException("the TaskGroup was cancelled");
                        }
                        into = laterFailures;
                    }
                    into.addSuppressed(thrown);
                    suppressed++;
                } catch (Throwable cannot) {
                    // no memory to keep it: the cancellation or the first failure is still reported
                }
            }
        } finally {
            lock.unlock();
        }
        if (toCancel != null) {
            cancelMembers(toCancel, member);
        }
    }

    /** Sets the flag and lets blocked submitters go; lock held. Returns the round whose members to cancel. */
    private Round<T> cancelLocked() {
        cancelled = true;
        slotFreed.broadcast();
        return round;
    }

    /** Cancels the members of {@code r} but {@code except}; without the lock (the list is frozen). */
    private static <T> void cancelMembers(Round<T> r, Member<T> except) {
        for (Member<T> m : r.members) {
            if (m != except) {
                m.cancelledByGroup = true;
                m.future.cancel(true);
            }
        }
    }

    /**
     * Waits for every task started in the group, then returns their results in the order of the
     * {@code go} calls and opens a new round: a later {@code go} and {@code await} work on new tasks.
     *
     * @return the results of the tasks of this round, in {@code go} order ({@code null} for a task whose
     *     {@code Future} was cancelled); an unmodifiable list
     * @throws ExecutionException if a task failed: the cause is the first failure, with later ones
     *     suppressed in it
     * @throws CancellationException if the group was cancelled through {@link #cancel()} or
     *     {@link #close()}
     * @throws InterruptedException if interrupted while waiting
     */
    public List<T> await() throws InterruptedException, ExecutionException {
        Round<T> r = currentRound();
        for (;;) {
            r.pending.await();
            Round<T> next = new Round<>(); // made before the lock, so closing the round cannot fail half-way
            boolean ended = false;
            boolean failed = false;
            lock.lock();
            try {
                if (cancelled) { // no round ends any more: the current one, where tasks may still run, must drain
                    r = round;
                    ended = failed = r.pending.count() == 0;
                } else if (r.closed) {
                    ended = true; // by another awaiter
                } else if (r.pending.count() == 0) { // else a go slipped in after the count reached zero
                    r.closed = true;
                    round = next;
                    ended = true;
                }
            } finally {
                lock.unlock();
            }
            if (ended) {
                return failed ? throwCancelled() : r.results();
            }
        }
    }

    private Round<T> currentRound() {
        lock.lock();
        try {
            return round;
        } finally {
            lock.unlock();
        }
    }

    /** Throws what {@code await} of a cancelled group throws, once none of its tasks runs. */
    private List<T> throwCancelled() throws ExecutionException {
        Throwable first;
        CancellationException later;
        lock.lock();
        try {
            first = failure;
            later = laterFailures;
        } finally {
            lock.unlock();
        }
        if (first != null) {
            throw new ExecutionException(first);
        }
        CancellationException e = new CancellationException("the TaskGroup was cancelled");
        if (later != null) {
            for (Throwable t : later.getSuppressed()) {
                e.addSuppressed(t);
            }
        }
        throw e;
    }

    /**
     * Returns whether the group is cancelled: a task failed, or {@link #cancel()} or {@link #close()}
     * was called.
     *
     * @return true once cancelled; never false again
     */
    public boolean isCancelled() {
        return cancelled;
    }

    /**
     * Cancels the group as a failure without a cause would: interrupts the tasks that run, keeps those
     * not started from starting, lets blocked submitters go, and makes {@code await} throw a
     * {@link CancellationException}. Does nothing if the group is already cancelled.
     */
    public void cancel() {
        Round<T> toCancel = null;
        lock.lock();
        try {
            if (!cancelled) {
                toCancel = cancelLocked();
            }
        } finally {
            lock.unlock();
        }
        if (toCancel != null) {
            cancelMembers(toCancel, null);
        }
    }

    /**
     * Cancels the group (see {@link #cancel()}) and waits until none of its tasks runs. If interrupted
     * while waiting it keeps waiting, and sets the interrupt status again before it returns. Failures
     * not yet reported by {@link #await} are not reported. Idempotent.
     */
    @Override
    public void close() {
        cancel();
        currentRound().pending.awaitUninterruptibly();
    }

    /**
     * Returns a string identifying this group and its state.
     *
     * @return e.g. {@code "TaskGroup@1b6d3586[limit=8, running=3, cancelled=false]"}
     */
    @Override
    public String toString() {
        return super.toString() + "[limit=" + (limit == Integer.MAX_VALUE ? "none" : limit)
                + ", running=" + active + ", cancelled=" + cancelled + "]";
    }

    /** The tasks let in since the previous {@code await} returned. */
    private static final class Round<T> {
        final ArrayList<Member<T>> members = new ArrayList<>();
        final WaitGroup pending = new WaitGroup();
        /** Guarded by the group's lock; once true, {@link #members} never changes. */
        boolean closed;

        List<T> results() {
            ArrayList<T> results = new ArrayList<>(members.size());
            for (Member<T> m : members) {
                if (!m.rejected) {
                    results.add(m.future.isCancelled() ? null : m.future.resultNow());
                }
            }
            return Collections.unmodifiableList(results);
        }
    }

    /** One task: the {@code Future} the caller gets, and the {@code Runnable} the executor runs. */
    private static final class Member<T> implements Runnable, Callable<T> {
        final TaskGroup<T> group;
        final Callable<? extends T> task;
        final FutureTask<T> future = new FutureTask<>(this);
        /** Set under the group's lock before the member is published to the executor. */
        Round<T> round;
        /** Set under the group's lock if the executor did not accept the member: not a task of the group. */
        boolean rejected;
        /** Set before the group cancels {@link #future}, so the task's throwable is not taken for a user's cancel. */
        volatile boolean cancelledByGroup;

        Member(TaskGroup<T> group, Callable<? extends T> task) {
            this.group = group;
            this.task = task;
        }

        Future<T> cancelled() {
            future.cancel(false);
            return future;
        }

        @Override
        public void run() {
            try {
                if (group.cancelled) {
                    future.cancel(false); // cancelled before it could start: it never starts
                } else {
                    future.run();
                }
                if (future.isCancelled()) {
                    Thread.interrupted(); // the cancellation's interrupt is not for the executor's next task
                }
            } finally {
                group.ended(this);
            }
        }

        @Override
        public T call() throws Exception {
            try {
                return task.call();
            } catch (Throwable t) {
                if (!future.isCancelled() || cancelledByGroup) { // a task whose own Future was cancelled did not fail the group
                    group.failed(this, t);
                }
                throw t;
            }
        }
    }
}
