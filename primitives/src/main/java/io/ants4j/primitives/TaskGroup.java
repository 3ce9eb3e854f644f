package io.ants4j.primitives;

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
import java.util.concurrent.RejectedExecutionException;

/**
 * A group of tasks working on parts of one job: the port of Go's {@code errgroup.Group}. {@link #go}
 * starts a task, blocking while {@code limit} tasks of the group run; {@link #await} waits for every
 * task started and returns their results in the order of the {@code go} calls (of calls that overlap
 * in different threads, in either order); the first task to fail cancels the others.
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
 * <p><b>Limit.</b> {@code go} blocks while {@code limit} tasks of this group run. As in errgroup, a
 * negative limit means none, and a limit of zero lets no task in until {@link #setLimit} raises it.
 * Blocked submitters go in first come, first served, in the order they queued: a slot given back goes
 * to the submitter that has been queued longest, and is its own from then on, however long that thread
 * takes to run again; newcomers and {@link #tryGo} never overtake them. A platform thread that finds
 * the group full, with nobody queued, first spin-waits a few tens of microseconds for a slot, and queues
 * only then: a submitter that queues in the meantime (a virtual thread queues at once) goes in before
 * it. A submitter that has to wait, and is interrupted before it starts waiting or while it waits,
 * gets a {@link RejectedExecutionException} caused by an {@link InterruptedException}, and its
 * interrupt status is set again: its interrupt status is read last, as it stops waiting, so this holds
 * also if a slot was handed to it, or the group cancelled, before it saw its interrupt; a slot handed
 * to it goes on to the next in line. An interrupted submitter does not spin, and goes in only if it
 * finds a slot free without waiting. A task
 * counts against the limit from the moment {@code go} lets it in until it returns, also while it waits
 * in the executor's own queue; its slot is given back before its {@code Future} completes, so once the
 * {@code Future} is done (other than by a cancellation, which can come while the task still runs) the
 * task no longer counts: {@link #tryGo} may let the next one in, and {@link #setLimit} does not see it
 * active.
 *
 * <p><b>Failure and cancellation.</b> The first task to throw cancels the group: every other task of
 * the group that runs is interrupted (its {@code Future} reports it cancelled), tasks that have not
 * started yet never start, blocked submitters are let go, and {@code await} throws an
 * {@link ExecutionException} whose cause is that first throwable. What other tasks throw afterwards is
 * attached to that {@code ExecutionException} as suppressed (at most 16), except an
 * {@link InterruptedException}, which the cancellation itself caused; so is what interrupting the other
 * tasks throws ({@code Thread.interrupt()} can throw, see {@link #cancel()}). No throwable of a task is
 * changed: the failing task's {@code Future} reports what it threw, with nothing attached to it (a
 * throwable that tasks of many groups throw collects nothing). {@link #cancel()} cancels the group the same way without
 * a failure, and {@code await} then throws a {@link CancellationException}. Cancellation is final:
 * afterwards {@code go} and {@code tryGo} start nothing and return an already cancelled
 * {@code Future}. Cancelling the {@code Future} of a single task cancels that task only; its place in
 * the results of {@code await} holds {@code null} ({@code cancel(true)} throws what interrupting the
 * task's thread throws, once the {@code Future} is cancelled). The interrupt with which a cancellation
 * (of the group, or {@code cancel(true)} of a task's {@code Future}) stops a running task is cleared
 * when the task returns, so it does not reach what the executor's thread runs next; an interrupt
 * status the thread had when the task started is left set, and running a task cancelled before it
 * started changes nothing. An interrupt that another thread sends while the task runs cannot be told
 * apart from the cancellation's (a thread has one interrupt status): if the task is so cancelled
 * before it returns, that interrupt is cleared with the cancellation's. A task may run nested in
 * another task of this or another group, on its thread: when the executor runs it inline in that
 * task's {@code go} (a saturated {@code ThreadPoolExecutor} with {@code CallerRunsPolicy},
 * {@code Runnable::run}), or when that task runs it as a {@code ForkJoinPool} worker may while it
 * joins. The two share the thread's interrupt status: a
 * cancellation of the enclosing task interrupts the nested one too, and when the nested task returns,
 * the interrupt of a cancellation of an enclosing task that still runs is set again (also if the
 * nested task consumed it) if it came while the nested task ran or was pending when it started; only
 * the interrupt of the nested task's own cancellation is cleared.
 *
 * <p><b>Rounds.</b> {@code await} waits for every task started, also after a failure, so no task of the
 * group runs when it returns or throws. A {@code go} concurrent with a running {@code await} is allowed:
 * if it is counted before {@code await} finds every task done, {@code await} waits for it and returns
 * its result too; otherwise it opens the next round, whose results the next {@code await} returns (as
 * errgroup allows {@code Go} after {@code Wait}). Several threads may await the same round: each
 * returns its results, also if the group was cancelled after the round ended. As {@code Wait} from a
 * goroutine of an errgroup, {@code await} and {@code close} called from one of the group's own tasks
 * wait for that task too: {@code await} until the thread is interrupted (a cancellation of the group
 * interrupts the task: {@code await} then throws {@link InterruptedException}), {@code close} for ever.
 *
 * <p><b>Executor.</b> By default each task runs in a virtual thread of its own. Any {@link Executor} may
 * be given instead, a bounded pool included; it must run every task it accepts. If its
 * {@code execute} throws, {@code go} throws that exception (a {@code RuntimeException} other than
 * {@link RejectedExecutionException} wrapped in one), and the task is not part of the group: it never
 * runs, even if the executor kept it and runs it later (as a {@code ThreadPoolExecutor} may, when it
 * has queued the task and then fails to start a thread). Only if the executor had already started the
 * task when {@code execute} threw is it part of the group, counted and reported like any other.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread prior to {@code go} <i>happen-before</i> the
 * task runs; everything a task does happens-before its {@code Future} yields its outcome, unless that
 * {@code Future} was cancelled while the task ran (it then yields its outcome at once, while the task
 * may still run, as a {@code FutureTask} does), and before {@code await} or {@code close} returns (or
 * throws).
 *
 * @param <T> the type of the tasks' results
 */
