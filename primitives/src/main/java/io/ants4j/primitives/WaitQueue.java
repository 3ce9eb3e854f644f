package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A FIFO list of parked threads: the parking part shared by {@link Cond}, {@link WaitGroup} and
 * {@link Sema} (for {@link Mutex} and {@link RWMutex}), in the role of the Go runtime's
 * {@code notifyList} and semaphore root.
 *
 * <p>Implementation notes. A {@link Waiter} is a node of a doubly linked list guarded by
 * {@link #lock} (a {@link SpinLock}: every critical section is a few pointer writes). Whether a
 * waiter was woken is decided under that lock and only there: a waker unlinks the node and sets
 * its status; a waiter that gives up (interrupt, timeout) calls {@link #withdraw} and learns
 * whether it got out before a waker chose it. So a wake-up is either delivered to the waiter it
 * chose or never made; it cannot vanish into a thread that stopped waiting. The status is written
 * with release semantics before the unpark and read with acquire semantics by the parked thread,
 * which gives the waker's prior actions a happens-before edge to the waiter's return. Unparking
 * happens after the lock is released, so a woken thread never spins on the lock its waker holds.
 *
 * <p>The owners change their own state and then queue, grant or withdraw here, under {@link #lock};
 * none of that may fail halfway. The first run in the JVM of a {@code VarHandle} call site links
 * it, which allocates: were the first grant made on an exhausted heap, its {@code OutOfMemoryError}
 * would come after the owner had counted the waiter out, and the waiter would never be woken. So
 * class initialization runs every path of the queue and of its lock once, on a throwaway queue
 * ({@link #linkStateChanges}), before any owner has state; if that runs out of memory, the first
 * queue's constructor does ({@link CallSiteLinking}).
 */
final class WaitQueue {
    /** Status of a waiter nobody has woken yet. Every wake status is positive. */
    static final int WAITING = 0;
    /** Outcome of {@link #park}: the deadline passed before a wake-up. */
    static final int TIMED_OUT = -1;
    /** Outcome of {@link #park}: the thread was interrupted before a wake-up (flag cleared). */
    static final int INTERRUPTED = -2;

    /** Guards the list and whatever state its owner keeps alongside it. */
    final SpinLock lock = new SpinLock();

    /** Written under {@link #lock} with release semantics, so {@link #isEmpty} may read it without. */
    private Waiter head;
    private Waiter tail;

    private static final VarHandle HEAD;

    /** Links the call sites before any queue has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(WaitQueue.class, "head", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LINKING.attempt();
    }

    WaitQueue() {
        LINKING.ensure();
    }

    /**
     * Runs once, on a throwaway queue whose waiters are the calling thread, every path that changes a
     * queue: queueing at the tail and at the head, withdrawing, granting, the lock's lock and unlock,
     * and a waiter's reads of its status. The first run of each {@code VarHandle} call site in the
     * JVM links it, which allocates; here an {@code OutOfMemoryError} comes before any owner has
     * state, not in the middle of an owner's grant.
     */
    private static void linkStateChanges() {
        WaitQueue q = new WaitQueue();
        Waiter granted = new Waiter();
        Waiter withdrawn = new Waiter();
        q.lock.lock();
        try {
            q.enqueue(granted, false);
            q.enqueue(withdrawn, true);
            q.withdraw(withdrawn);
            unparkAll(q.take(1, 1)); // the calling thread's own node: not unparked
        } finally {
            q.lock.unlock();
        }
        q.isEmpty();
        park(granted, false, false, 0L); // woken already: returns at once
    }

    /**
     * A parked thread's node; links are guarded by the queue's lock. Owners that keep something
     * per waiter (a {@link WeightedSemaphore}'s request) extend it.
     */
    static class Waiter {
        private static final VarHandle STATUS;

        static {
            try {
                STATUS = MethodHandles.lookup().findVarHandle(Waiter.class, "status", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Thread thread = Thread.currentThread();
        @SuppressWarnings("unused") // accessed through STATUS
        private volatile int status;
        Waiter prev;
        Waiter next;

        int status() {
            return (int) STATUS.getAcquire(this);
        }
    }

    /**
     * The {@link System#nanoTime()} deadline of a wait of {@code nanos}. A non-positive timeout
     * counts as zero, so {@code deadline - System.nanoTime()} is the timeout less the time
     * elapsed and cannot overflow, however negative the timeout (the remainder of
     * {@code Long.MIN_VALUE} would wrap to nearly {@code Long.MAX_VALUE}).
     */
    static long deadline(long nanos) {
        return System.nanoTime() + Math.max(nanos, 0L);
    }

    /**
     * Whether no thread waits, read without the lock: the fast path of a wake-up that finds
     * nobody. A waiter that enqueued before releasing some lock is seen by any thread that
     * acquires that lock afterwards; for any other thread the answer may be stale.
     */
    boolean isEmpty() {
        return HEAD.getAcquire(this) == null;
    }

    /**
     * Links {@code w}, a new node its owner allocated before taking {@link #lock} (so that no
     * allocation can fail inside the owner's critical section), at the tail or, when
     * {@code first}, at the head. Caller holds {@link #lock}.
     */
    void enqueue(Waiter w, boolean first) {
        if (first && head != null) {
            w.next = head;
            head.prev = w;
            HEAD.setRelease(this, w);
            return;
        }
        w.prev = tail;
        if (tail == null) {
            HEAD.setRelease(this, w);
        } else {
            tail.next = w;
        }
        tail = w;
    }

    /** The longest waiting waiter, whose {@code next} links lead to the others; caller holds {@link #lock}. */
    Waiter first() {
        return head;
    }

    /**
     * Takes up to {@code max} waiters from the head, marks each with {@code status} and returns
     * them as a chain linked through {@code next}, for {@link #unparkAll} once the lock is
     * released; {@code null} if the list is empty. Caller holds {@link #lock}.
     */
    Waiter take(int max, int status) {
        Waiter first = head;
        Waiter last = null;
        Waiter rest = first;
        for (int n = 0; n < max && rest != null; n++) {
            last = rest;
            rest = last.next;
            Waiter.STATUS.setRelease(last, status);
        }
        if (last == null) {
            return null;
        }
        last.next = null;
        HEAD.setRelease(this, rest);
        if (rest == null) {
            tail = null;
        } else {
            rest.prev = null;
        }
        return first;
    }

    /**
     * Unparks every waiter of a chain returned by {@link #take}, except the calling thread's own
     * (a waiter that took itself is not parked, and a permit left on it would cut its next park
     * short). Called without the lock. If an unpark throws, the walk still unparks the others and
     * then throws the first throwable: on JDK 21 unparking a virtual thread allocates its scheduling
     * task, and an OutOfMemoryError escapes (later JDKs retry until the task is scheduled).
     */
    static void unparkAll(Waiter chain) {
        Thread self = Thread.currentThread();
        Throwable first = null;
        while (chain != null) {
            Waiter next = chain.next; // read before the unpark: the node is the waiter's again after it
            if (chain.thread != self) {
                try {
                    LockSupport.unpark(chain.thread);
                } catch (RuntimeException | Error e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
            chain = next;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw (RuntimeException) first;
        }
    }

    /**
     * Removes a waiter that stops waiting; called at most once a waiter, holding {@link #lock}.
     * {@link #await} does it for timeouts and interrupts; owners call it directly when a wait
     * ends before parking, or after {@link #park} when they keep state of their own in step.
     *
     * @return {@code true} if it was still waiting and is now removed; {@code false} if a waker
     *     had already taken it (its status tells how)
     */
    boolean withdraw(Waiter w) {
        if (w.status() != WAITING) {
            return false;
        }
        if (w.prev == null) {
            HEAD.setRelease(this, w.next);
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            tail = w.prev;
        } else {
            w.next.prev = w.prev;
        }
        return true;
    }

    /**
     * Parks the current thread until {@code w} is woken, the deadline passes (when
     * {@code timed}) or, when {@code interruptible}, the thread is interrupted; on a timeout or
     * an interrupt it withdraws {@code w}. If a waker took {@code w} before it could withdraw,
     * the wait counts as woken: the wake-up is kept, not lost, and an interrupt that came too
     * late is reported by restoring the interrupt status. An uninterruptible wait keeps waiting
     * through interrupts and also restores the interrupt status. Called without the lock.
     *
     * @return the wake status (positive), {@link #TIMED_OUT}, or {@link #INTERRUPTED} (with the
     *     interrupt status cleared)
     */
    int await(Waiter w, boolean interruptible, boolean timed, long deadline) {
        int outcome = park(w, interruptible, timed, deadline);
        if (outcome > 0) {
            return outcome;
        }
        boolean withdrawn;
        lock.lock();
        try {
            withdrawn = withdraw(w);
        } finally {
            lock.unlock();
        }
        if (withdrawn) {
            return outcome;
        }
        if (outcome == INTERRUPTED) {
            Thread.currentThread().interrupt();
        }
        return w.status();
    }

    /**
     * Parks the current thread until {@code w} is woken, the deadline passes (when {@code timed})
     * or, when {@code interruptible}, the thread is interrupted. Unlike {@link #await} it leaves
     * {@code w} queued on a timeout or an interrupt: for owners that withdraw it together with
     * state of their own. An uninterruptible wait restores the interrupt status. Called without
     * the lock.
     *
     * @return the wake status (positive), {@link #TIMED_OUT}, or {@link #INTERRUPTED} (with the
     *     interrupt status cleared)
     */
    static int park(Waiter w, boolean interruptible, boolean timed, long deadline) {
        boolean interrupted = false;
        int outcome;
        for (;;) {
            int status = w.status();
            if (status != WAITING) {
                outcome = status;
                break;
            }
            if (timed) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0L) {
                    outcome = TIMED_OUT;
                    break;
                }
                LockSupport.parkNanos(w, remaining);
            } else {
                LockSupport.park(w);
            }
            if (Thread.interrupted()) {
                if (interruptible) {
                    outcome = INTERRUPTED;
                    break;
                }
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return outcome;
    }
}
