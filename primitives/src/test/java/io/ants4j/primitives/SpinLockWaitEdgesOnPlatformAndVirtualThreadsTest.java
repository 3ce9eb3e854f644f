package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review 47's probes of SpinLock's contracts after cd4629a (lockInterruptibly and the timed tryLock stop yielding at
 * an interrupt or their deadline): passing controls, on platform and virtual threads.
 */
@Timeout(120)
class SpinLockWaitEdgesOnPlatformAndVirtualThreadsTest {

    /** "A timeout of zero or less makes a single attempt": no wait on a held lock, the lock on a free one. */
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void aTimeoutOfZeroOrLessMakesOneAttempt(boolean virtual) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            try {
                for (long time : new long[] {0L, -1L, Long.MIN_VALUE}) {
                    SpinLock held = new SpinLock(Integer.MAX_VALUE);
                    held.lock();
                    long start = System.nanoTime();
                    assertFalse(held.tryLock(time, TimeUnit.NANOSECONDS), "took a held lock");
                    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1), "waited");
                    SpinLock free = new SpinLock(Integer.MAX_VALUE);
                    assertTrue(free.tryLock(time, TimeUnit.DAYS), "did not take a free lock");
                    assertTrue(free.isLocked());
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(t.isAlive());
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    /**
     * "A virtual thread that still finds the lock held once its backoff has reached the cap (or 16 yields, if the cap
     * is larger) sleeps": seen parked with the lock as its blocker, for a small cap and for the largest.
     */
    @ParameterizedTest(name = "maxBackoff={0}")
    @ValueSource(ints = {1, 4, 16, 17, Integer.MAX_VALUE})
    void aVirtualSpinnerSleepsAtTheCap(int maxBackoff) throws Exception {
        SpinLock lock = new SpinLock(maxBackoff);
        lock.lock();
        Thread spinner = Thread.ofVirtual().start(lock::lock);
        Threads.until("the virtual spinner parks on the lock", () -> LockSupport.getBlocker(spinner) == lock);
        lock.unlock();
        spinner.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(spinner.isAlive(), "the spinner did not take the freed lock");
        assertTrue(lock.isLocked());
    }

    /** The interrupt ends a virtual lockInterruptibly at the largest cap; the timed tryLock ends at its deadline. */
    @Test
    void aVirtualWaiterAtTheLargestCapEndsOnItsInterruptOrDeadline() throws Exception {
        SpinLock lock = new SpinLock(Integer.MAX_VALUE);
        lock.lock();
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Object> interrupted = new AtomicReference<>();
        Thread a = Thread.ofVirtual().start(() -> {
            started.countDown();
            try {
                lock.lockInterruptibly();
                interrupted.set("acquired");
            } catch (Throwable t) {
                interrupted.set(t);
            }
        });
        assertTrue(started.await(20, TimeUnit.SECONDS));
        Threads.until("the waiter parks on the lock", () -> LockSupport.getBlocker(a) == lock);
        a.interrupt();
        a.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(a.isAlive());
        assertInstanceOf(InterruptedException.class, interrupted.get());
        AtomicReference<Object> timed = new AtomicReference<>();
        Thread b = Thread.ofVirtual().start(() -> {
            try {
                timed.set(lock.tryLock(50, TimeUnit.MILLISECONDS));
                timed.compareAndSet(Boolean.FALSE, Thread.currentThread().isInterrupted() ? "interrupted" : false);
            } catch (Throwable t) {
                timed.set(t);
            }
        });
        b.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(b.isAlive());
        assertEquals(Boolean.FALSE, timed.get());
        assertTrue(lock.isLocked());
    }

    /** lock() on a platform thread at a huge cap keeps an interrupt and takes the lock; throws nothing. */
    @Test
    void lockKeepsTheInterruptOfAPlatformSpinner() throws Exception {
        SpinLock lock = new SpinLock(8);
        lock.lock();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                lock.lock();
                outcome.set(Thread.interrupted());
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        t.interrupt();
        lock.unlock();
        t.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(t.isAlive());
        assertEquals(Boolean.TRUE, outcome.get(), "the interrupt was lost");
    }

    /** The condition of a SpinLock: a signal wakes the waiter, which holds the lock again; no spurious wake-up. */
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void aConditionOfASpinLockHandsTheLockBack(boolean virtual) throws Exception {
        SpinLock lock = new SpinLock(Integer.MAX_VALUE);
        Condition c = lock.newCondition();
        AtomicReference<Object> outcome = new AtomicReference<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread t = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            lock.lock();
            try {
                waiting.countDown();
                outcome.set(c.await(20, TimeUnit.SECONDS) && lock.isLocked());
            } catch (Throwable e) {
                outcome.set(e);
            } finally {
                lock.unlock();
            }
        });
        assertTrue(waiting.await(20, TimeUnit.SECONDS));
        lock.lock(); // the waiter released it
        c.signal();
        lock.unlock();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(t.isAlive());
        assertSame(Boolean.TRUE, outcome.get());
        assertFalse(lock.isLocked());
    }
}
