package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.failure;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MutexTest {
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void mutualExclusion(boolean virtual) throws Exception {
        Mutex lock = new Mutex();
        int threads = virtual ? 200 : 8;
        int rounds = virtual ? 500 : 20_000;
        Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        assertEquals(threads * rounds, LockTests.incrementConcurrently(lock, builder, threads, rounds));
        assertFalse(lock.isLocked());
        assertTrue(lock.toString().endsWith("[unlocked, waiters=0]"), lock::toString);
    }

    @Test
    void tryLockFailsWhileHeldAndSucceedsWhenFree() throws Exception {
        Mutex lock = new Mutex();
        assertTrue(lock.tryLock());
        assertTrue(lock.isLocked());
        assertFalse(lock.tryLock(), "not reentrant");
        assertFalse((boolean) get(start(lock::tryLock)));
        assertFalse(get(start(() -> lock.tryLock(20, TimeUnit.MILLISECONDS))));
        assertFalse(get(start(() -> lock.tryLock(0, TimeUnit.SECONDS))));
        assertFalse(get(start(() -> lock.tryLock(Long.MIN_VALUE, TimeUnit.NANOSECONDS))));
        assertTrue(lock.toString().endsWith("[locked, waiters=0]"), "timed-out waiters left: " + lock);
        lock.unlock();
        assertFalse(lock.isLocked());
        assertTrue((boolean) get(start(lock::tryLock)));
    }

    /**
     * tryLock() and tryLock(0, unit) acquire the lock whenever it is free at the time of the call
     * (Lock's contract, and this class's javadoc), also while timed-out waiters leave and woken
     * ones clear WOKEN: those change the word between tryLock's read and its CAS, and a single
     * CAS then failed although the lock was free.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tryLock()", "tryLock(0, unit)"})
    void tryLockSucceedsWhenFreeWhileWaitersComeAndGo(String form) throws Exception {
        Mutex lock = new Mutex();
        // 1.5 s (was 3): with tryLock's single CAS put back (a mutant) both forms failed within 0.4 s
        assertNull(LockTests.tryLockFalseWhileFree(lock, lock::isLocked, probe(lock, form), Duration.ofMillis(1_500)));
    }

    /** The same race made frequent: another thread flips WOKEN (a bit that does not hold the lock) all the time. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tryLock()", "tryLock(0, unit)"})
    void tryLockSucceedsWhenFreeWhileTheWordChanges(String form) throws Exception {
        Mutex lock = new Mutex();
        assertNull(LockTests.tryLockFalseWhileTheWordChanges(lock, WOKEN, probe(lock, form), lock, Duration.ofMillis(1_500)));
        assertEquals("[unlocked, waiters=0]", lock.toString().substring(lock.toString().indexOf('[')));
    }

    /** Mutex's WOKEN bit: set while a thread is awake and about to try the lock. */
    private static final int WOKEN = 1 << 1;

    private static BooleanSupplier probe(Lock lock, String form) {
        return form.equals("tryLock()") ? lock::tryLock : () -> {
            try {
                return lock.tryLock(0, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
    }

    @Test
    void timedTryLockGetsTheLockOnceReleased() throws Exception {
        Mutex lock = new Mutex();
        lock.lock();
        var waiter = start(() -> lock.tryLock(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        Threads.untilParked(waiter.thread());
        lock.unlock();
        assertTrue(get(waiter.result()));
        assertTrue(lock.isLocked());
    }

    @Test
    void unlockWakesTheParkedWaiter() {
        Mutex lock = new Mutex();
        lock.lock();
        var waiter = LockTests.startLocker(lock);
        Threads.untilParked(waiter.thread());
        assertTrue(lock.toString().endsWith("[locked, waiters=1]"), lock::toString);
        lock.unlock();
        assertEquals("acquired", get(waiter));
        assertTrue(lock.isLocked());
    }

    @Test
    void waitersAreWokenInArrivalOrder() throws Exception {
        Mutex lock = new Mutex();
        lock.lock();
        List<Integer> order = new ArrayList<>(); // guarded by lock
        List<Threads.Task<Object>> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int id = i;
            var w = start(() -> {
                lock.lock();
                try {
                    order.add(id);
                } finally {
                    lock.unlock();
                }
                return null;
            });
            Threads.untilParked(w.thread());
            waiters.add(w);
        }
        lock.unlock();
        for (var w : waiters) {
            get(w);
        }
        assertEquals(List.of(0, 1, 2, 3), order, "no newcomer competes, so the FIFO queue decides");
    }

    @Test
    void lockInterruptiblyLeavesTheQueueWhenInterrupted() throws InterruptedException {
        Mutex lock = new Mutex();
        lock.lock();
        var waiter = LockTests.startInterruptibleLocker(lock);
        Threads.untilParked(waiter.thread());
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(waiter.result()));
        assertTrue(lock.toString().endsWith("[locked, waiters=0]"), "the waiter left the count: " + lock);
        lock.unlock();
        assertFalse(lock.isLocked());
        assertTrue(lock.tryLock());
    }

    @Test
    void interruptedCallerFailsFastEvenWhenFree() {
        Mutex lock = new Mutex();
        LockTests.interruptedCallerFailsFastEvenWhenFree(lock, lock::isLocked);
    }

    @Test
    void uninterruptibleLockWaitsThroughInterruptsAndKeepsTheStatus() {
        Mutex lock = new Mutex();
        lock.lock();
        var waiter = start(() -> {
            lock.lock();
            return Thread.currentThread().isInterrupted();
        });
        Threads.untilParked(waiter.thread());
        waiter.thread().interrupt();
        Threads.untilParked(waiter.thread()); // parked again, still waiting
        lock.unlock();
        assertTrue(get(waiter), "interrupt status restored");
    }

    /** A timed-out or interrupted waiter ahead of another takes no wake-up from it. */
    @Test
    void aWaiterThatLeavesDoesNotTakeTheNextOnesWakeUp() throws InterruptedException {
        Mutex lock = new Mutex();
        lock.lock();
        var timed = start(() -> lock.tryLock(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        Threads.untilParked(timed.thread());
        var interruptible = LockTests.startInterruptibleLocker(lock);
        Threads.untilParked(interruptible.thread());
        var patient = LockTests.startLocker(lock);
        Threads.untilParked(patient.thread());
        timed.thread().interrupt();
        interruptible.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(timed.result()));
        assertInstanceOf(InterruptedException.class, failure(interruptible.result()));
        lock.unlock();
        assertEquals("acquired", get(patient));
    }

    /**
     * The race itself, many times: a waiter gives up (timeout or interrupt) just as the holder
     * unlocks, with a patient waiter behind it. Whatever the interleaving, the patient waiter gets
     * the lock, and a waiter that was given the lock while giving up reports it and holds it.
     */
    @ParameterizedTest(name = "interrupt={0}")
    @ValueSource(booleans = {false, true})
    void givingUpRacingUnlockLosesNoWakeUp(boolean interrupt) throws Exception {
        for (int i = 0; i < 500; i++) {
            Mutex lock = new Mutex();
            lock.lock();
            long nanos = 1_000L * (i % 50);
            var leaver = start(Thread.ofVirtual(), () -> {
                boolean acquired;
                try {
                    acquired = interrupt ? lockInterruptibly(lock) : lock.tryLock(nanos, TimeUnit.NANOSECONDS);
                } finally {
                    Thread.interrupted(); // an interrupt that came after the call returned
                }
                if (acquired) {
                    lock.unlock();
                }
                return acquired;
            });
            var patient = start(Thread.ofVirtual(), () -> {
                lock.lock();
                lock.unlock();
                return "acquired";
            });
            if (interrupt) {
                leaver.thread().interrupt();
            } else {
                LockSupport.parkNanos(nanos);
            }
            lock.unlock();
            get(leaver);
            assertEquals("acquired", get(patient), () -> "lost wake-up: " + lock);
            assertTrue(lock.toString().endsWith("[unlocked, waiters=0]"), lock::toString);
        }
    }

    private static boolean lockInterruptibly(Lock lock) {
        try {
            lock.lockInterruptibly();
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /**
     * An OutOfMemoryError where a thread allocates its node (after it spun and took WOKEN) leaves
     * the state as it was and wakes the parked waiter at the next unlock. A real one, so in a JVM
     * of its own with a small heap: see {@link OutOfMemoryProbe}.
     */
    @Test
    void outOfMemoryErrorWhenAllocatingTheNodeLeavesTheStateConsistent() throws Exception {
        LockTests.runOutOfMemoryProbe("mutex");
    }

    @Test
    void unlockOfUnlockedMutexThrowsAndChangesNothing() {
        Mutex lock = new Mutex();
        var e = assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertEquals("unlock of unlocked mutex", e.getMessage());
        lock.lock();
        lock.unlock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertTrue(lock.tryLock());
        lock.unlock();
        assertFalse(lock.isLocked());
    }

    @Test
    void unlockOfUnlockedMutexWithWaitersChangesNothing() {
        Mutex lock = new Mutex();
        lock.lock();
        var waiter = LockTests.startLocker(lock);
        Threads.untilParked(waiter.thread());
        lock.unlock();
        assertEquals("acquired", get(waiter));
        lock.unlock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertTrue(lock.toString().endsWith("[unlocked, waiters=0]"), lock::toString);
    }

    @Test
    void anyThreadMayUnlock() {
        Mutex lock = new Mutex();
        LockTests.anyThreadMayUnlock(lock);
    }

    @Test
    void tryLockRejectsNullUnit() {
        assertThrows(NullPointerException.class, () -> new Mutex().tryLock(1, null));
    }

    /**
     * Starvation mode, with no clock in the assertions: once a waiter that has waited past the
     * threshold has been woken and beaten by a barging thread, the next unlock hands the lock to
     * it: the barging thread's tryLock right after its own unlock fails, and the waiter gets the
     * lock; the mode ends when that last waiter has it.
     */
    @Test
    void aWaiterThatStarvedGetsTheLockAtTheNextUnlock() throws Exception {
        for (int attempt = 0; ; attempt++) {
            assertTrue(attempt < 100, "the barging thread never won the first race");
            Mutex lock = new Mutex();
            Starving w = starve(lock);
            if (!lock.tryLock()) { // the waiter won this race; the rule is about the one after
                w.finish();
                continue;
            }
            // The waiter woke, lost, and queued again with STARVING set.
            Threads.until("starvation mode", () -> lock.toString().contains("starving"));
            Threads.untilParked(w.task.thread());
            lock.unlock();
            assertFalse(lock.tryLock(), "starvation mode: the lock was handed to the waiter, no barging");
            assertTrue(w.got.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            assertTrue(lock.isLocked());
            assertFalse(lock.toString().contains("starving"), "the last waiter ends the mode: " + lock);
            w.finish();
            assertTrue(lock.tryLock(), "normal mode again");
            lock.unlock();
            return;
        }
    }

    /**
     * The same scenario on a non-fair ReentrantLock: a waiter that has waited past the threshold
     * and has been woken is still overtaken by the barging thread, round after round.
     */
    @Test
    void reentrantLockHasNoSuchBound() throws Exception {
        for (int attempt = 0; ; attempt++) {
            assertTrue(attempt < 100, "the barging thread never won three races in a row");
            ReentrantLock lock = new ReentrantLock();
            Starving w = starve(lock);
            int barged = 0;
            while (barged < 3 && lock.tryLock()) {
                barged++;
                Threads.untilParked(w.task.thread()); // woken (or not), and waiting again
                if (barged < 3) {
                    lock.unlock();
                }
            }
            if (barged < 3) { // the waiter won a race
                w.finish();
                continue;
            }
            assertEquals(1, w.got.getCount(), "the waiter is still waiting");
            lock.unlock();
            w.finish();
            return;
        }
    }

    /** A waiter on {@code lock} that holds it once it gets it, until {@link #finish}. */
    private record Starving(Threads.Task<Object> task, CountDownLatch got, CountDownLatch release) {
        /** Lets the waiter, once it has the lock, unlock and end. */
        void finish() {
            release.countDown();
            get(task);
        }
    }

    /**
     * The caller locks {@code lock}; a waiter queues behind it and waits past the starvation
     * threshold; the caller unlocks (waking the waiter) and returns without the lock.
     */
    private static Starving starve(Lock lock) {
        CountDownLatch got = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        lock.lock();
        var task = start(() -> {
            lock.lock();
            got.countDown();
            try {
                assertTrue(release.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            } finally {
                lock.unlock();
            }
            return null;
        });
        Threads.untilParked(task.thread());
        long parkedAt = System.nanoTime();
        while (System.nanoTime() - parkedAt < 2 * Mutex.STARVATION_THRESHOLD_NANOS) {
            LockSupport.parkNanos(Mutex.STARVATION_THRESHOLD_NANOS); // time passing, not a wait for a thread
        }
        lock.unlock();
        return new Starving(task, got, release);
    }

    @Test
    void conditionAwaitsAndSignals() {
        Mutex lock = new Mutex();
        LockTests.conditionAwaitsAndSignals(lock, lock::isLocked);
        assertThrows(IllegalMonitorStateException.class, lock.newCondition()::await, "await without the lock");
    }

    @Test
    void virtualThreadsParkWithoutPinning() throws Exception {
        // More virtual threads blocked on the lock than carriers: if waiting pinned a carrier, the
        // holder (also virtual) could not run to release it.
        Mutex lock = new Mutex();
        int carriers = Runtime.getRuntime().availableProcessors();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        var holder = start(Thread.ofVirtual(), () -> {
            lock.lock();
            holding.countDown();
            try {
                return letGo.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                lock.unlock();
            }
        });
        assertTrue(holding.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        List<Threads.Task<Object>> waiters = new ArrayList<>();
        for (int i = 0; i < carriers * 4; i++) {
            waiters.add(start(Thread.ofVirtual(), () -> {
                lock.lock();
                lock.unlock();
                return null;
            }));
        }
        for (var w : waiters) {
            Threads.untilParked(w.thread());
        }
        letGo.countDown();
        assertTrue(get(holder));
        for (var w : waiters) {
            get(w);
        }
        if (lock.isLocked()) {
            fail("left locked: " + lock);
        }
    }
}
