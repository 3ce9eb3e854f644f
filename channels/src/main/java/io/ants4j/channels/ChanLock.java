package io.ants4j.channels;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A channel's lock (and the timers'): a {@link ReentrantLock} whose {@link #lock()} retries for a short while before
 * it queues (a channel's critical sections are a few dozen nanoseconds, and a thread that queues on a held lock
 * parks, a virtual thread unmounts, which costs microseconds), and whose {@link #unlock()} does not throw once the
 * lock is free.
 */
final class ChanLock extends ReentrantLock {
    /*
     * Test and test-and-set: the spin reads isLocked() (a volatile read of the lock's state, no write) and tries only
     * when it saw the lock free. The lock stays non-fair, as ReentrantLock's default: a thread that comes while the
     * lock is free takes it ahead of queued ones, and the queued ones are served in order among themselves.
     *
     * ReentrantLock.unlock frees the lock and then unparks the first thread queued for it, which can throw (a virtual
     * thread whose scheduler rejects it; on JDK 21 an OutOfMemoryError). The channel's operation is done by then, and
     * it has a counterpart to wake: the throwable would make it report a failure after doing its work, and leave that
     * counterpart asleep (and a Ticker.stop that had stopped its ticker would throw). So unlock lets such a
     * throwable go: the lock is free, and the thread it could not wake stays parked, as a waiter the JDK cannot unpark
     * does (Waiter.wake); threads queued behind it for the lock wait for it (ReentrantLock signals only the first),
     * while threads that come take the lock as it is freed.
     */
    private static final long serialVersionUID = 1L;
    /** Tries before queueing; none on one CPU, where the holder cannot run while we spin. */
    private static final int SPINS = Runtime.getRuntime().availableProcessors() > 1 ? 64 : 0;

    @Override
    public void lock() {
        if (!tryLockBriefly()) {
            super.lock();
        }
    }

    /** Takes the lock if it is free or freed within the short retry {@link #lock()} makes; never queues. */
    boolean tryLockBriefly() {
        if (tryLock()) {
            return true;
        }
        for (int i = SPINS; i > 0; i--) {
            Thread.onSpinWait();
            if (!isLocked() && tryLock()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void unlock() {
        if (!isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("the channel's lock is not held by this thread");
        }
        try {
            super.unlock();
        } catch (RuntimeException | Error lost) {
            // thrown by the unpark of the thread queued next, after the lock was freed: see the notes above
        }
    }
}
