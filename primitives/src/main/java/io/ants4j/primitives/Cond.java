package io.ants4j.primitives;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A condition variable over any {@link Lock}: a rendezvous point for threads waiting for, or
 * announcing, a change of some state guarded by that lock. The port of Go's {@code sync.Cond}.
 *
 * <pre>{@code
 * lock.lock();
 * try {
 *     while (!ready) {
 *         cond.await();
 *     }
 *     use(state);
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <p>Compared with {@link java.util.concurrent.locks.Condition}: it works over any lock (ours,
 * {@link ReentrantLock}, a read-write lock's write lock, ...); {@link #signal} wakes the thread
 * that has waited longest (FIFO, like Go's ticket-based {@code notifyList}); {@link #broadcast}
 * wakes exactly the threads waiting at the time of the call, none that start waiting afterwards;
 * and there are no spurious wake-ups: {@code await} returns only after a {@code signal} or
 * {@code broadcast} chose this thread, an interrupt, or a timeout. Still re-check the state in a
 * loop: another thread may have changed it between the wake-up and the re-acquisition of the lock.
 * A thread may call {@code signal} and {@code broadcast} with or without holding the lock.
 *
 * <p>A thread that calls {@code await} must hold the lock once: {@code await} releases one hold
 * and parks, so a second hold would keep the lock from every thread that could signal (a
 * deadlock). Where the hold count is known, a {@link ReentrantLock} or a
 * {@link ReentrantReadWriteLock}'s write lock held more than once, {@code await} refuses with
 * {@link IllegalMonitorStateException} and leaves the holds as they were.
 *
 * <p><b>Wake-ups are never lost.</b> Whether a waiter was chosen by a {@code signal} or gave up
 * (interrupt, timeout) is decided atomically: a waiter that gives up first is skipped and the
 * signal goes to the next one; a waiter chosen first returns normally, with its interrupt status
 * set if it was interrupted too. Either way exactly one waiter consumes each signal that found
 * one.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread before {@code signal} or
 * {@code broadcast} <i>happen-before</i> the return of every {@code await} it wakes; the
 * re-acquisition of the lock adds the lock's own guarantees.
 */
public final class Cond {
    /*
     * Implementation notes.
     *
     * Go's notifyList hands a ticket to a waiter before it unlocks L, so that a notify after the
     * unlock sees it. The equivalent here: await() appends its node to the WaitQueue first and
     * unlocks the user's lock second, so any signal/broadcast that happens after another thread
     * acquires the lock finds the node. If unlocking throws (the caller did not hold the lock),
     * the node is withdrawn; if a signal picked it in that window the signal is passed on to the
     * next waiter, so misuse costs the caller an exception and nobody else a wake-up. An unlock
     * that released the lock and then threw (an error waking a waiter of the lock: see
     * releasedBefore) is followed by a relock, so that the error reaches the caller holding the lock.
     *
     * signal() marks the head SIGNALLED, broadcast() marks every node BROADCAST, both under the
     * queue lock, after a lock-free emptiness check: a waiter that any thread could be obliged to
     * see (it enqueued before releasing the user's lock, and the signaller acquired that lock
     * since) is visible to that read. The SIGNALLED/BROADCAST distinction matters only in the
     * window above, where a broadcast must not be passed on to a waiter that arrived after it.
     */

    private static final int SIGNALLED = 1;
    private static final int BROADCAST = 2;

    private final Lock lock;
    private final WaitQueue queue = new WaitQueue();

    /**
     * Creates a condition variable over {@code lock}.
     *
     * @param lock the lock that guards the state waited for
     * @throws NullPointerException if {@code lock} is null
     */
    public Cond(Lock lock) {
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /**
     * Returns the lock this condition works over (Go's {@code c.L}).
     *
     * @return the lock given to the constructor
     */
    public Lock locker() {
        return lock;
    }

    /**
     * Atomically releases the lock and waits until this thread is signalled or interrupted, then
     * re-acquires the lock before returning or throwing.
     *
     * @throws InterruptedException if the thread is interrupted before being signalled (or was
     *     interrupted on entry); the lock is held again when it is thrown
     * @throws IllegalMonitorStateException (or whatever the lock's {@code unlock} throws) if the
     *     calling thread does not hold the lock, or holds a {@link ReentrantLock} or a
     *     {@link ReentrantReadWriteLock}'s write lock more than once; the thread is then not left
     *     waiting and its holds are unchanged (if passing on a signal it took meanwhile fails, waking
     *     the next waiter, that failure is attached to this exception as suppressed). This library's locks ({@link SpinLock}, {@link Mutex},
     *     {@link RWMutex}'s write lock) record no owner: their {@code unlock} refuses only a lock that
     *     nobody holds, so a thread that awaits while another thread holds one is not detected; its
     *     await releases that hold, as its {@code unlock()} would, and returns holding the lock. What
     *     the {@code unlock} of this library's locks, of a
     *     {@code ReentrantLock} or of a {@code ReentrantReadWriteLock}'s write lock throws after it
     *     released the lock (failing to wake one of its waiters) is thrown with the lock held again
     * @throws OutOfMemoryError (or any other error) if the wait cannot be set up or continued; the
     *     lock is held again and the thread is not left waiting, so a caller's {@code finally} can
     *     restore its state and release the lock. The lock is taken again with its own
     *     {@code lock()}: an {@code OutOfMemoryError} from it is retried until memory is found, but
     *     anything else it throws is thrown as it is, and the lock is then not held (an interrupt
     *     the wait had taken in is set again, and the thread is not left waiting)
     */
    public void await() throws InterruptedException {
        Interrupts.throwIfInterrupted();
        if (await(true, false, 0L) == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
    }

    /**
     * Like {@link #await()}, but gives up once the timeout elapses.
     *
     * @param timeout the maximum time to wait
     * @param unit the unit of {@code timeout}
     * @return {@code true} if signalled, {@code false} if the timeout elapsed first
     * @throws InterruptedException if the thread is interrupted before being signalled
     * @throws IllegalMonitorStateException as {@link #await()}
     * @throws NullPointerException if {@code unit} is null
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = WaitQueue.deadline(unit.toNanos(timeout));
        Interrupts.throwIfInterrupted();
        int outcome = await(true, true, deadline);
        if (outcome == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
        return outcome != WaitQueue.TIMED_OUT;
    }

    /**
     * Like {@link #await()}, but keeps waiting if interrupted; the interrupt status is set again
     * when it returns.
     *
     * @throws IllegalMonitorStateException as {@link #await()}
     */
    public void awaitUninterruptibly() {
        await(false, false, 0L);
    }

    /** Wakes the thread that has waited longest, if any thread is waiting. */
    public void signal() {
        wake(1, SIGNALLED);
    }

    /** Wakes every thread waiting at the time of the call. */
    public void broadcast() {
        wake(Integer.MAX_VALUE, BROADCAST);
    }

    private void wake(int max, int status) {
        if (queue.isEmpty()) {
            return; // nobody to wake: one read, no lock (Go's notifyList fast path)
        }
        WaitQueue.Waiter woken;
        queue.lock.lock();
        try {
            woken = queue.take(max, status);
        } finally {
            queue.lock.unlock();
        }
        WaitQueue.unparkAll(woken);
    }

    /** Returns the wake status, {@link WaitQueue#TIMED_OUT} or {@link WaitQueue#INTERRUPTED}. */
    private int await(boolean interruptible, boolean timed, long deadline) {
        int holds = lock instanceof ReentrantLock r ? r.getHoldCount()
                : lock instanceof ReentrantReadWriteLock.WriteLock w ? w.getHoldCount() : 1;
        if (holds > 1) {
            String what = lock instanceof ReentrantLock ? "a ReentrantLock" : "a read-write lock's write lock";
            throw new IllegalMonitorStateException(
                    "Cond.await would release one of " + holds + " holds of " + what + " and deadlock");
        }
        WaitQueue.Waiter w = new WaitQueue.Waiter();
        queue.lock.lock();
        try {
            queue.enqueue(w, false);
        } finally {
            queue.lock.unlock();
        }
        try {
            lock.unlock();
        } catch (RuntimeException | Error e) {
            boolean released = releasedBefore(e, holds);
            try {
                leaveAfter(e, w); // first: a relock that throws must leave no node to take a signal
            } finally {
                if (released) {
                    relock();
                }
            }
            throw e;
        }
        int outcome;
        try {
            outcome = queue.await(w, interruptible, timed, deadline);
        } catch (Throwable t) { // e.g. no memory to park a virtual thread: leave, pass a signal on, relock
            try {
                leaveAfter(t, w);
            } finally {
                relock();
            }
            throw t;
        }
        try {
            relock();
        } catch (Throwable t) {
            if (outcome == WaitQueue.INTERRUPTED) { // the wait consumed it: the relock's throwable must not lose it
                Thread.currentThread().interrupt();
            }
            throw t;
        }
        return outcome;
    }

    /**
     * Whether the lock's {@code unlock()}, which threw {@code thrown}, had released the lock before it threw. The
     * JDK's {@code ReentrantLock} and {@code ReentrantReadWriteLock}'s write lock say so themselves: held once
     * ({@code holds}, read before the unlock) and no longer. Ours throw {@link IllegalMonitorStateException}
     * before they release, on misuse, and anything else only after, from waking a waiter (on JDK 21 an
     * {@code OutOfMemoryError} can escape the unpark of a virtual thread; so can it from the JDK's locks). Of
     * any other lock (a JDK read lock too) it cannot be known: it is taken as still held, as a misused lock
     * would be.
     */
    private boolean releasedBefore(Throwable thrown, int holds) {
        if (lock instanceof ReentrantLock r) {
            return holds == 1 && !r.isHeldByCurrentThread();
        }
        if (lock instanceof ReentrantReadWriteLock.WriteLock w) {
            return holds == 1 && !w.isHeldByCurrentThread();
        }
        boolean ours = lock instanceof Mutex || lock instanceof SpinLock || lock instanceof RWMutex.View;
        return ours && !(thrown instanceof IllegalMonitorStateException);
    }

    /**
     * Takes the lock again after a wait. The caller must hold it whatever happens (its {@code finally} will
     * release it), so an {@link OutOfMemoryError} from the lock (a waiter node it could not allocate) is retried
     * until memory is found, as {@code AbstractQueuedSynchronizer}'s conditions retry.
     */
    private void relock() {
        for (;;) {
            try {
                lock.lock();
                return;
            } catch (OutOfMemoryError e) {
                SpinLock.yieldOrSpin();
            }
        }
    }

    /**
     * Leaves the queue after a wait that failed with {@code failure}, which the caller throws: what passing on a
     * signal the wait took throws (waking the next waiter) is attached to it as suppressed, not thrown instead.
     */
    private void leaveAfter(Throwable failure, WaitQueue.Waiter w) {
        try {
            leaveWithoutWaiting(w);
        } catch (Throwable passOnFailure) {
            try {
                failure.addSuppressed(passOnFailure);
            } catch (Throwable noMemory) {
                // the failure is thrown all the same
            }
        }
    }

    private void leaveWithoutWaiting(WaitQueue.Waiter w) {
        boolean withdrawn;
        queue.lock.lock();
        try {
            withdrawn = queue.withdraw(w);
        } finally {
            queue.lock.unlock();
        }
        if (!withdrawn && w.status() == SIGNALLED) {
            signal();
        }
    }

    /**
     * Returns a string identifying this condition and its lock.
     *
     * @return e.g. {@code "Cond@4e25154f[lock=SpinLock@70dea4e[unlocked]]"}
     */
    @Override
    public String toString() {
        return super.toString() + "[lock=" + lock + "]";
    }
}
