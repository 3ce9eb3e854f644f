package io.ants4j.channels;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A channel's lock: a {@link ReentrantLock} whose {@link #lock()} retries for a short while before it queues. A
 * channel's critical sections are a few dozen nanoseconds, and a thread that queues on a held lock parks (a virtual
 * thread unmounts), which costs microseconds.
 */
final class ChanLock extends ReentrantLock {
    /*
     * Test and test-and-set: the spin reads isLocked() (a volatile read of the lock's state, no write) and tries only
     * when it saw the lock free. The lock stays non-fair, as ReentrantLock's default: a thread that comes while the
     * lock is free takes it ahead of queued ones, and the queued ones are served in order among themselves.
     */
    private static final long serialVersionUID = 1L;
    /** Tries before queueing; none on one CPU, where the holder cannot run while we spin. */
    private static final int SPINS = Runtime.getRuntime().availableProcessors() > 1 ? 64 : 0;

    @Override
    public void lock() {
        if (tryLock()) {
            return;
        }
        for (int i = SPINS; i > 0; i--) {
            Thread.onSpinWait();
            if (!isLocked() && tryLock()) {
                return;
            }
        }
        super.lock();
    }
}