public final class TaskGroup<T> implements AutoCloseable {
    /*
     * Implementation notes.
     *
     * One SpinLock, the lock of the group's TaskSlots, guards the group's state: the slots (the
     * limit, the slots taken, and the submitters waiting for one; see TaskSlots), the current
     * round, and the first failure. The cancelled flag is volatile so that isCancelled, which a
     * task about to start calls too, reads it without the lock; it changes only under the lock,
     * and only from false to true. A waiting submitter is handed its slot by whoever gives one back, so the
     * queue is served strictly in arrival order. A platform-thread submitter that finds the group
     * full and nobody waiting first spin-waits, reading the slots without the lock (a stale value
     * costs only a spin or a trip to the lock): a task of microseconds frees a slot long before an
     * unparked platform thread runs again (tens of µs), and without the spin every go at the
     * limit paid that wake-up (docs/benchmark-notes.md). Virtual threads park and wake cheaply and
     * do not spin, so they never hold a carrier that the tasks need.
     *
     * go registers a task in the current round (see TaskRound) in the critical section that takes
     * its slot (or, for a submitter handed a slot while it waited, in the first one after); await
     * waits on the round's WaitGroup, allocates the list of results for the members it saw, then
     * under the lock closes the round only if its count is still 0 and it has as many members (a go
     * may have slipped in after the WaitGroup released it: then it waits again); a second awaiter of
     * the same round finds it closed and reads the same results, whether or not the group was
     * cancelled since (closed is checked before cancelled). After cancellation no round closes, and
     * await waits for the current one. await and close from a task of the group are not detected:
     * that would take a thread-local set by every task, or a walk of the round by every await.
     *
     * Each task is a TaskMember: see its notes. An executor may throw from execute and still run the
     * task (the JDK's ThreadPoolExecutor does when it has queued the task and then fails to add a
     * worker), so the member's run and go's undo (unregister) race for one claim (a CAS): the winner
     * counts the task, the loser does nothing. Cancelling the group marks each member of the current
     * round (frozen: no go registers after the flag is set) and cancels its Future with interruption
     * (TaskRound.cancelMembers); a member that starts afterwards finds the flag and does not run.
     * Interrupting a task can throw (see TaskMember), and so can unparking a submitter: every
     * submitter is let go and every member cancelled all the same, the first throwable is kept, later
     * ones suppressed in it if addSuppressed can allocate (it catches its own failure). cancel()
     * throws it once every member is cancelled; close() once the round has drained; a failure keeps
     * it with the later failures, for await. What tasks throw is never changed (the failing task's
     * Future reports its own throwable, and one instance may be thrown by tasks of many groups): the
     * later failures are kept in an array of the group's, made on the first one, and attached to the
     * exception each await throws.
     *
     * What can fail to allocate (the member and a waiting
     * submitter's node, the next round and the list of its results, a round's list growing) comes
     * before the state changes or is undone, and nothing is allocated once the cancelled flag is set
     * (the members are walked by index, not by an iterator) unless something throws, so an
     * OutOfMemoryError leaves the group as it was and cannot stop a cancellation half-way;
     * exceptions are made only when thrown (cancel() makes none: close() after a successful await
     * costs no stack trace), and a failure that cannot be kept is dropped, not thrown. The first run
     * in the JVM of a VarHandle call site links it, which allocates, and a member's claim, call and
     * return run theirs after the task was counted: were the first run on an exhausted heap, the
     * group would count the task for good (await and close hanging). So class initialization runs a
     * nested pair of tasks inline on a throwaway group (linkStateChanges), before any group has state.
     */
    private static final int MAX_SUPPRESSED = 16;
    /** Spin-waits of a platform-thread submitter at the limit before it parks (tens of µs). */
    private static final int SLOT_SPINS = 1000;

