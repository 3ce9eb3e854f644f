package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * A non-reentrant mutual-exclusion lock that spins instead of queueing: a thread that finds the
 * lock held yields its processor between attempts with exponential backoff. This is the spin lock
 * of Go's ants pool ({@code pkg/sync.spinLock}), suited to critical sections of a few
 * instructions that are held far shorter than a park/unpark round trip.
 *
 * <p>A virtual thread that still finds the lock held once its backoff has reached the cap (or 16
 * yields, if the cap is larger) sleeps for some microseconds between attempts instead of yielding,
 * so that a holder that was unmounted inside its critical section gets a carrier again; spinning
 * virtual threads never starve it. An
 * interrupt that comes while {@link #lock()} waits is kept: the thread returns with its interrupt
 * status set.
 *
 * <p>The lock is not owned: like Go's {@code sync.Mutex}, it may be unlocked by a thread other
 * than the one that locked it. It is not reentrant: a thread that locks a {@code SpinLock} it
 * already holds spins forever. It is not fair: a releasing thread may take the lock again before
 * a spinning one notices it is free.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread before {@link #unlock()}
 * <i>happen-before</i> actions after a later successful {@link #lock()}, {@link #tryLock()},
 * {@link #tryLock(long, TimeUnit)} or {@link #lockInterruptibly()} in any thread.
 *
 * <p>{@link #newCondition()} returns a {@link Condition} built on {@link Cond}: FIFO wake-ups and
 * no spurious wake-ups, usable on virtual threads.
 *
 * @see Cond
 */
public final class SpinLock implements Lock {
    /*
     * Implementation notes.
     *
     * One int word: 0 = unlocked, 1 = locked. lock() tries a CAS 0 -> 1 once; on failure it
     * enters the backoff loop, which is test-and-test-and-set: it reads the word (a plain
     * acquire load keeps the cache line shared among the spinners instead of bouncing it with
     * failed CASes) and attempts the CAS only when it reads 0. Between attempts it yields
     * 1, 2, 4 ... maxBackoff times (ants: runtime.Gosched); lockInterruptibly and a timed
     * tryLock stop yielding at an interrupt or at their deadline, which a large cap would
     * otherwise put off by as long as the thread had spun already. Yielding rather than
     * Thread.onSpinWait() matters when threads outnumber cores: the holder must get a core to
     * finish its critical section, and on 2 cores busy-waiting spinners starve it.
     *
     * Yielding is not enough on virtual threads. A yielded virtual thread goes back to its
     * carrier's local queue, but a holder unmounted inside its critical section (any blocking
     * call) is resubmitted from outside when it can go on, and a carrier whose local queue never
     * empties does not get to it: with more spinners than carriers they kept every local queue
     * busy and the holder never ran again. So a virtual thread at the backoff cap parks for
     * VIRTUAL_PARK_NANOS between attempts; the carriers run dry and pick the holder up. Its cap is
     * at most DEFAULT_MAX_BACKOFF: the yields before the first park keep the holder off its carrier
     * as long, and a large cap (2^24 yields) did so for seconds. Platform
     * threads keep yielding: the OS scheduler is fair to a thread that is ready to run. A park
     * returns at once while the thread is interrupted, so lock() clears the status while it
     * waits and sets it again once it holds the lock, as AQS does.
     *
     * unlock() is a release store: it orders the critical section before the word's reset, and
     * the next locker's CAS (a volatile read-modify-write) reads it, which establishes the
     * happens-before edge. The unlocked-state check in unlock() is a plain read: a correct
     * caller holds the lock, so only misuse can race with it.
     *
     * The first run in the JVM of a VarHandle call site links it, which allocates. unlock() runs
     * after its caller's critical section: an OutOfMemoryError there would leave the lock held for
     * good and the section's changes half published to its owner. So class initialization locks
     * and unlocks a throwaway lock once.
     */

    /** Default backoff cap, as in ants. */
    private static final int DEFAULT_MAX_BACKOFF = 16;

    /** How long a virtual thread at the backoff cap sleeps between attempts. */
    private static final long VIRTUAL_PARK_NANOS = 20_000L;

    private static final int UNLOCKED = 0;
    private static final int LOCKED = 1;

    private static final VarHandle STATE;

    /** Links the call sites before any lock has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SpinLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LINKING.attempt();
    }

    /**
     * Links the call sites of lock, tryLock and unlock before any lock is held, on a throwaway lock: callers take the
     * lock after they changed their own state (a Mutex's unlock, the end of a WaitGroup's round), where an
     * OutOfMemoryError would leave that change half done.
     */
    private static void linkStateChanges() {
        SpinLock linking = new SpinLock();
        linking.lock(); // uncontended: its CAS
        linking.tryLock(); // held: the read a contended lock() begins each attempt with
        linking.unlock();
        linking.tryLock(); // free: the read, then the attempt's CAS
        linking.unlock();
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    private final int maxBackoff;

    /** Creates an unlocked spin lock whose backoff grows to 16 yields between attempts, as in ants. */
    public SpinLock() {
        LINKING.ensure();
        this.maxBackoff = DEFAULT_MAX_BACKOFF;
    }

    /**
     * Creates an unlocked spin lock whose backoff doubles from 1 up to {@code maxBackoff} yields
     * between attempts.
     *
     * @param maxBackoff the largest number of yields between two attempts, at least 1; any
     *     {@code int} up to {@link Integer#MAX_VALUE} is honoured (the doubling stops at it) by
     *     platform threads; a virtual thread sleeps instead once it reaches 16 (see the class
     *     description)
     * @throws IllegalArgumentException if {@code maxBackoff < 1}
     */
    public SpinLock(int maxBackoff) {
        if (maxBackoff < 1) {
            throw new IllegalArgumentException("maxBackoff must be at least 1, was " + maxBackoff);
        }
        LINKING.ensure();
        this.maxBackoff = maxBackoff;
    }

    /**
     * Returns whether some thread holds this lock. The answer may be stale by the time it is
     * used: meant for monitoring and assertions, not for synchronization.
     *
     * @return {@code true} if the lock is held
     */
    public boolean isLocked() {
        return (int) STATE.getAcquire(this) == LOCKED;
    }

    /**
     * Acquires the lock, spinning with backoff until it is free. Not reentrant. Throws nothing (a
     * {@code StackOverflowError} aside): where a virtual thread cannot yield or sleep for want of memory, it spins
     * without them, so that code which changed its state before taking the lock can finish.
     */
    @Override
    public void lock() {
        if (!STATE.compareAndSet(this, UNLOCKED, LOCKED)) {
            spinUninterruptibly();
        }
    }

    /**
     * Acquires the lock unless the current thread is interrupted, in which case it stops
     * spinning and throws. The interrupt status is checked before the first attempt too.
     *
     * @throws InterruptedException if the current thread is interrupted before or while spinning
     */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        Interrupts.throwIfInterrupted();
        if (!STATE.compareAndSet(this, UNLOCKED, LOCKED)) {
            spin(0L, false);
        }
    }

    /**
     * Acquires the lock only if it is free at the time of the call.
     *
     * @return {@code true} if the lock was acquired
     */
    @Override
    public boolean tryLock() {
        return (int) STATE.getAcquire(this) == UNLOCKED && STATE.compareAndSet(this, UNLOCKED, LOCKED);
    }

    /**
     * Acquires the lock if it becomes free within the given waiting time and the current thread
     * is not interrupted. A timeout of zero or less makes a single attempt.
     *
     * @param time the maximum time to wait
     * @param unit the time unit of {@code time}
     * @return {@code true} if the lock was acquired, {@code false} if the time elapsed first
     * @throws InterruptedException if the current thread is interrupted before or while spinning
     * @throws NullPointerException if {@code unit} is null
     */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        Interrupts.throwIfInterrupted();
        if (tryLock()) {
            return true;
        }
        return nanos > 0L && spin(System.nanoTime() + nanos, true);
    }

    /**
     * Releases the lock. Any thread may release it (the lock has no owner).
     *
     * @throws IllegalMonitorStateException if the lock is not held
     */
    @Override
    public void unlock() {
        if ((int) STATE.getOpaque(this) == UNLOCKED) {
            throw new IllegalMonitorStateException("unlock of unlocked SpinLock");
        }
        STATE.setRelease(this, UNLOCKED);
    }

    /**
     * Returns a new {@link Condition} bound to this lock, implemented by {@link Cond}: waiters
     * wake in FIFO order and never spuriously. As with {@code Cond}, signalling does not require
     * holding the lock; awaiting does (a thread that does not hold it is not detected: the lock has
     * no owner, see {@link Cond#await()}).
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
     * @return e.g. {@code "SpinLock@1b6d3586[locked]"}
     */
    @Override
    public String toString() {
        return super.toString() + (isLocked() ? "[locked]" : "[unlocked]");
    }

    private void spinUninterruptibly() {
        int backoff = 1;
        boolean interrupted = false;
        try {
            while (!tryLock()) {
                interrupted |= Thread.interrupted();
                try {
                    backoff = backOff(backoff, false, false, 0L);
                } catch (Throwable noMemory) {
                    // a virtual thread's yield or park unmounts it, which allocates: on an exhausted heap it
                    // throws; lock() must not (its callers take it after changing their own state), so it spins
                    Thread.onSpinWait();
                }
            }
        } finally {
            if (interrupted) {
                try {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    // a Thread subclass whose interrupt() throws: lock() must not throw once it holds the lock,
                    // or a caller's finally would never release it
                }
            }
        }
    }

    /**
     * {@link Thread#yield()}, or a spin-wait hint where a virtual thread cannot yield for want of memory (unmounting
     * it allocates): for the waits of the primitives that must not throw, having changed their state.
     */
    static void yieldOrSpin() {
        try {
            Thread.yield();
        } catch (Throwable noMemory) {
            Thread.onSpinWait();
        }
    }

    /** The backoff loop of the interruptible and timed acquisitions; returns false on timeout. */
    private boolean spin(long deadline, boolean timed) throws InterruptedException {
        int backoff = 1;
        while (!tryLock()) { // the caller has checked the interrupt status before its first attempt
            if (timed && deadline - System.nanoTime() <= 0L) {
                return false;
            }
            backoff = backOff(backoff, true, timed, deadline);
            Interrupts.throwIfInterrupted(); // before the next attempt, as AQS checks after its park
        }
        return true;
    }

    /**
     * Waits before the next attempt; the caller has cleared the interrupt status. An interruptible wait stops
     * yielding as soon as the thread is interrupted or, {@code timed}, its deadline has passed, so that a large
     * {@code maxBackoff} delays the next attempt only, not the end of the wait.
     */
    private int backOff(int backoff, boolean interruptible, boolean timed, long deadline) {
        Thread self = Thread.currentThread();
        if ((backoff == maxBackoff || backoff >= DEFAULT_MAX_BACKOFF) && self.isVirtual()) {
            LockSupport.parkNanos(this, VIRTUAL_PARK_NANOS);
            return backoff;
        }
        for (int i = 0; i < backoff; i++) {
            Thread.yield();
            if (interruptible && (self.isInterrupted() || timed && deadline - System.nanoTime() <= 0L)) {
                break;
            }
        }
        return nextBackoff(backoff, maxBackoff);
    }

    /**
     * The backoff after {@code backoff} (between 1 and {@code maxBackoff}): twice as many yields,
     * at most {@code maxBackoff}. Compared before doubling, so that it cannot overflow.
     */
    static int nextBackoff(int backoff, int maxBackoff) {
        return backoff <= maxBackoff >> 1 ? backoff << 1 : maxBackoff;
    }
}
