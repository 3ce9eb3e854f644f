package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A non-reentrant mutual-exclusion lock that spins briefly and then sleeps: the port of Go's
 * {@code sync.Mutex}. Use it where a {@link SpinLock} would burn the processor its holder needs:
 * critical sections longer than a park/unpark round trip, more runnable threads than processors,
 * and virtual threads (it parks with {@link java.util.concurrent.locks.LockSupport}, so it never
 * pins a carrier thread).
 *
 * <p>The lock has two modes. In <i>normal mode</i> waiters queue in FIFO order, but a woken
 * waiter competes for the lock with threads that just arrived, and those usually win (they are
 * already running); a waiter that loses is queued again at the front. A thread that finds the
 * lock held spins a few rounds first, only while that can pay: on a multiprocessor, with the lock
 * held and the lock in normal mode. Once a waiter has waited longer than 1 ms and is beaten again,
 * the lock switches to <i>starvation mode</i>: {@link #unlock} hands ownership directly to the
 * waiter at the head of the queue, and arriving threads neither take the lock (even when it
 * looks free, and {@link #tryLock()} fails) nor spin; they queue at the tail. The lock returns to
 * normal mode when the waiter that receives it is the last one, or has waited less than 1 ms.
 * Normal mode is much faster, since a thread can take the lock several times in a row while
 * others sleep; starvation mode bounds the wait of the thread at the head to one more holder.
 *
 * <p>The lock is not owned: like Go's, it may be unlocked by a thread other than the one that
 * locked it. It is not reentrant: a thread that locks a {@code Mutex} it already holds waits
 * forever. {@link #unlock} of an unlocked {@code Mutex} throws
 * {@link IllegalMonitorStateException} ({@code "unlock of unlocked mutex"}) and changes nothing.
 *
 * <p>A thread whose {@link #lockInterruptibly} is interrupted, or whose
 * {@link #tryLock(long, TimeUnit)} times out, leaves the queue without taking a wake-up meant
 * for another: if {@code unlock} had already chosen it, the wake-up goes to the next waiter, and
 * if ownership had already been handed to it, it keeps the lock (the call then returns
 * normally, with the interrupt status set again, or returns {@code true}). An {@link Error}
 * thrown while a thread waits (no memory to park a virtual thread, for instance) passes on
 * whatever was given to it the same way.
 *
 * <p>If the JDK cannot unpark a waiter that {@code unlock} chose (a virtual thread whose scheduler refuses it; on
 * JDK 21 an {@code OutOfMemoryError}), {@code unlock} throws that after the lock is released, and the next
 * waiter is woken in its place, however many cannot be. In starvation mode, though, the lock was handed to that
 * waiter and stays its own (a thread whose unpark threw may still run: the scheduler may have queued it), so the
 * lock is not released until that thread runs and unlocks it.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread before {@link #unlock()}
 * <i>happen-before</i> actions after a later successful {@link #lock()}, {@link #tryLock()},
 * {@link #tryLock(long, TimeUnit)} or {@link #lockInterruptibly()} in any thread.
 *
 * <p>{@link #newCondition()} returns a {@link Condition} built on {@link Cond}: FIFO wake-ups and
 * no spurious wake-ups.
 *
 * @see SpinLock
 * @see RWMutex
 */
public final class Mutex implements Lock {
    /*
     * Implementation notes (Go's internal/sync/mutex.go).
     *
     * One int word: LOCKED, WOKEN and STARVING bits and, above them, the number of waiters: threads
     * that counted themselves in and have not been woken yet. tryLock(), and so the first attempt
     * of lock(), is one read and one CAS that sets LOCKED whenever neither LOCKED nor STARVING is
     * set; the CAS is retried as long as the word still shows the lock free, because waiters change
     * the word without holding the lock (counting in, leaving, WOKEN) and Lock.tryLock must take a
     * free lock (Go's TryLock makes one attempt and may fail then). unlock() is one read and one CAS
     * that clears LOCKED when STARVING is not set (and then wakes a waiter if one is needed);
     * everything else is acquire() and unlockStarving(), which follow Go's lockSlow/unlockSlow.
     * Go's fast paths are a CAS from 0 and an atomic add: under contention the word almost always
     * counts waiters, so a CAS from 0 would send nearly every acquisition and release down the
     * slow path, with a failed CAS and a second one each (docs/benchmark-notes.md measures the
     * cost), and an add cannot leave an unlocked word unchanged when unlock() must throw.
     *
     * WOKEN means a thread is awake and about to try the lock (a spinner, or a waiter unlock()
     * has just woken), so unlock() need not wake another; the thread that set it, or was woken
     * with it, is the only one that clears it ("awoke"). STARVING is set by a woken waiter that
     * has waited over STARVATION_THRESHOLD_NANOS and found the lock held; while it is set,
     * newcomers add themselves to the waiters instead of locking, and unlock() hands the lock to
     * the head of the queue by clearing LOCKED: the woken waiter sets LOCKED and removes itself
     * from the count in one CAS, and clears STARVING if it is the last waiter or has not starved.
     * So STARVING implies at least one waiter.
     *
     * The queue is a Sema. Go's runtime semaphore serializes in its own lock, and so does ours,
     * with one addition that makes giving up possible: whatever pays for a wake-up happens in the
     * Sema's critical section together with the grant. An unlock that wakes a waiter decrements the
     * count, sets WOKEN and grants the head (or stores a permit for a thread still on its way to
     * the queue) in one critical section; a hand-off clears LOCKED and grants in one; a waiter that
     * times out or is interrupted withdraws its node and decrements the count in one. So a node
     * still waiting in that critical section has no grant in flight: it leaves, and the count stays
     * equal to the queued nodes plus the threads on their way to the queue, less the stored
     * permits, plus a handed-off waiter, which stays counted until its own CAS (so no leaver can
     * take the count to zero under it). If its node was granted instead, the wake-up is its own: a
     * hand-off makes it the owner, so it keeps the lock; a normal wake-up gave it WOKEN, which it
     * clears (waking the next waiter itself if the lock is free by then, since the unlock that saw
     * WOKEN woke nobody). A leaver that was the last waiter clears STARVING, so that no hand-off
     * can go to nobody. unlock() clears LOCKED with a CAS on a word without STARVING, and takes the
     * Sema's lock first when STARVING is set, so no hand-off is ever in flight outside it.
     *
     * A node is allocated before the CAS that counts its thread in (and kept if that CAS fails),
     * so an OutOfMemoryError there leaves the word as it was; a thread that held WOKEN clears it
     * first. A waiter woken in
     * normal mode that loses allocates a new node and queues at the front (Go's lifo), keeping
     * the start of its wait for the starvation threshold.
     *
     * Spinning: at most ACTIVE_SPIN rounds of ACTIVE_SPIN_COUNT Thread.onSpinWait() (Go's
     * procyield(30)), only on a multiprocessor and while the lock is held in normal mode; Go also
     * requires an idle processor and an empty run queue, which Java cannot see.
     *
     * Happens-before: every acquisition is a CAS of the word (a volatile read-modify-write) that
     * reads the value the last release wrote with a CAS; a handed-off waiter also reads its grant
     * with acquire after the releasing CAS.
     *
     * The first run in the JVM of a VarHandle call site links it, which allocates. This class's own
     * call sites all run in the first tryLock, before it changes anything; what follows a change
     * (the queue's lock, its grant to a parked waiter) is linked by WaitQueue's and SpinLock's
     * class initialization, so an unlock on an exhausted heap still wakes its waiter.
     */

    private static final int LOCKED = 1;
    private static final int WOKEN = 1 << 1;
    private static final int STARVING = 1 << 2;
    private static final int WAITER_SHIFT = 3;
    private static final int WAITER = 1 << WAITER_SHIFT;

    /** Go's starvationThresholdNs: a waiter that waited longer turns starvation mode on. */
    static final long STARVATION_THRESHOLD_NANOS = 1_000_000L;
    /** Go's active_spin rounds and active_spin_cnt spin-waits a round. */
    private static final int ACTIVE_SPIN = 4;
    private static final int ACTIVE_SPIN_COUNT = 30;
    private static final boolean MULTIPROCESSOR = Runtime.getRuntime().availableProcessors() > 1;

    /** Outcome of {@link #acquire}, besides {@link WaitQueue#TIMED_OUT} and {@link WaitQueue#INTERRUPTED}. */
    private static final int ACQUIRED = 1;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Mutex.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    private final Sema sema = new Sema();

    /** Creates an unlocked mutex. */
    public Mutex() {
    }

    /**
     * Returns whether the lock is held (or being handed to a waiter). The answer may be stale by
     * the time it is used: meant for monitoring and assertions, not for synchronization.
     *
     * @return {@code true} if the lock is held
     */
    public boolean isLocked() {
        return (state() & (LOCKED | STARVING)) != 0;
    }

    /**
     * Whether the lock is in starvation mode: held or being handed to the longest waiter, so that
     * {@link #tryLock()} fails until the mode ends. A snapshot, for {@link RWMutex}'s write tryLock.
     */
    boolean isStarving() {
        return (state() & STARVING) != 0;
    }

    /** Acquires the lock, waiting as long as it takes. Not reentrant. */
    @Override
    public void lock() {
        if (!tryLock()) {
            acquire(false, false, 0L);
        }
    }

    /**
     * Acquires the lock unless the current thread is interrupted. The interrupt status is
     * checked before the first attempt too. If the lock was handed to this thread before it could
     * stop waiting, it returns normally with its interrupt status set.
     *
     * @throws InterruptedException if the current thread is interrupted before or while waiting
     */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        Interrupts.throwIfInterrupted();
        if (!tryLock() && acquire(true, false, 0L) == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
    }

    /**
     * Acquires the lock only if it is free at the time of the call and not being handed to a
     * waiter (starvation mode). Unlike Go's {@code TryLock}, it does not fail because waiters
     * arrive, leave or are woken meanwhile: a free lock is taken.
     *
     * @return {@code true} if the lock was acquired
     */
    @Override
    public boolean tryLock() {
        for (;;) {
            int s = state();
            if ((s & (LOCKED | STARVING)) != 0) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s | LOCKED)) {
                return true;
            }
            // The word changed, but the lock may still be free: a waiter came, left or was woken.
        }
    }

    /**
     * Acquires the lock if it becomes free within the given waiting time and the current thread
     * is not interrupted. A timeout of zero or less makes a single attempt, as {@link #tryLock()}.
     *
     * @param time the maximum time to wait
     * @param unit the time unit of {@code time}
     * @return {@code true} if the lock was acquired, {@code false} if the time elapsed first
     * @throws InterruptedException if the current thread is interrupted before or while waiting
     * @throws NullPointerException if {@code unit} is null
     */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        Interrupts.throwIfInterrupted();
        if (tryLock()) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        int outcome = acquire(true, true, WaitQueue.deadline(nanos));
        if (outcome == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
        return outcome == ACQUIRED;
    }

    /**
     * Releases the lock, waking a waiter if there is one and nobody else is about to take the
     * lock, or in starvation mode handing the lock to the longest waiter. Any thread may release
     * it (the lock has no owner).
     *
     * @throws IllegalMonitorStateException if the lock is not held; the lock is then unchanged
     */
    @Override
    public void unlock() {
        for (;;) {
            int s = state();
            if ((s & LOCKED) == 0) {
                throw unlockOfUnlocked();
            }
            if ((s & STARVING) != 0) {
                unlockStarving();
                return;
            }
            if (STATE.compareAndSet(this, s, s - LOCKED)) {
                wake(s - LOCKED);
                return;
            }
        }
    }

    /**
     * Returns a new {@link Condition} bound to this lock, implemented by {@link Cond}: waiters
     * wake in FIFO order and never spuriously. Signalling does not require holding the lock;
     * awaiting does (a thread that does not hold it is not detected: the lock has no owner, see
     * {@link Cond#await()}).
     *
     * @return a new condition for this lock
     */
    @Override
    public Condition newCondition() {
        return new CondCondition(new Cond(this));
    }

    /**
     * Returns a string identifying this lock and its state.
     *
     * @return e.g. {@code "Mutex@1b6d3586[locked, starving, waiters=2]"}
     */
    @Override
    public String toString() {
        int s = state();
        return super.toString() + "[" + ((s & LOCKED) != 0 ? "locked" : "unlocked")
                + ((s & STARVING) != 0 ? ", starving" : "") + ", waiters=" + (s >>> WAITER_SHIFT) + "]";
    }

    private int state() {
        return (int) STATE.getVolatile(this);
    }

    /** Go's lockSlow; returns {@link #ACQUIRED}, {@link WaitQueue#TIMED_OUT} or {@link WaitQueue#INTERRUPTED}. */
    private int acquire(boolean interruptible, boolean timed, long deadline) {
        WaitQueue.Waiter node = null; // allocated, not yet queued
        boolean waited = false;
        long waitStart = 0L;
        boolean starving = false;
        boolean awoke = false;
        int iter = 0;
        int old = state();
        for (;;) {
            if ((old & (LOCKED | STARVING)) == LOCKED && MULTIPROCESSOR && iter < ACTIVE_SPIN) {
                // Spin, and take WOKEN so that unlock() wakes nobody while this thread can take the lock.
                if (!awoke && (old & WOKEN) == 0 && (old >>> WAITER_SHIFT) != 0
                        && STATE.compareAndSet(this, old, old | WOKEN)) {
                    awoke = true;
                }
                for (int i = 0; i < ACTIVE_SPIN_COUNT; i++) {
                    Thread.onSpinWait();
                }
                iter++;
                old = state();
                continue;
            }
            boolean queue = (old & (LOCKED | STARVING)) != 0;
            if (queue) {
                boolean ready = false;
                try {
                    if (!timed || deadline - System.nanoTime() > 0L) {
                        if (node == null) {
                            node = new WaitQueue.Waiter(); // before the CAS that counts this thread in
                        }
                        ready = true;
                    }
                } finally {
                    if (!ready && awoke) {
                        resign();
                    }
                }
                if (!ready) {
                    return WaitQueue.TIMED_OUT;
                }
            }
            int next = old;
            if ((old & STARVING) == 0) {
                next |= LOCKED;
            }
            if (queue) {
                next += WAITER;
            }
            if (starving && (old & LOCKED) != 0) {
                next |= STARVING;
            }
            if (awoke) {
                next &= ~WOKEN;
            }
            if (!STATE.compareAndSet(this, old, next)) {
                old = state();
                continue;
            }
            if (!queue) {
                return ACQUIRED;
            }
            boolean lifo = waited;
            if (!waited) {
                waited = true;
                waitStart = System.nanoTime();
            }
            WaitQueue.Waiter queued = node;
            node = null;
            int parked = sleep(queued, lifo, interruptible, timed, deadline);
            if (parked != Sema.GRANTED && withdraw(queued)) {
                return parked;
            }
            // Woken, possibly as this thread was giving up: the wake-up is taken, not lost.
            starving = starving || System.nanoTime() - waitStart > STARVATION_THRESHOLD_NANOS;
            if ((state() & STARVING) != 0) {
                takeHandOff(starving);
                if (parked == WaitQueue.INTERRUPTED) {
                    Thread.currentThread().interrupt();
                }
                return ACQUIRED;
            }
            if (parked != Sema.GRANTED) {
                try {
                    resign();
                } catch (Throwable wakeUpFailed) { // park cleared the interrupt this wait ends on: keep it
                    if (parked == WaitQueue.INTERRUPTED) {
                        Thread.currentThread().interrupt();
                    }
                    throw wakeUpFailed;
                }
                return parked;
            }
            awoke = true;
            iter = 0;
            old = state();
        }
    }

    /**
     * Queues {@code node} (or takes a stored permit) and parks until it is granted, the deadline
     * passes or, when {@code interruptible}, the thread is interrupted. An {@link Error} thrown
     * while parked leaves the queue first, passing on whatever it was granted.
     *
     * @return {@link Sema#GRANTED}, {@link WaitQueue#TIMED_OUT} or {@link WaitQueue#INTERRUPTED}
     */
    private int sleep(WaitQueue.Waiter node, boolean lifo, boolean interruptible, boolean timed, long deadline) {
        WaitQueue q = sema.queue;
        boolean permit;
        q.lock.lock();
        try {
            permit = sema.takeOrEnqueue(node, lifo);
        } finally {
            q.lock.unlock();
        }
        if (permit) {
            return Sema.GRANTED;
        }
        try {
            return WaitQueue.park(node, interruptible, timed, deadline);
        } catch (Throwable t) {
            if (!withdraw(node)) {
                if ((state() & STARVING) != 0) {
                    takeHandOff(true);
                    unlock();
                } else {
                    resign();
                }
            }
            throw t;
        }
    }

    /**
     * Takes {@code node} off the queue and its thread out of the waiter count, unless it was
     * granted first; a last waiter ends starvation mode.
     *
     * @return {@code true} if it left; {@code false} if it was granted
     */
    private boolean withdraw(WaitQueue.Waiter node) {
        WaitQueue q = sema.queue;
        q.lock.lock();
        try {
            if (!q.withdraw(node)) {
                return false;
            }
            for (;;) {
                int s = state();
                int next = s - WAITER;
                if ((next >>> WAITER_SHIFT) == 0) {
                    next &= ~STARVING;
                }
                if (STATE.compareAndSet(this, s, next)) {
                    return true;
                }
            }
        } finally {
            q.lock.unlock();
        }
    }

    /**
     * Completes a hand-off: locks, leaves the waiter count and ends starvation mode unless this
     * thread starved and others still wait.
     */
    private void takeHandOff(boolean starving) {
        for (;;) {
            int s = state();
            int next = s + LOCKED - WAITER;
            if (!starving || (s >>> WAITER_SHIFT) == 1) {
                next &= ~STARVING;
            }
            if (STATE.compareAndSet(this, s, next)) {
                return;
            }
        }
    }

    /** Gives up WOKEN without locking, and wakes a waiter if the lock is free by now. */
    private void resign() {
        unparkWoken(resignGranting());
    }

    /** Gives up WOKEN without locking; returns the waiter it granted if the lock is free by now, else null. */
    private WaitQueue.Waiter resignGranting() {
        int s;
        do {
            s = state();
        } while (!STATE.compareAndSet(this, s, s & ~WOKEN));
        return wakeGranting(s & ~WOKEN);
    }

    /** Unlocks in starvation mode: clears LOCKED and grants the head in one critical section. */
    private void unlockStarving() {
        WaitQueue q = sema.queue;
        WaitQueue.Waiter woken = null;
        boolean unlocked = false;
        boolean handedOff = false;
        q.lock.lock();
        try {
            for (int s = state(); (s & LOCKED) != 0; s = state()) {
                if (STATE.compareAndSet(this, s, s - LOCKED)) {
                    unlocked = true;
                    // STARVING may have ended while this thread took the lock: its last waiter left.
                    handedOff = (s & STARVING) != 0;
                    woken = handedOff ? sema.release(1) : wakeLocked();
                    break;
                }
            }
        } finally {
            q.lock.unlock();
        }
        if (!unlocked) {
            throw unlockOfUnlocked();
        }
        if (handedOff) {
            WaitQueue.unparkAll(woken);
        } else {
            unparkWoken(woken);
        }
    }

    /** Wakes a waiter if there is one and nobody is awake, holding, or being handed the lock. */
    private void wake(int s) {
        unparkWoken(wakeGranting(s));
    }

    /** Grants a waiter the wake-up if {@code s} needs one (see {@link #wake}); returns it, or null. */
    private WaitQueue.Waiter wakeGranting(int s) {
        if (!needsWake(s)) {
            return null;
        }
        WaitQueue q = sema.queue;
        q.lock.lock();
        try {
            return wakeLocked();
        } finally {
            q.lock.unlock();
        }
    }

    /**
     * Unparks the waiter {@link #wakeLocked} granted. If that throws, the thread may never run to clear its WOKEN:
     * WOKEN is taken back (a hint only, so harmless if that thread runs after all), so that a later unlock, or
     * this call if the lock is free, wakes the next waiter, in a loop however many waiters cannot be unparked;
     * then the first throwable propagates.
     */
    private void unparkWoken(WaitQueue.Waiter woken) {
        Throwable first = null;
        while (woken != null) {
            try {
                WaitQueue.unparkAll(woken);
                woken = null;
            } catch (Throwable lost) {
                if (first == null) {
                    first = lost;
                }
                woken = resignGranting();
            }
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw (RuntimeException) first;
        }
    }

    /** Takes the right to wake a waiter (count down, WOKEN) and grants it. Caller holds the Sema's lock. */
    private WaitQueue.Waiter wakeLocked() {
        for (int s = state(); needsWake(s); s = state()) {
            if (STATE.compareAndSet(this, s, (s - WAITER) | WOKEN)) {
                return sema.release(1);
            }
        }
        return null;
    }

    private static boolean needsWake(int s) {
        return (s >>> WAITER_SHIFT) != 0 && (s & (LOCKED | WOKEN | STARVING)) == 0;
    }

    private static IllegalMonitorStateException unlockOfUnlocked() {
        return new IllegalMonitorStateException("unlock of unlocked mutex");
    }
}