    /** Outcomes of {@link #enterLocked}. */
    private static final int LET_IN = 0;
    private static final int SHUT_OUT = 1;
    private static final int FULL = 2;
    private static final int QUEUED = 3;

    private static final Executor THREAD_PER_TASK = new VirtualThreadPerTask("ants4j-task-");

    /** Links the call sites before any group has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        LINKING.attempt();
    }

    private final Executor executor;
    private final TaskSlots slots;
    private final SpinLock lock;

    /** Guarded by {@link #lock}. */
    private TaskRound<T> round = new TaskRound<>();
    private volatile boolean cancelled;
    /** The first failure; null while none. */
    private Throwable failure;
    /**
     * What tasks threw after the group was cancelled, for await to attach to what it throws: at most
     * {@link #MAX_SUPPRESSED}, made on the first such throw; the first {@link #laterFailureCount} are set.
     */
    private Throwable[] laterFailures;
    private int laterFailureCount;

    private TaskGroup(int limit, Executor executor) {
        LINKING.ensure();
        this.executor = Objects.requireNonNull(executor, "executor");
        this.slots = new TaskSlots(limit);
        this.lock = slots.lock;
    }

    /**
     * Runs, inline on a throwaway group, a task that submits another, then cancels the group: every path of a
     * member's run, call and return, nested or not, and of a cancellation. The first run of each
     * {@code VarHandle} call site in the JVM links it, which allocates: were a member's claim the first, on an
     * exhausted heap, its run would end before it could count the task down. Class initialization runs it, or, if
     * that ran out of memory, the first constructor ({@link CallSiteLinking}). The linking thread's record of
     * the task it calls is a JDK array, empty again afterwards, so it pins nothing of the library.
     */
    private static void linkStateChanges() {
        TaskGroup<Object> group = new TaskGroup<>(-1, Runnable::run);
        group.go(() -> group.go(() -> null));
        group.cancel();
    }

