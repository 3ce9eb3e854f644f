package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * A counting semaphore whose permits are taken and given back in any number at a time and handed
 * out in strict arrival order: the port of Go's {@code golang.org/x/sync/semaphore.Weighted}. It
 * bounds the combined weight of what runs at once, for instance the bytes that the requests in
 * flight may buffer:
 *
 * <pre>{@code
 * WeightedSemaphore memory = new WeightedSemaphore(64L << 20);   // 64 MiB
 *
 * memory.acquire(request.size());
 * try {
 *     process(request);
 * } finally {
 *     memory.release(request.size());
 * }
 * }</pre>
 *
 * <p><b>First come, first served; no barging.</b> An acquisition succeeds at once only if enough
 * permits are free <i>and no thread is waiting</i>; otherwise the thread queues behind the ones
 * already waiting. Permits go to the waiters in arrival order, and a waiter asking for more than
 * are free holds back every waiter behind it, even those whose requests would fit. So a large
 * request is never starved by a stream of small ones: with {@code N} permits used as a read-write
 * lock (readers take 1, a writer takes {@code N}), a waiting writer gets in once the readers
 * before it have left. {@link #tryAcquire(long)} fails whenever a thread waits in the queue, for the
 * same reason. Unlike {@link java.util.concurrent.Semaphore} there is no unfair mode.
 *
 * <p>Permits are not owned: any thread may release them, and no thread identity is recorded.
 * Releasing more permits than are held throws {@link IllegalStateException}
 * ({@code "released more than held"}; Go panics) and leaves the semaphore as it was. A request
 * for more permits than the semaphore's size can never succeed: {@link #acquire} waits for an
 * interrupt and the timed {@link #tryAcquire(long, long, TimeUnit)} for its timeout (as Go's
 * {@code Acquire} waits for its context), without queueing, so they hold nobody back: while only such
 * a request waits, other acquisitions, {@code tryAcquire} included, succeed as if nobody waited. A
 * request for zero permits succeeds when no thread waits, or else when its turn comes.
 *
 * <p><b>Interrupts and timeouts.</b> {@code acquire} and the timed {@code tryAcquire} throw
 * {@link InterruptedException} if the thread is interrupted on entry, even when the permits are
 * free (Go fails an {@code Acquire} whose context is done). A waiter that is interrupted or
 * times out leaves the queue holding nothing. If the permits were granted to it in the same
 * instant, before it could leave, it gives them back, and they go on to the waiters behind it, so
 * no permit is lost and no waiter is left asleep with permits it could have. A waiter that sees
 * its grant first returns normally; an interrupt that comes later stays set. Permits granted to a
 * waiter the JDK cannot unpark (a virtual thread whose scheduler refuses it; on JDK 21 an
 * {@code OutOfMemoryError}, which {@code release} then throws) stay that waiter's: the thread may
 * still run, as its scheduler may have queued it.
 *
 * <p>Waiting threads park ({@link java.util.concurrent.locks.LockSupport}); nothing blocks inside
 * {@code synchronized}, so virtual threads waiting here unmount from their carriers.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread prior to a {@code release}
 * <i>happen-before</i> the return of every later successful {@code acquire} or {@code tryAcquire}
 * in another thread, in particular of the one that obtains the released permits.
 */
public final class WeightedSemaphore {
    /*
     * Implementation notes.
     *
     * Go keeps cur (permits held) and a list of waiters under a sync.Mutex. Here the free permits,
     * size - cur, live in one volatile long, state, together with a QUEUED bit (the sign bit) that
     * says the wait queue is not empty; size is at most Long.MAX_VALUE, so the free count fits in
     * the other 63 bits. The fast paths need no lock: acquire(n) is a CAS from s to s - n, taken
     * only while s >= n, which as a signed comparison means both "n free" and "QUEUED clear" (Go's
     * s.size-s.cur >= n && s.waiters.Len() == 0); release(n) is a CAS from s to s + n, taken only
     * while QUEUED is clear. Neither allocates. Every other change is made under the WaitQueue's
     * lock, and still by CAS: while QUEUED is clear a lock-free acquire or release may change the
     * word at any time, and while it is set none can (their CAS expects QUEUED clear, and a stale
     * expected value fails), so a locked section that sets the bit owns the word until it clears
     * it.
     *
     * Invariants, whenever the lock is free:
     *   (1) QUEUED is set iff the queue has a waiter;
     *   (2) if the queue has a waiter, the first one asks for more than the free permits
     *       (Go's head-of-line rule: notifyWaiters stops at the first waiter that does not fit);
     *   (3) 0 <= free <= size, and free + the permits held by threads = size.
     * A waiter queues in the same locked CAS that sets QUEUED or finds it set, after checking
     * that it cannot take its permits (if it can, it takes them instead), so (1) and (2) hold for
     * it. Every locked change of the free count (a release while QUEUED is set, a grant given
     * back, a withdrawn waiter) ends in grantLocked: add the permits, then grant waiters from the
     * head while the head fits (Go's notifyWaiters), then publish the remaining free count with
     * QUEUED iff a waiter remains, in one CAS. A withdrawn waiter runs it with zero permits: if it
     * was the head and the one behind it fits now, that one is granted (Go's isFront case); if it
     * was not the head, (2) says the head still does not fit and nothing changes.
     *
     * Grants and cancellation are decided under the lock (see WaitQueue): a granted node's
     * permits were deducted by the CAS that granted it. A waiter that parks until granted returns
     * at once; one that times out or is interrupted (or whose park throws, e.g. when a virtual
     * thread cannot be parked for lack of memory) takes the lock and either withdraws its node,
     * or finds it already granted and gives the permits back through grantLocked, as Go's
     * Acquire does when its context is done and ready is closed. Either way nothing it was given
     * is lost, and everyone who fits is woken. The node is allocated before the lock is taken,
     * so an OutOfMemoryError leaves the semaphore as it was; the lock is released in finally,
     * and unparking happens after, so a woken thread never spins on its waker's lock.
     *
     * Happens-before: every release writes state with a volatile CAS, and every acquisition
     * either reads state in its own CAS or is granted by a thread that did (that thread's
     * release-mode store of the node's status is read with acquire mode by the waiter).
     *
     * The first run in the JVM of a VarHandle call site links it, which allocates. This class's own
     * call sites all run in the constructor and the first acquire, before it changes anything; what
     * follows a change (the queue's lock, its grant to a parked waiter) is linked by WaitQueue's and
     * SpinLock's class initialization, so a release on an exhausted heap still wakes its waiter.
     */

    /** The sign bit of {@link #state}: the wait queue has a waiter. */
    private static final long QUEUED = Long.MIN_VALUE;
    /** The free-permit bits of {@link #state}. */
    private static final long FREE = Long.MAX_VALUE;
    /** Wake status of a waiter whose permits were granted. */
    private static final int GRANTED = 1;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WeightedSemaphore.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long size;
    private final WaitQueue queue = new WaitQueue();

    /** The free permits, with {@link #QUEUED} set while a thread waits; see the implementation notes. */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;

    /** A waiting thread's node: how many permits it asks for. */
    private static final class Request extends WaitQueue.Waiter {
        final long permits;

        Request(long permits) {
            this.permits = permits;
        }
    }

    /**
     * Creates a semaphore with {@code size} permits, all free.
     *
     * @param size the combined weight the semaphore admits at once
     * @throws IllegalArgumentException if {@code size} is negative
     */
    public WeightedSemaphore(long size) {
        this.size = checkNotNegative(size, "size");
        STATE.setRelease(this, size);
    }

    /**
     * Acquires {@code n} permits, waiting until they are free and every thread that queued
     * earlier has been served, or until the thread is interrupted.
     *
     * @param n the number of permits
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; it
     *     then holds none of the permits
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public void acquire(long n) throws InterruptedException {
        checkNotNegative(n, "n");
        Interrupts.throwIfInterrupted();
        if (!tryTake(n)) {
            await(n, false, 0L);
        }
    }

    /**
     * Acquires {@code n} permits if they are free and no thread waits in the queue (a request for more
     * than the size waits without queueing: see the class description); never waits.
     *
     * @param n the number of permits
     * @return {@code true} if the permits were acquired, {@code false} (nothing acquired) if not
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public boolean tryAcquire(long n) {
        checkNotNegative(n, "n");
        return tryTake(n);
    }

    /**
     * Acquires {@code n} permits, waiting as {@link #acquire} does but at most until the timeout
     * elapses. With a timeout of zero or less it does not wait: it succeeds only as
     * {@link #tryAcquire(long)} would.
     *
     * @param n the number of permits
     * @param timeout the maximum time to wait
     * @param unit the unit of {@code timeout}
     * @return {@code true} if the permits were acquired, {@code false} (nothing acquired) if the
     *     timeout elapsed first
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; it
     *     then holds none of the permits
     * @throws IllegalArgumentException if {@code n} is negative
     * @throws NullPointerException if {@code unit} is null
     */
    public boolean tryAcquire(long n, long timeout, TimeUnit unit) throws InterruptedException {
        checkNotNegative(n, "n");
        long nanos = unit.toNanos(timeout);
        long deadline = WaitQueue.deadline(nanos);
        Interrupts.throwIfInterrupted();
        return tryTake(n) || nanos > 0L && await(n, true, deadline);
    }

    /**
     * Releases {@code n} permits and grants the waiters, in arrival order, whose requests now fit.
     *
     * @param n the number of permits
     * @throws IllegalStateException if fewer than {@code n} permits are held
     *     ({@code "released more than held"}); the semaphore is then unchanged
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public void release(long n) {
        checkNotNegative(n, "n");
        long s = (long) STATE.getVolatile(this);
        while (s >= 0L) {
            if (n > size - s) {
                throw releasedMoreThanHeld();
            }
            long witness = (long) STATE.compareAndExchange(this, s, s + n);
            if (witness == s) {
                return;
            }
            s = witness;
        }
        grant(n, null);
    }

    /**
     * Returns the number of permits not held by any thread. While threads wait, some of them
     * may be free and still unavailable to newcomers (the first waiter needs more). A snapshot
     * for monitoring.
     *
     * @return the free permits, between 0 and the size
     */
    public long available() {
        return (long) STATE.getVolatile(this) & FREE;
    }

    /**
     * Returns a string identifying this semaphore, its size, its free permits and how many
     * requests wait in its queue (a request for more permits than the size waits without
     * queueing, and is not counted).
     *
     * @return e.g. {@code "WeightedSemaphore@1b6d3586[size=10, available=3, waiting=2]"}
     */
    @Override
    public String toString() {
        int waiting = 0;
        queue.lock.lock();
        try {
            for (WaitQueue.Waiter w = queue.first(); w != null; w = w.next) {
                waiting++;
            }
        } finally {
            queue.lock.unlock();
        }
        return super.toString() + "[size=" + size + ", available=" + available() + ", waiting=" + waiting + "]";
    }

    /** The fast path: takes {@code n} permits if they are free and nobody waits. */
    private boolean tryTake(long n) {
        long s = (long) STATE.getVolatile(this);
        while (s >= n) { // signed: false while QUEUED is set
            long witness = (long) STATE.compareAndExchange(this, s, s - n);
            if (witness == s) {
                return true;
            }
            s = witness;
        }
        return false;
    }

    /**
     * Waits for {@code n} permits (the fast path failed): {@code true} when they are acquired,
     * {@code false} on timeout.
     */
    private boolean await(long n, boolean timed, long deadline) throws InterruptedException {
        Request r = new Request(n); // before anything changes: running out of memory here costs nothing
        if (n > size) { // can never be granted: wait without queueing, holding nobody back (Go)
            return granted(WaitQueue.park(r, true, timed, deadline));
        }
        if (!enqueue(r)) {
            return true;
        }
        int outcome;
        try {
            outcome = WaitQueue.park(r, true, timed, deadline);
        } catch (Throwable t) {
            grant(r.permits, r);
            throw t;
        }
        if (outcome != GRANTED) {
            try {
                grant(r.permits, r);
            } catch (Throwable t) {
                if (outcome == WaitQueue.INTERRUPTED) {
                    Thread.currentThread().interrupt(); // passing the grant on threw: keep the interrupt
                }
                throw t;
            }
        }
        return granted(outcome);
    }

    private static boolean granted(int outcome) throws InterruptedException {
        if (outcome == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
        return outcome == GRANTED;
    }

    /**
     * Queues {@code r} and sets {@link #QUEUED}, unless its permits are free and nobody waits,
     * in which case it takes them: {@code false} if it took them.
     */
    private boolean enqueue(Request r) {
        queue.lock.lock();
        try {
            long s = (long) STATE.getVolatile(this);
            for (;;) {
                boolean fits = s >= r.permits;
                long witness = (long) STATE.compareAndExchange(this, s, fits ? s - r.permits : s | QUEUED);
                if (witness == s) {
                    if (fits) {
                        return false;
                    }
                    queue.enqueue(r, false);
                    return true;
                }
                s = witness;
            }
        } finally {
            queue.lock.unlock();
        }
    }

    /**
     * Gives {@code n} permits back ({@code release} while waiters are queued), or takes out a
     * waiter that timed out, was interrupted or failed ({@code leaving}, with {@code n} its
     * request: given back only if it was granted meanwhile); then grants whoever fits now.
     */
    private void grant(long n, Request leaving) {
        WaitQueue.Waiter granted;
        queue.lock.lock();
        try {
            granted = grantLocked(leaving != null && queue.withdraw(leaving) ? 0L : n);
        } finally {
            queue.lock.unlock();
        }
        WaitQueue.unparkAll(granted);
    }

    /**
     * Adds {@code n} permits and grants the waiters from the head while the head fits (Go's
     * notifyWaiters), in one CAS that also sets or clears {@link #QUEUED}; returns the granted
     * nodes for {@link WaitQueue#unparkAll}. Caller holds the queue's lock.
     *
     * @throws IllegalStateException if fewer than {@code n} permits are held; nothing changed
     */
    private WaitQueue.Waiter grantLocked(long n) {
        long s = (long) STATE.getVolatile(this);
        for (;;) {
            long free = s & FREE;
            if (n > size - free) {
                throw releasedMoreThanHeld();
            }
            free += n;
            int count = 0;
            WaitQueue.Waiter w = queue.first();
            for (; w != null && ((Request) w).permits <= free; w = w.next) {
                free -= ((Request) w).permits;
                count++;
            }
            long witness = (long) STATE.compareAndExchange(this, s, w == null ? free : free | QUEUED);
            if (witness == s) {
                return queue.take(count, GRANTED);
            }
            s = witness; // QUEUED was clear, so the queue is empty and a lock-free CAS came first
        }
    }

    private static IllegalStateException releasedMoreThanHeld() {
        return new IllegalStateException("released more than held");
    }

    private static long checkNotNegative(long value, String name) {
        if (value < 0L) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
        return value;
    }
}
