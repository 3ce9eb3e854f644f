package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SpinLock.java:168-171, {@link SpinLock#lockInterruptibly()}: "Acquires the lock unless the current thread is
 * interrupted, in which case it stops spinning and throws. [...] @throws InterruptedException if the current thread
 * is interrupted before or while spinning"; SpinLock.java:198 {@link SpinLock#tryLock(long, TimeUnit)} the same
 * ("@throws InterruptedException if the current thread is interrupted before or while spinning"). Unlike
 * {@link Mutex#lockInterruptibly()} (Mutex.java:33-37, 181-183), no exception is documented for a lock that comes
 * free after the interrupt, and {@code ReentrantLock} (AQS: the interrupt is checked right after the park, before
 * the next attempt) throws then.
 *
 * <p>The interleaving, forced deterministically in the spinning thread itself: the waiter spins on a held lock; the
 * interrupt arrives while it yields in its backoff (the first {@code isInterrupted()} call made from
 * {@code backOff}); the holder then releases the lock before the waiter's next attempt. The waiter throws. Review 47
 * found the loop making its next {@code tryLock()} before it looked at the interrupt status: the call returned
 * normally, holding the lock, the interrupt only left in the status.
 */
@Timeout(60)
class ASpinLockInterruptedWhileSpinningThrowsEvenIfTheLockIsFreedTest {

    /** A platform thread that, at its first interrupt check made by SpinLock's backoff, is interrupted and has the lock released. */
    private static final class InterruptedInBackoff extends Thread {
        private final SpinLock lock;
        private final AtomicBoolean fired = new AtomicBoolean();

        InterruptedInBackoff(SpinLock lock, Runnable body) {
            super(body, "interrupted-in-backoff");
            this.lock = lock;
        }

        @Override
        public boolean isInterrupted() {
            if (Thread.currentThread() == this && !fired.get() && calledFromBackOff()) {
                fired.set(true);
                interrupt(); // another thread's interrupt, arriving while this one yields
                lock.unlock(); // then the holder's release, before this thread's next attempt
            }
            return super.isInterrupted();
        }

        private static boolean calledFromBackOff() {
            return StackWalker.getInstance().walk(frames -> frames.limit(4)
                    .anyMatch(f -> f.getClassName().equals(SpinLock.class.getName())
                            && f.getMethodName().equals("backOff")));
        }
    }

    @Test
    void lockInterruptiblyInterruptedWhileSpinningThrows() throws Exception {
        assertThrowsWhenInterruptedWhileSpinning(lock -> {
            lock.lockInterruptibly();
            return null;
        });
    }

    @Test
    void timedTryLockInterruptedWhileSpinningThrows() throws Exception {
        assertThrowsWhenInterruptedWhileSpinning(lock -> lock.tryLock(30, TimeUnit.SECONDS));
    }

    private interface Acquisition {
        Object acquire(SpinLock lock) throws Exception;
    }

    private static void assertThrowsWhenInterruptedWhileSpinning(Acquisition acquisition) throws Exception {
        SpinLock lock = new SpinLock();
        lock.lock(); // the holder
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicBoolean statusAfter = new AtomicBoolean();
        InterruptedInBackoff[] self = new InterruptedInBackoff[1];
        self[0] = new InterruptedInBackoff(lock, () -> {
            try {
                Object r = acquisition.acquire(lock);
                outcome.set(r == null ? "returned normally" : "returned " + r);
            } catch (Throwable t) {
                outcome.set(t);
            } finally {
                statusAfter.set(Thread.interrupted());
            }
        });
        self[0].start();
        self[0].join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(self[0].isAlive(), "the waiter still spins 30 s later");
        assertTrue(self[0].fired.get(), "the interrupt was never injected in the backoff");
        assertInstanceOf(InterruptedException.class, outcome.get(),
                "interrupted while spinning, then the lock came free: the call " + outcome.get()
                        + " (holding the lock: " + lock.isLocked() + ", interrupt status left set: "
                        + statusAfter.get() + ") instead of throwing InterruptedException");
    }
}