    /**
     * Creates a group without a limit that runs each task in a virtual thread of its own.
     *
     * @param <T> the type of the tasks' results
     * @return a new group
     */
    public static <T> TaskGroup<T> create() {
        return new TaskGroup<>(-1, THREAD_PER_TASK);
    }

    /**
     * Creates a group that runs each task in a virtual thread of its own, at most {@code limit} at once
     * (errgroup's {@code SetLimit} on a new group).
     *
     * @param <T> the type of the tasks' results
     * @param limit the most tasks of the group that run at once; negative: no limit; zero: no task
     *     is let in until {@link #setLimit} raises it
     * @return a new group
     */
    public static <T> TaskGroup<T> create(int limit) {
        return new TaskGroup<>(limit, THREAD_PER_TASK);
    }

    /**
     * Creates a group that runs its tasks on {@code executor}, at most {@code limit} at once.
     *
     * @param <T> the type of the tasks' results
     * @param limit the most tasks of the group that run at once; negative: no limit; zero: no task
     *     is let in until {@link #setLimit} raises it
     * @param executor runs the tasks; it must run every task it accepts
     * @return a new group
     * @throws NullPointerException if {@code executor} is null
     */
    public static <T> TaskGroup<T> create(int limit, Executor executor) {
        return new TaskGroup<>(limit, executor);
    }

    /**
     * Changes the most tasks of the group that run at once (errgroup's {@code SetLimit}): negative
     * means no limit, zero lets no new task in. Submitters waiting in {@code go} that fit the new
     * limit are let in at once, first come, first served.
     *
     * @param limit the most tasks of the group that run at once; negative: no limit
     * @throws IllegalStateException if {@code limit} is zero or more and a task of the group is
     *     active: let in by {@code go} or {@code tryGo} and not yet returned; the limit is then
     *     unchanged (errgroup panics when the group had a limit, and when it had none leaves its active
     *     goroutines to block for ever when they return). A negative limit may be set at any time, as in
     *     errgroup.
     */
    public void setLimit(int limit) {
        WaitQueue.Waiter letIn;
        lock.lock();
        try {
            letIn = slots.setLimitLocked(limit);
        } finally {
            lock.unlock();
        }
        WaitQueue.unparkAll(letIn);
    }

