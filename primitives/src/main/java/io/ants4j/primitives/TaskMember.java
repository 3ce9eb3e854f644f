package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One task of a {@link TaskGroup}: the {@code Future} the caller gets, and the {@code Runnable} the
 * executor runs. Whoever claims it first decides whether it is a task of the group: {@link #run} (it
 * runs, and counts when it ends), or {@link TaskGroup#go} after {@code execute} threw (it never runs;
 * {@code go} takes it back).
 */
final class TaskMember<T> implements Runnable, Callable<T> {
    /*
     * Implementation notes.
     *
     * A member is a FutureTask around the user's Callable (Outcome: the Future the caller gets) and
     * the Runnable handed to the executor. When the task returns, in this order: a failure is
     * recorded and cancels the group (call, before FutureTask sees the throwable), the slot is given
     * back (Outcome's set and setException, before they complete the Future), the Future completes,
     * and run's finally counts the task done for await (and gives back the slot of a member whose
     * task never ran), however the task ends. So a done Future holds no slot (tryGo right after it
     * may let a task in, setLimit does not count it), and await returns only after every Future is
     * complete. A Future cancelled while its task runs is done before the task returns: that task
     * keeps its slot until it returns.
     *
     * The member, not FutureTask, delivers the interrupt of a cancel(true), so that it knows whether it did:
     * the task is called in a window (taskState CALLED, then RETURNED, by the runner) in which a
     * canceller that has cancelled the FutureTask claims the interrupt by a CAS (INTERRUPTING, then
     * INTERRUPTED once delivered). The runner enters the window and then reads the FutureTask's
     * state, the canceller cancels it and then tries to claim (volatile, Dekker): so a task that is
     * called is interrupted or finds the Future cancelled and does not run. When the task returns,
     * a runner that finds its window claimed waits for the interrupt and clears it, unless it was
     * interrupted when the task was called; a task never called is never interrupted. So no
     * cancellation's interrupt reaches the executor's next task, and the thread's own stays
     * (TaskGroupFrayTest.aCancellationClearsOnlyTheInterruptItDelivered). An interrupt from another
     * thread that comes while the window is open is cleared with the cancellation's: one status bit
     * cannot tell them apart, and no canceller can. One that skips its interrupt when it finds the
     * status set loses the cancellation if the task consumes the other interrupt in between; one that
     * records that it found the status set leaks its own interrupt to the executor's next task if the
     * task consumes the other one in between. (FutureTask never clears, and so leaks; ThreadPoolExecutor
     * clears before each task, and so loses every earlier interrupt.)
     *
     * Thread.interrupt() can throw: a thread blocked on an interruptible channel has the channel closed,
     * and what implCloseChannel throws other than an IOException escapes; on JDK 21 unparking a virtual
     * thread can throw OutOfMemoryError. It sets the status before either, so the canceller moves the
     * member to INTERRUPTED in a finally, like any other (the runner neither spins for ever in returned
     * nor keeps that interrupt), and the throwable goes on to the canceller: a cancel(true) of the
     * Future throws it once the Future is cancelled, the group's cancellation once it has cancelled
     * every member (see TaskGroup's notes).
     *
     * Threads waiting in the Future's get wait in a WaitQueue of the member's (getters, made by the
     * first that has to wait), not in FutureTask's list: FutureTask's completion stops at an unpark
     * that throws (on JDK 21 an OutOfMemoryError can escape the unpark of a virtual thread), leaving
     * the getters after it asleep and the completing call (a cancel, whose interrupt of the task then
     * never goes out) thrown out halfway. done() takes every getter under the queue's lock and unparks
     * them all, passing over one that cannot be; a getter enqueues under that lock only if the Future
     * is not done, read after it published the queue, and done() reads the queue after the Future's
     * state changed (volatile both, Dekker), so no getter is missed.
     *
     * A task can be called nested in another one's call on the same thread (an executor that runs it
     * inline in go, such as CallerRunsPolicy or Runnable::run, or a ForkJoinPool worker that helps
     * while its task joins), of the same group or another: one interrupt status then serves both, and
     * the nested task's return must not take away what a cancellation of an enclosing one sent.
     * Invariant: a thread's record (CALLING, a ThreadLocal) names the innermost member it is calling,
     * and each member called nested names the one it found there (outer); the enclosing members stay
     * in their windows for the whole nested call, so their states only move from CALLED towards
     * INTERRUPTED meanwhile. A nested member counts the enclosing ones already INTERRUPTED, then reads
     * the interrupt status; when its task returns it counts those INTERRUPTING or INTERRUPTED. More
     * than before: an enclosing cancellation came during the call; any before and the status set: its
     * interrupt was pending. Either way the run sets the interrupt again, as the nested task may have
     * consumed it, instead of clearing its own; otherwise it clears only its own, as above (an
     * interrupt an enclosing task consumed before the nested call is not set again). The cost for a
     * task not nested is a ThreadLocal get and two plain writes per call; the chain is walked only by
     * nested members (in its depth). A thread's first task allocates its record: without memory for
     * it the task runs untracked (a task nested in it clears its own interrupt as if not nested).
     */

