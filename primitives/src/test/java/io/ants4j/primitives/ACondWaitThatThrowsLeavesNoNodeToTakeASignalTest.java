package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cond.java:40-44: "Wake-ups are never lost. [...] Either way exactly one waiter consumes each signal that found
 * one"; Cond.java:101-111 (await): "@throws IllegalMonitorStateException (or whatever the lock's unlock throws) [...];
 * the thread is then not left waiting and its holds are unchanged. What the unlock [...] of a ReentrantLock [...]
 * throws after it released the lock (failing to wake one of its waiters) is thrown with the lock held again"; "The
 * lock is taken again with its own lock(): an OutOfMemoryError from it is retried until memory is found, but anything
 * else it throws is thrown as it is, and the lock is then not held".
 *
 * <p>A Cond over a {@code ReentrantLock} (here a subclass of the caller's) whose {@code unlock()} throws after it
 * released the lock, and whose {@code lock()} then throws too (the relock: "thrown as it is"). Cond.await queues its
 * node, the unlock throws after releasing, so await relocks first; the relock throws, and await passes that on
 * without withdrawing its node (leaveWithoutWaiting comes after relock() in the same block). The thread has left
 * await, but its node stays in the queue, WAITING: the next signal takes it instead of the thread that really waits,
 * which is never woken (the signal is lost).
 */
@Timeout(60)
class ACondWaitThatThrowsLeavesNoNodeToTakeASignalTest {

    /** The caller's lock: its unlock() throws once after releasing, its lock() throws once, when armed. */
    private static final class FailingLock extends ReentrantLock {
        volatile boolean unlockThrowsAfterRelease;
        volatile boolean lockThrows;

        @Override
        public void unlock() {
            super.unlock();
            if (unlockThrowsAfterRelease) {
                unlockThrowsAfterRelease = false;
                throw new IllegalStateException("injected: unlock failed after releasing (waking a waiter)");
            }
        }

        @Override
        public void lock() {
            if (lockThrows) {
                lockThrows = false;
                throw new IllegalStateException("injected: lock failed");
            }
            super.lock();
        }
    }

    @Test
    void aWaitWhoseUnlockAndRelockThrowLeavesNoNodeBehindToTakeTheNextSignal() throws Exception {
        FailingLock lock = new FailingLock();
        Cond cond = new Cond(lock);

        // The failing wait: unlock throws after releasing, then the relock throws.
        lock.lock();
        lock.unlockThrowsAfterRelease = true;
        lock.lockThrows = true;
        Throwable failed = null;
        try {
            cond.await(1, TimeUnit.MINUTES);
        } catch (Throwable t) {
            failed = t;
        }
        assertTrue(failed instanceof IllegalStateException, "the failing wait threw " + failed);
        assertFalse(lock.isHeldByCurrentThread(), "the relock threw: the lock is not held, as documented");

        // A thread that really waits, then one signal.
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            lock.lock();
            try {
                outcome.set(cond.await(5, TimeUnit.SECONDS));
            } catch (Throwable t) {
                outcome.set(t);
            } finally {
                lock.unlock();
            }
        });
        Threads.until("the waiter waits", () -> !lock.isLocked() && (waiter.getState() == Thread.State.TIMED_WAITING));
        cond.signal();
        waiter.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(waiter.isAlive());
        assertEquals(Boolean.TRUE, outcome.get(), "the only thread waiting was not woken by the signal (await returned "
                + outcome.get() + " after its 5 s timeout): the signal went to the node the failed wait left queued ("
                + failed + ")");
    }
}