    /**
     * Starts {@code task} in the group, first waiting while {@code limit} tasks of the group run. If the
     * group is cancelled, before or while this call waits, the task does not start and the returned
     * {@code Future} is cancelled.
     *
     * @param task the task; what it returns is its result, what it throws fails the group
     * @return the task's {@code Future}
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if it had to wait and was interrupted before or while it
     *     waited (caused by an {@link InterruptedException}; the interrupt status is set again), or if
     *     the executor threw
     */
    public Future<T> go(Callable<? extends T> task) {
        TaskMember<T> member = new TaskMember<>(this, Objects.requireNonNull(task, "task"));
        spinWhileFull();
        WaitQueue.Waiter waiter = null;
        for (;;) {
            int entry;
            lock.lock();
            try {
                entry = enterLocked(member, waiter);
            } finally {
                lock.unlock();
            }
            if (entry == LET_IN) {
                return start(member);
            } else if (entry == SHUT_OUT) {
                return member.cancelled();
            } else if (entry == QUEUED) {
                break;
            }
            waiter = new WaitQueue.Waiter(); // allocated without the lock, before this submitter changed anything
        }
        int woken = slots.await(waiter);
        if (woken == WaitQueue.INTERRUPTED) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for a slot of the TaskGroup",
                    new InterruptedException());
        }
        return woken == TaskSlots.SLOT && registerInOwnSlot(member) ? start(member) : member.cancelled();
    }

    /**
     * Starts {@code task} in the group only if it can start without waiting: fewer than {@code limit}
     * tasks of the group run and no submitter waits (errgroup's {@code TryGo}). If the group is
     * cancelled, the task does not start and the returned {@code Future} is cancelled.
     *
     * @param task the task; what it returns is its result, what it throws fails the group
     * @return the task's {@code Future}, or empty if it would have had to wait
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if the executor threw
     */
    public Optional<Future<T>> tryGo(Callable<? extends T> task) {
        TaskMember<T> member = new TaskMember<>(this, Objects.requireNonNull(task, "task"));
        Optional<Future<T>> started = Optional.of(member.future); // before the entry: may run out of memory
        int entry;
        lock.lock();
        try {
            entry = enterLocked(member, null);
        } finally {
            lock.unlock();
        }
        if (entry == FULL) {
            return Optional.empty();
        }
        if (entry == LET_IN) {
            start(member);
        } else {
            member.cancelled();
        }
        return started;
    }

    /**
     * Lets {@code member} in if a slot is free and nobody waits; else queues {@code waiter}, if
     * there is one. Returns {@link #LET_IN}, {@link #SHUT_OUT} (cancelled), {@link #QUEUED} or
     * {@link #FULL} (no waiter to queue). Lock held.
     */
    private int enterLocked(TaskMember<T> member, WaitQueue.Waiter waiter) {
        if (cancelled) {
            return SHUT_OUT;
        }
        if (slots.freeLocked()) {
            round.register(member);
            slots.takeLocked();
            return LET_IN;
        }
        if (waiter == null) {
            return FULL;
        }
        slots.enqueueLocked(waiter);
        return QUEUED;
    }

    /**
     * Registers {@code member} with the slot its submitter was handed while it waited: true if let in;
     * false, the slot given back, if the group was cancelled meanwhile. If registering fails (no
     * memory), the slot goes on to the next submitter in line.
     */
    private boolean registerInOwnSlot(TaskMember<T> member) {
        WaitQueue.Waiter next = null;
        lock.lock();
        try {
            if (!cancelled) {
                round.register(member);
                return true;
            }
            next = slots.releaseLocked();
            return false;
        } catch (Throwable t) {
            next = slots.releaseLocked();
            throw t;
        } finally {
            lock.unlock();
            WaitQueue.unparkAll(next);
        }
    }

    /**
     * Spin-waits, in a platform thread, while the group is full and nobody waits for a slot: a slot
     * a short task frees comes sooner than a parked platform thread wakes. Reads without the lock.
     */
    private void spinWhileFull() {
        Thread self = Thread.currentThread();
        if (self.isVirtual()) {
            return;
        }
        for (int i = 0; i < SLOT_SPINS && slots.fullAndNobodyWaits() && !cancelled && !self.isInterrupted(); i++) {
            Thread.onSpinWait();
        }
    }

    private Future<T> start(TaskMember<T> member) {
        try {
            executor.execute(member);
        } catch (Throwable t) {
            if (member.claim()) { // it has not started, and now never will
                unregister(member);
            }
            if (t instanceof RuntimeException && !(t instanceof RejectedExecutionException)) {
                throw new RejectedExecutionException("the executor of the TaskGroup threw", t);
            }
            throw t;
        }
        return member.future;
    }

    /** Takes back a member the executor did not take; it stays in its round's list, marked. */
    private void unregister(TaskMember<T> member) {
        WaitQueue.Waiter next;
        lock.lock();
        try {
            member.rejected = true;
            next = slots.releaseLocked();
        } finally {
            lock.unlock();
        }
        try {
            WaitQueue.unparkAll(next);
        } finally {
            member.future.cancel(false);
            member.round.pending.done();
        }
    }

    /** Called by every member that ran when its run ends, however it ends: then {@code await} may count it done. */
    void ended(TaskMember<T> member) {
        try {
            member.giveSlotBack();
        } finally {
            member.round.pending.done();
        }
    }

    /** Gives a slot back: to the oldest waiting submitter, or to the free ones. */
    void releaseSlot() {
        WaitQueue.Waiter next;
        lock.lock();
        try {
            next = slots.releaseLocked();
        } finally {
            lock.unlock();
        }
        WaitQueue.unparkAll(next);
    }

    /** Called by a member whose task threw {@code thrown}. */
    void failed(TaskMember<T> member, Throwable thrown) {
        WaitQueue.Waiter released = null;
        TaskRound<T> toCancel = null;
        lock.lock();
        try {
            if (!cancelled) {
                failure = thrown;
                released = cancelLocked();
                toCancel = round;
            } else if (!(thrown instanceof InterruptedException)) {
                suppressLocked(thrown);
            }
        } finally {
            lock.unlock();
        }
        if (toCancel != null) {
            // Not thrown: the task's Future reports what the task threw; await reports it with the failure.
            Throwable cancelling = cancelAll(released, toCancel, member);
            if (cancelling != null) {
                lock.lock();
                try {
                    suppressLocked(cancelling);
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /**
     * Keeps {@code thrown}, thrown after the group was cancelled, for what {@code await} throws, at most
     * {@link #MAX_SUPPRESSED}; dropped if there is no memory for it. Lock held.
     */
    private void suppressLocked(Throwable thrown) {
        if (thrown == failure || laterFailureCount >= MAX_SUPPRESSED) {
            return;
        }
        try {
            if (laterFailures == null) {
                laterFailures = new Throwable[MAX_SUPPRESSED];
            }
            laterFailures[laterFailureCount++] = thrown;
        } catch (Throwable cannot) {
            // no memory to keep it: the cancellation or the first failure is still reported
        }
    }

    /**
     * Lets go the submitters a cancellation {@code released} and cancels the tasks of {@code round} but
     * {@code except}: all of them, even if an unpark or an interrupt throws. Returns the first throwable,
     * the others suppressed in it as far as there is memory, or null. Allocates nothing unless one throws.
     */
    private static <T> Throwable cancelAll(WaitQueue.Waiter released, TaskRound<T> round, TaskMember<T> except) {
        Throwable thrown = null;
        try {
            WaitQueue.unparkAll(released);
        } catch (RuntimeException | Error e) {
            thrown = e;
        }
        return firstOf(thrown, round.cancelMembers(except));
    }

    /**
     * Returns {@code first} with {@code next} suppressed in it, or whichever is not null. An
     * {@code addSuppressed} that fails (no memory; {@code next} is {@code first}) loses {@code next} only.
     */
    static Throwable firstOf(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (next != null) {
            try {
                first.addSuppressed(next);
            } catch (Throwable cannot) {
                // first is what is reported
            }
        }
        return first;
    }

    /** Sets the flag and lets waiting submitters go; lock held. Returns them, to unpark. Allocates nothing. */
    private WaitQueue.Waiter cancelLocked() {
        cancelled = true;
        return slots.cancelLocked();
    }

    /**
     * Waits for every task started in the group, then returns their results in the order of the
     * {@code go} calls and opens a new round: a later {@code go} and {@code await} work on new tasks.
     * Another {@code await} of the same round, concurrent with this one, returns the same results,
     * also if the group is cancelled after the round ended. Called from one of the group's own
     * tasks it waits for that task too, until the thread is interrupted.
     *
     * @return the results of the tasks of this round, in {@code go} order ({@code null} for a task whose
     *     {@code Future} was cancelled); an unmodifiable list
     * @throws ExecutionException if a task failed: the cause is the first failure; later ones are
     *     suppressed in this exception
     * @throws CancellationException if the group was cancelled through {@link #cancel()} or
     *     {@link #close()} before the round ended
     * @throws InterruptedException if interrupted while waiting
     * @throws OutOfMemoryError if there is no memory for the list of results; the round has then not
     *     ended: unless another {@code await} ends it, the next one returns its results
     */
    public List<T> await() throws InterruptedException, ExecutionException {
        TaskRound<T> r;
        int size;
        lock.lock();
        try {
            r = round;
            size = r.members.size();
        } finally {
            lock.unlock();
        }
        for (;;) {
            r.pending.await();
            // Made before the lock, so that an OutOfMemoryError cannot strike once the round is closed.
            TaskRound<T> next = new TaskRound<>();
            ArrayList<T> results = new ArrayList<>(size);
            List<T> view = Collections.unmodifiableList(results);
            boolean ended = false;
            boolean failed = false;
            lock.lock();
            try {
                if (r.members.size() != size) { // a go slipped in: wait for it too, with room for its result
                    size = r.members.size();
                } else if (r.closed) {
                    ended = true; // by another awaiter, maybe before a cancel: its results are this awaiter's too
                } else if (cancelled) { // no round ends any more: the current one, where tasks may still run, must drain
                    r = round;
                    ended = failed = r.pending.count() == 0;
                } else if (r.pending.count() == 0) {
                    r.closed = true;
                    round = next;
                    ended = true;
                }
            } finally {
                lock.unlock();
            }
            if (ended) {
                if (failed) {
                    return throwCancelled();
                }
                r.addResultsTo(results);
                return view;
            }
        }
    }

    private TaskRound<T> currentRound() {
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
        Throwable[] later;
        int laterCount;
        lock.lock();
        try {
            first = failure;
            later = laterFailures;
            laterCount = laterFailureCount;
        } finally {
            lock.unlock();
        }
        Exception e = first != null
                ? new ExecutionException(first)
                : new CancellationException("the TaskGroup was cancelled");
        for (int i = 0; i < laterCount; i++) {
            e.addSuppressed(later[i]);
        }
        if (e instanceof ExecutionException failed) {
            throw failed;
        }
        throw (CancellationException) e;
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
     *
     * <p>{@code Thread.interrupt()} can throw: what closing the interruptible channel the thread is
     * blocked on throws (other than an {@code IOException}), or, on JDK 21, an {@code OutOfMemoryError}
     * unparking a virtual thread. So can unparking a submitter. Every task is cancelled and every
     * submitter let go all the same; then this method throws the first such throwable, the others
     * suppressed in it (as far as there is memory for them). The group is cancelled either way.
     */
    public void cancel() {
        WaitQueue.Waiter released = null;
        TaskRound<T> toCancel = null;
        lock.lock();
        try {
            if (!cancelled) {
                released = cancelLocked();
                toCancel = round;
            }
        } finally {
            lock.unlock();
        }
        if (toCancel != null) {
            Throwable thrown = cancelAll(released, toCancel, null);
            if (thrown instanceof Error e) {
                throw e;
            } else if (thrown != null) {
                throw (RuntimeException) thrown;
            }
        }
    }

    /**
     * Cancels the group (see {@link #cancel()}) and waits until none of its tasks runs. If interrupted
     * while waiting it keeps waiting, and sets the interrupt status again before it returns. Failures
     * not yet reported by {@link #await} are not reported. If {@code cancel()} throws (interrupting a
     * task threw), this method still waits until none of the tasks runs, and then throws that. Idempotent.
     * Called from one of the group's own tasks it cancels the group and then waits for that task too: it
     * never returns (use {@link #cancel()} there).
     */
    @Override
    public void close() {
        try {
            cancel();
        } finally {
            currentRound().pending.awaitUninterruptibly();
        }
    }

    /**
     * Returns a string identifying this group and its state.
     *
     * @return e.g. {@code "TaskGroup@1b6d3586[limit=8, running=3, cancelled=false]"}
     */
    @Override
    public String toString() {
        int limit;
        int running;
        lock.lock();
        try {
            limit = slots.limitLocked();
            running = slots.activeLocked();
        } finally {
            lock.unlock();
        }
        return super.toString() + "[limit=" + (limit == TaskSlots.NO_LIMIT ? "none" : limit)
                + ", running=" + running + ", cancelled=" + cancelled + "]";
    }
}