    private static final VarHandle CLAIMED;
    private static final VarHandle TASK_STATE;
    private static final VarHandle GETTERS;
    /** The wake status of a thread waiting in {@code get}: the {@code Future} is done. */
    private static final int COMPLETED = 1;

    /** States of {@link #taskState}: the task has not been called. */
    private static final int NOT_CALLED = 0;
    /** The task is being called by {@link #runner}; a {@code cancel(true)} may interrupt it. */
    private static final int CALLED = 1;
    /** A {@code cancel(true)} is interrupting {@link #runner}. */
    private static final int INTERRUPTING = 2;
    /** A {@code cancel(true)} has interrupted {@link #runner}: the task's run clears it when the task returns. */
    private static final int INTERRUPTED = 3;
    /** The task has returned: nobody interrupts its runner any more. */
    private static final int RETURNED = 4;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CLAIMED = lookup.findVarHandle(TaskMember.class, "claimed", boolean.class);
            TASK_STATE = lookup.findVarHandle(TaskMember.class, "taskState", int.class);
            GETTERS = lookup.findVarHandle(TaskMember.class, "getters", WaitQueue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Per thread, in element 0: the member whose task the thread is calling, the innermost if several are nested;
     * null if none. An {@code Object[]}, a class of the JDK, so that a thread that ran a task keeps no object of
     * the library (which would pin its class loader as long as the thread lives) once the task returned.
     */
    private static final ThreadLocal<Object[]> CALLING = new ThreadLocal<>();

    final TaskGroup<T> group;
    final Callable<? extends T> task;
    final FutureTask<T> future = new Outcome();
    /** Set under the group's lock before the member is published to the executor. */
    TaskRound<T> round;
    /** Set under the group's lock if go took the member back: not a task of the group. */
    boolean rejected;
    /** Set before the group cancels {@link #future}, so the task's throwable is not taken for a user's cancel. */
    volatile boolean cancelledByGroup;
    @SuppressWarnings("unused") // accessed through CLAIMED
    private volatile boolean claimed;
    /** Whether the slot was given back; read and written only by the thread that runs the member. */
    private boolean slotGivenBack;
    /** Whether a cancellation is interrupting, or has interrupted, the thread calling the task; see the constants. */
    @SuppressWarnings("unused") // accessed through TASK_STATE
    private volatile int taskState;
    /** The thread calling the task: written before {@link #taskState} becomes {@link #CALLED}, read after. */
    private Thread runner;
    /**
     * The member whose task this thread was calling when it called this one's (this task runs nested in it:
     * inline in its {@code go}, or run by it as a {@code ForkJoinPool} worker helps); null if none. Written and
     * read by that thread only, while this task is called.
     */
    private TaskMember<?> outer;
    /** Threads waiting in the {@code Future}'s {@code get}; made by the first that has to wait. */
    @SuppressWarnings("unused") // accessed through GETTERS
    private volatile WaitQueue getters;

    TaskMember(TaskGroup<T> group, Callable<? extends T> task) {
        this.group = group;
        this.task = task;
    }

    Future<T> cancelled() {
        future.cancel(false);
        return future;
    }

    /** Gives the member's slot back, once: as its task returns, or as its run ends if the task never ran. */
    void giveSlotBack() {
        if (!slotGivenBack) {
            slotGivenBack = true;
            group.releaseSlot();
        }
    }

    /** Whether the caller is the first to claim this member. */
    boolean claim() {
        return CLAIMED.compareAndSet(this, false, true);
    }

    @Override
    public void run() {
        if (!claim()) {
            return; // go took it back when execute threw: not a task of the group
        }
        try {
            if (group.isCancelled()) {
                future.cancel(false); // cancelled before it could start: it never starts, nobody is interrupted
            } else {
                future.run();
            }
        } finally {
            group.ended(this);
        }
    }

    /** Called by {@link FutureTask#run} unless the {@code Future} was cancelled before. */
    @Override
    public T call() throws Exception {
        Object[] calling = null;
        TaskMember<?> enclosing = null;
        int enclosingInterruptedBefore = 0;
        boolean interruptedBefore = false;
        boolean called = false;
        try {
            calling = calling();
            enclosing = calling == null ? null : (TaskMember<?>) calling[0];
            if (enclosing != null) { // read before the interrupt status: see returned
                enclosingInterruptedBefore = enclosing.cancellationInterrupts(false);
                outer = enclosing;
            }
            Thread self = Thread.currentThread();
            interruptedBefore = self.isInterrupted(); // no cancellation of this task interrupts before CALLED
            runner = self;
            TASK_STATE.setVolatile(this, CALLED);
            if (calling != null) {
                calling[0] = this;
            }
            called = true;
            if (future.isCancelled()) {
                return null; // its canceller may have found it NOT_CALLED, and not interrupted it: it must not run
            }
            return task.call();
        } catch (Throwable t) {
            if (!future.isCancelled() || cancelledByGroup) { // a task whose own Future was cancelled did not fail the group
                group.failed(this, t);
            }
            throw t;
        } finally {
            if (called) {
                if (calling != null) {
                    calling[0] = enclosing;
                }
                returned(enclosing, interruptedBefore, enclosingInterruptedBefore);
            }
        }
    }

    /**
     * This thread's record of the task it calls; null if there is no memory for it (only a thread's first task
     * allocates it): the task then runs, but a task run nested in it cannot tell its interrupts from its own.
     */
    private static Object[] calling() {
        try {
            Object[] record = CALLING.get();
            if (record == null) {
                record = new Object[1];
                CALLING.set(record);
            }
            return record;
        } catch (OutOfMemoryError noMemory) {
            return null;
        }
    }

    /**
     * Ends the window in which a {@code cancel(true)} interrupts this thread. If one did, waits until its
     * interrupt is delivered and clears it, so that it does not reach what the thread runs next, unless the
     * thread was already interrupted when the task was called (that interrupt is the thread's own), or a task
     * this one runs nested in still has an interrupt of its own cancellation to see. Such an interrupt is set
     * again also if this task consumed it: it came while this task ran (after this task read the
     * {@code enclosingInterruptedBefore} tasks it runs nested in that had been interrupted), or it was pending
     * when this task was called.
     */
    private void returned(TaskMember<?> enclosing, boolean interruptedBefore, int enclosingInterruptedBefore) {
        boolean interruptedByOwnCancellation = !TASK_STATE.compareAndSet(this, CALLED, RETURNED);
        if (interruptedByOwnCancellation) {
            while ((int) TASK_STATE.getVolatile(this) == INTERRUPTING) {
                SpinLock.yieldOrSpin(); // the canceller is between its claim and the end of its interrupt
            }
        }
        if (enclosing != null) {
            outer = null; // keeps no task of another group reachable from this one's round
            if (enclosing.cancellationInterrupts(true) > enclosingInterruptedBefore
                    || interruptedBefore && enclosingInterruptedBefore > 0) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (interruptedByOwnCancellation && !interruptedBefore) {
            Thread.interrupted();
        }
    }

    /**
     * How many of this task and the tasks it runs nested in a cancellation has interrupted, counting those it is
     * interrupting if {@code orBeing}; called by a task nested in this one, on the same thread.
     */
    private int cancellationInterrupts(boolean orBeing) {
        int n = 0;
        for (TaskMember<?> m = this; m != null; m = m.outer) {
            int state = (int) TASK_STATE.getVolatile(m);
            if (state == INTERRUPTED || orBeing && state == INTERRUPTING) {
                n++;
            }
        }
        return n;
    }

    /**
     * Interrupts the thread calling the task, if the task is being called: after the {@code Future} is
     * cancelled, so a task called from then on finds it cancelled and does not run.
     */
    private void interruptRunner() {
        if (TASK_STATE.compareAndSet(this, CALLED, INTERRUPTING)) {
            try {
                runner.interrupt();
            } finally {
                TASK_STATE.setVolatile(this, INTERRUPTED);
            }
        }
    }

    /**
     * Waits in {@link #getters} until the {@code Future} is done; returns {@code false} if the deadline passed
     * first.
     */
    private boolean awaitDone(boolean timed, long deadline) throws InterruptedException {
        Interrupts.throwIfInterrupted();
        WaitQueue q = (WaitQueue) GETTERS.getAcquire(this);
        if (q == null) {
            WaitQueue created = new WaitQueue();
            WaitQueue witness = (WaitQueue) GETTERS.compareAndExchange(this, null, created);
            q = witness == null ? created : witness;
        }
        WaitQueue.Waiter w = new WaitQueue.Waiter();
        q.lock.lock();
        try {
            if (future.isDone()) {
                return true;
            }
            q.enqueue(w, false);
        } finally {
            q.lock.unlock();
        }
        int outcome = q.await(w, true, timed, deadline);
        if (outcome != COMPLETED && future.isDone()) {
            // done before done() took this getter: isDone() may have said so already, so the wait succeeded
            // (as FutureTask's get: an interrupt that came meanwhile stays set)
            if (outcome == WaitQueue.INTERRUPTED) {
                Thread.currentThread().interrupt();
            }
            return true;
        }
        if (outcome == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
        return outcome == COMPLETED;
    }

    /**
     * The task's {@code Future}: the task has returned when {@code FutureTask.run} records its outcome, so
     * the slot is given back first, and a done {@code Future} holds no slot. A {@code cancel(true)}
     * interrupts the task's thread itself (FutureTask's own interrupt cannot be told apart from one the
     * thread had before, nor does it say whether it was delivered), so the run clears exactly that one.
     */
    private final class Outcome extends FutureTask<T> {
        Outcome() {
            super(TaskMember.this);
        }

        @Override
        public T get() throws InterruptedException, ExecutionException {
            if (!isDone()) {
                awaitDone(false, 0L);
            }
            return super.get(); // done: returns without waiting
        }

        @Override
        public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            Objects.requireNonNull(unit, "unit");
            if (!isDone() && !awaitDone(true, WaitQueue.deadline(unit.toNanos(timeout)))) {
                throw new TimeoutException();
            }
            return super.get(timeout, unit); // done: returns without waiting
        }

        /** Wakes the threads waiting in {@code get}; one the JDK cannot unpark is lost alone. */
        @Override
        protected void done() {
            // volatile, not acquire: with the getter's publishing CAS and its read of the state, a Dekker pair
            WaitQueue q = (WaitQueue) GETTERS.getVolatile(TaskMember.this);
            if (q == null) {
                return;
            }
            WaitQueue.Waiter woken;
            q.lock.lock();
            try {
                woken = q.take(Integer.MAX_VALUE, COMPLETED);
            } finally {
                q.lock.unlock();
            }
            try {
                WaitQueue.unparkAll(woken);
            } catch (Throwable lost) {
                // unparkAll woke every other getter; the one it could not is lost, and concerns nobody here
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (!super.cancel(false)) {
                return false;
            }
            if (mayInterruptIfRunning) {
                interruptRunner();
            }
            return true;
        }

        @Override
        protected void set(T result) {
            try {
                giveSlotBack();
            } finally {
                super.set(result);
            }
        }

        @Override
        protected void setException(Throwable thrown) {
            try {
                giveSlotBack();
            } finally {
                super.setException(thrown);
            }
        }
    }
}
