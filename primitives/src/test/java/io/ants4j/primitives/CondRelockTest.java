package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.junit.jupiter.api.Test;

/**
 * {@code Cond.await}'s javadoc: whatever the wait ends with, "the lock is held again", so that a caller's
 * {@code finally} releases its own hold. Re-acquiring a lock can fail too (a {@link Mutex} allocates a waiter
 * node when the lock is held): the await must still return holding it.
 */
class CondRelockTest {

    /** A lock whose next {@code lock()} throws {@link OutOfMemoryError} once, as an allocation in it would. */
    private static final class LockFailingOnce extends CondRelockOutOfMemoryProbe.MutexLock {
        boolean failNextLock;

        @Override
        public void lock() {
            if (failNextLock) {
                failNextLock = false;
                throw new OutOfMemoryError("test: no memory for a waiter node");
            }
            inner.lock();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aTimedAwaitWhoseRelockRunsOutOfMemoryStillReturnsHoldingTheLock() throws InterruptedException {
        LockFailingOnce lock = new LockFailingOnce();
        Cond cond = new Cond(lock);
        lock.lock();
        lock.failNextLock = true;
        try {
            assertFalse(cond.await(1, TimeUnit.MILLISECONDS), "nobody signalled");
            assertTrue(lock.inner.isLocked(), "await returned without holding the lock again");
        } finally {
            lock.unlock();
        }
        assertFalse(lock.inner.isLocked());
    }
}
