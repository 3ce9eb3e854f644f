package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.failure;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SpinLockTest {
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void mutualExclusion(boolean virtual) throws Exception {
        SpinLock lock = new SpinLock();
        int threads = virtual ? 64 : 8;
        int rounds = virtual ? 2_000 : 20_000;
        Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        assertEquals(threads * rounds, LockTests.incrementConcurrently(lock, builder, threads, rounds));
        assertFalse(lock.isLocked());
    }

    /**
     * A virtual thread that holds the lock and is unmounted inside its critical section (here a
     * short park, as any blocking call does) must get a carrier again although more virtual
     * threads than carriers spin for the lock: with yielding alone the spinners kept the
     * scheduler's queues busy and the holder never ran again.
     */
    @Test
    void aVirtualHolderThatParksInsideItsSectionIsNotStarvedBySpinners() throws Exception {
        int spinners = 4 * Runtime.getRuntime().availableProcessors();
        for (int round = 0; round < 10; round++) {
            SpinLock lock = new SpinLock();
            lock.lock();
            CountDownLatch spinning = new CountDownLatch(spinners);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < spinners; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    spinning.countDown();
                    lock.lock();
                    lock.unlock();
                }));
            }
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    spinning.await();
                } catch (InterruptedException e) {
                    return;
                }
                lock.unlock();
                lock.lock();
                LockSupport.parkNanos(100_000L);
                lock.unlock();
            }));
            for (Thread t : threads) {
                Threads.join(t);
            }
            assertFalse(lock.isLocked());
        }
    }

    /** The sleeping a virtual spinner does must not swallow an interrupt that came meanwhile. */
    @Test
    void lockKeepsTheInterruptOfAVirtualSpinner() throws Exception {
        SpinLock lock = new SpinLock(1);
        lock.lock();
        var waiter = start(Thread.ofVirtual(), () -> {
            Thread.currentThread().interrupt();
            lock.lock();
            boolean interrupted = Thread.interrupted();
            lock.unlock();
            return interrupted;
        });
        Threads.until("the waiter spins", () -> waiter.thread().getState() != Thread.State.NEW);
        lock.unlock();
        assertTrue(get(waiter.result()));
    }

    @Test
    void tryLockFailsWhileHeldAndSucceedsWhenFree() throws Exception {
        SpinLock lock = new SpinLock();
        assertTrue(lock.tryLock());
        assertTrue(lock.isLocked());
        assertFalse((boolean) get(start(lock::tryLock)));
        assertFalse(get(start(() -> lock.tryLock(20, TimeUnit.MILLISECONDS))));
        assertFalse(get(start(() -> lock.tryLock(0, TimeUnit.SECONDS))));
        lock.unlock();
        assertFalse(lock.isLocked());
        assertTrue((boolean) get(start(lock::tryLock)));
    }

    @Test
    void timedTryLockGetsTheLockOnceReleased() throws Exception {
        SpinLock lock = new SpinLock();
        lock.lock();
        var waiter = start(() -> lock.tryLock(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        Threads.until("the waiter spins", () -> waiter.thread().getState() != Thread.State.NEW);
        lock.unlock();
        assertTrue(get(waiter.result()));
        assertTrue(lock.isLocked());
    }

    @Test
    void lockInterruptiblyStopsSpinningWhenInterrupted() throws InterruptedException {
        SpinLock lock = new SpinLock(1);
        lock.lock();
        CountDownLatch spinning = new CountDownLatch(1);
        var waiter = start(() -> {
            spinning.countDown();
            lock.lockInterruptibly();
            return "acquired";
        });
        assertTrue(spinning.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(waiter.result()));
        assertTrue(lock.isLocked(), "the holder still holds the lock");
    }

    @Test
    void interruptedCallerFailsFastEvenWhenFree() {
        SpinLock lock = new SpinLock();
        LockTests.interruptedCallerFailsFastEvenWhenFree(lock, lock::isLocked);
    }

    @Test
    void timedTryLockOfInterruptedSpinnerThrows() {
        SpinLock lock = new SpinLock();
        lock.lock();
        var waiter = start(() -> lock.tryLock(1, TimeUnit.DAYS));
        Threads.until("the waiter starts", () -> waiter.thread().getState() != Thread.State.NEW);
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(waiter.result()));
    }

    @Test
    void unlockOfUnlockedLockThrows() {
        SpinLock lock = new SpinLock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
        lock.lock();
        lock.unlock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void anyThreadMayUnlock() {
        SpinLock lock = new SpinLock();
        LockTests.anyThreadMayUnlock(lock);
    }

    @Test
    void rejectsNonPositiveBackoff() {
        var e = assertThrows(IllegalArgumentException.class, () -> new SpinLock(0));
        assertTrue(e.getMessage().contains("maxBackoff"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SpinLock(-3));
        new SpinLock(1).lock();
    }

    /**
     * The backoff doubles up to the cap and stays there, whatever the cap: doubling 2^30 overflowed
     * into Integer.MIN_VALUE and then 0, a pure CAS spin for ever in which a virtual thread never
     * reached the cap and so never parked. (Reaching 2^30 through lock() takes 2^31 yields.)
     */
    @ParameterizedTest(name = "maxBackoff={0}")
    @ValueSource(ints = {1, 2, 3, 16, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, Integer.MAX_VALUE})
    void backoffDoublesUpToTheCapWithoutOverflow(int maxBackoff) {
        int backoff = 1;
        for (int attempt = 0; attempt < 40; attempt++) {
            int next = SpinLock.nextBackoff(backoff, maxBackoff);
            assertTrue(next == maxBackoff || next == 2 * backoff, backoff + " -> " + next + " (cap " + maxBackoff + ")");
            assertTrue(next >= backoff && next <= maxBackoff, backoff + " -> " + next + " (cap " + maxBackoff + ")");
            backoff = next;
        }
        assertEquals(maxBackoff, backoff);
    }

    @Test
    void tryLockRejectsNullUnit() {
        assertThrows(NullPointerException.class, () -> new SpinLock().tryLock(1, null));
    }

    @Test
    void conditionAwaitsAndSignals() {
        SpinLock lock = new SpinLock();
        LockTests.conditionAwaitsAndSignals(lock, lock::isLocked);
    }

    /**
     * The Condition view's timeouts at the ends of their ranges: the most negative ones time out
     * at once and awaitNanos reports no time left (Long.MIN_VALUE when the true remainder would
     * not fit, as AbstractQueuedSynchronizer does); the farthest ones wait for the signal.
     */
    @Test
    void conditionTimeoutsAtTheEndsOfTheirRanges() throws Exception {
        SpinLock lock = new SpinLock();
        Condition ready = lock.newCondition();
        var extremes = start(() -> {
            lock.lock();
            try {
                assertEquals(Long.MIN_VALUE, ready.awaitNanos(Long.MIN_VALUE));
                assertFalse(ready.awaitUntil(new Date(Long.MIN_VALUE)));
                assertFalse(ready.await(Long.MIN_VALUE, TimeUnit.DAYS));
                return "timed out";
            } finally {
                lock.unlock();
            }
        });
        assertEquals("timed out", get(extremes));
        for (int i = 0; i < 2; i++) {
            boolean nanos = i == 0;
            var waiter = start(() -> {
                lock.lock();
                try {
                    return nanos ? ready.awaitNanos(Long.MAX_VALUE) > 0L : ready.awaitUntil(new Date(Long.MAX_VALUE));
                } finally {
                    lock.unlock();
                }
            });
            Threads.untilParked(waiter.thread());
            lock.lock();
            try {
                ready.signal();
            } finally {
                lock.unlock();
            }
            assertTrue(get(waiter), nanos ? "awaitNanos(MAX_VALUE) has time left" : "awaitUntil(MAX_VALUE) signalled");
        }
    }

    @Test
    void toStringShowsState() {
        SpinLock lock = new SpinLock();
        assertTrue(lock.toString().endsWith("[unlocked]"), lock.toString());
        lock.lock();
        assertTrue(lock.toString().endsWith("[locked]"), lock.toString());
    }
}
