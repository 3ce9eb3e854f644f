package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.failure;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WeightedSemaphoreTest {
    private static final long TIMEOUT_MS = Threads.TIMEOUT.toMillis();

    /** Go's TestWeightedTryAcquire. */
    @Test
    void tryAcquireAsGo() {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        assertTrue(sem.tryAcquire(1));
        assertTrue(sem.tryAcquire(1));
        assertFalse(sem.tryAcquire(1));
        sem.release(2);
        assertTrue(sem.tryAcquire(1));
        assertTrue(sem.tryAcquire(1));
        assertFalse(sem.tryAcquire(1));
        assertEquals(0, sem.available());
    }

    /** Go's TestWeightedAcquire, with the timed tryAcquire in the role of a context with a timeout. */
    @Test
    void timedAcquireAsGo() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(1);
        assertTrue(sem.tryAcquire(1, 10, TimeUnit.MILLISECONDS));
        assertFalse(sem.tryAcquire(1, 10, TimeUnit.MILLISECONDS));
        sem.release(2);
        assertTrue(sem.tryAcquire(1, 10, TimeUnit.MILLISECONDS));
        sem.acquire(1);
        assertFalse(sem.tryAcquire(1, 10, TimeUnit.MILLISECONDS));
        assertState(sem, 0, 0);
    }

    @Test
    void releasingMoreThanHeldThrowsAndChangesNothing() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(5);
        var e = assertThrows(IllegalStateException.class, () -> sem.release(1)); // Go's TestWeightedPanic
        assertEquals("released more than held", e.getMessage());
        assertEquals(5, sem.available());
        sem.acquire(3);
        assertThrows(IllegalStateException.class, () -> sem.release(4));
        assertThrows(IllegalStateException.class, () -> sem.release(Long.MAX_VALUE)); // no overflow into "fits"
        assertEquals(2, sem.available());
        // The same on the locked path, with a waiter queued: it keeps waiting and is granted later.
        var waiter = queued(sem, 5, "acquired", 1);
        assertThrows(IllegalStateException.class, () -> sem.release(4));
        assertState(sem, 2, 1);
        Threads.assertNotDone(waiter.result());
        sem.release(3);
        assertEquals("acquired", get(waiter));
        assertState(sem, 0, 0);
    }

    @Test
    void negativeArgumentsThrowNamingTheValue() {
        var e = assertThrows(IllegalArgumentException.class, () -> new WeightedSemaphore(-1));
        assertTrue(e.getMessage().contains("size") && e.getMessage().contains("-1"), e.getMessage());
        WeightedSemaphore sem = new WeightedSemaphore(3);
        e = assertThrows(IllegalArgumentException.class, () -> sem.acquire(-2));
        assertTrue(e.getMessage().contains("-2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sem.tryAcquire(-1));
        assertThrows(IllegalArgumentException.class, () -> sem.tryAcquire(Long.MIN_VALUE, 1, TimeUnit.SECONDS));
        e = assertThrows(IllegalArgumentException.class, () -> sem.release(-3));
        assertTrue(e.getMessage().contains("-3"), e.getMessage());
        assertThrows(NullPointerException.class, () -> sem.tryAcquire(1, 1, null));
        assertState(sem, 3, 0);
    }

    @Test
    void sizesFromZeroToLongMax() throws Exception {
        WeightedSemaphore none = new WeightedSemaphore(0);
        assertTrue(none.tryAcquire(0));
        assertFalse(none.tryAcquire(1));
        WeightedSemaphore huge = new WeightedSemaphore(Long.MAX_VALUE);
        huge.acquire(Long.MAX_VALUE - 1);
        assertEquals(1, huge.available());
        assertThrows(IllegalStateException.class, () -> huge.release(Long.MAX_VALUE));
        huge.release(Long.MAX_VALUE - 1);
        assertTrue(huge.tryAcquire(Long.MAX_VALUE));
        assertEquals(0, huge.available());
        huge.release(Long.MAX_VALUE);
        assertState(huge, Long.MAX_VALUE, 0);
    }

    /** Waiters are served in arrival order: the second never before the first. */
    @Test
    void waitersAreServedInArrivalOrder() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        sem.acquire(1);
        List<Threads.Task<Long>> waiters = new ArrayList<>();
        AtomicLong order = new AtomicLong();
        for (int i = 0; i < 4; i++) {
            waiters.add(start(Thread.ofVirtual(), () -> {
                sem.acquire(1);
                return order.getAndIncrement();
            }));
            int queued = i + 1;
            Threads.until(queued + " waiters", () -> sem.toString().endsWith("waiting=" + queued + "]"));
        }
        for (int i = 0; i < 4; i++) {
            sem.release(1);
            assertEquals(i, get(waiters.get(i)), "waiter " + i + " is served " + i + "th");
        }
        sem.release(1);
        assertState(sem, 1, 0);
    }

    /**
     * Go's head-of-line rule: a waiter that does not fit holds back those behind it, even when
     * theirs would fit, and newcomers cannot take the free permits either.
     */
    @Test
    void aWaiterThatDoesNotFitHoldsBackTheOnesBehindIt() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(10);
        sem.acquire(5);
        var large = queued(sem, 10, "large", 1);
        var small = queued(sem, 1, "small", 2);
        assertFalse(sem.tryAcquire(1), "5 are free, but a thread waits");
        assertFalse(sem.tryAcquire(0), "even zero: a thread waits");
        assertFalse(sem.tryAcquire(1, 1, TimeUnit.MILLISECONDS));
        assertState(sem, 5, 2);
        Threads.assertNotDone(small.result());
        sem.release(5);
        assertEquals("large", get(large));
        assertState(sem, 0, 1);
        Threads.assertNotDone(small.result());
        sem.release(10);
        assertEquals("small", get(small));
        assertState(sem, 9, 0);
    }

    /** One release grants every waiter from the head that fits, and stops at the first that does not. */
    @Test
    void oneReleaseGrantsEveryWaiterThatFitsInOrder() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(6);
        sem.acquire(6);
        long[] asks = {1, 2, 3, 1};
        List<Threads.Task<String>> waiters = new ArrayList<>();
        for (int i = 0; i < asks.length; i++) {
            long n = asks[i];
            waiters.add(start(Thread.ofVirtual(), () -> {
                sem.acquire(n);
                return "got " + n;
            }));
            int queued = i + 1;
            Threads.until(queued + " waiters", () -> sem.toString().endsWith("waiting=" + queued + "]"));
        }
        sem.release(5); // 1 + 2 fit, 3 does not (2 left), so the last 1 waits too
        assertEquals("got 1", get(waiters.get(0)));
        assertEquals("got 2", get(waiters.get(1)));
        assertState(sem, 2, 2);
        sem.release(1);
        assertEquals("got 3", get(waiters.get(2)));
        assertState(sem, 0, 1);
        sem.release(1);
        assertEquals("got 1", get(waiters.get(3)));
        sem.release(6);
        assertState(sem, 6, 0);
    }

    /** Go's TestLargeAcquireDoesntStarve: holders that release and re-acquire 1 cannot starve acquire(n). */
    @Test
    void largeAcquireDoesNotStarve() throws Exception {
        int n = 4;
        WeightedSemaphore sem = new WeightedSemaphore(n);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> holders = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sem.acquire(1);
            holders.add(Thread.ofPlatform().daemon().start(() -> {
                try {
                    while (running.get()) {
                        Thread.onSpinWait();
                        sem.release(1);
                        sem.acquire(1);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    sem.release(1);
                }
            }));
        }
        try {
            assertTrue(sem.tryAcquire(n, TIMEOUT_MS, TimeUnit.MILLISECONDS), "acquire(n) starved");
        } finally {
            running.set(false);
        }
        sem.release(n);
        for (Thread t : holders) {
            Threads.join(t);
        }
        assertState(sem, n, 0);
    }

    /**
     * Go's TestAllocCancelDoesntStarve: a large request at the head that gives up wakes the small
     * one queued behind it, which fits. Here the large waiter is interrupted; the next test times
     * it out.
     */
    @Test
    void aLargeWaiterThatIsInterruptedWakesTheOnesBehindIt() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(10);
        sem.acquire(1);
        var large = start(() -> acquireOrInterrupted(sem, 10));
        Threads.until("the large waiter", () -> sem.toString().endsWith("waiting=1]"));
        var small = queued(sem, 1, "small", 2);
        large.thread().interrupt();
        assertEquals("interrupted", get(large));
        assertEquals("small", get(small));
        assertState(sem, 8, 0);
    }

    /** As above, with the large waiter timing out (after the small one has queued behind it). */
    @Test
    void aLargeWaiterThatTimesOutWakesTheOnesBehindIt() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(10);
        sem.acquire(1);
        var large = start(() -> sem.tryAcquire(10, 1, TimeUnit.SECONDS));
        Threads.until("the large waiter", () -> sem.toString().endsWith("waiting=1]"));
        var small = queued(sem, 1, "small", 2);
        assertFalse(get(large));
        assertEquals("small", get(small));
        assertState(sem, 8, 0);
    }

    /**
     * A waiter that gives up after its permits were granted (the grant won the lock first) gives
     * them back, and they go on to the waiter behind it. Deterministic: the test holds the
     * semaphore's lock while the waiter, interrupted or timed out, waits for it, and makes the
     * grant itself under that lock, as a release that got there first would.
     */
    @Test
    void aGrantThatRacedWithTheInterruptOrTimeoutIsGivenBackAndPassedOn() throws Throwable {
        for (boolean interrupt : new boolean[] {true, false}) {
            WeightedSemaphore sem = new WeightedSemaphore(1);
            sem.acquire(1);
            var first = start(() -> interrupt
                    ? acquireOrInterrupted(sem, 1)
                    : sem.tryAcquire(1, 200, TimeUnit.MILLISECONDS) ? "acquired" : "timed out");
            Threads.until("the first waiter", () -> sem.toString().endsWith("waiting=1]"));
            var second = queued(sem, 1, "second", 2);
            Threads.untilParked(first.thread());
            SpinLock lock = lockOf(sem);
            lock.lock();
            try {
                if (interrupt) {
                    first.thread().interrupt();
                }
                Threads.until("the first waiter gives up", () -> first.thread().getState() == Thread.State.RUNNABLE);
                Object granted = GRANT_LOCKED.invoke(sem, 1L); // the release: grants the head, the first waiter
                assertTrue(granted instanceof WaitQueue.Waiter w && w.thread == first.thread() && w.next == null);
            } finally {
                lock.unlock();
            }
            assertEquals(interrupt ? "interrupted" : "timed out", get(first));
            assertEquals("second", get(second));
            assertState(sem, 0, 0);
            sem.release(1);
            assertState(sem, 1, 0);
        }
    }

    /** Interrupts racing releases, undirected: whatever wins, no permit is lost or duplicated. */
    @Test
    void interruptsRacingReleasesLoseNothing() throws Exception {
        for (int i = 0; i < 200; i++) {
            WeightedSemaphore sem = new WeightedSemaphore(1);
            sem.acquire(1);
            var racer = start(() -> {
                String outcome = acquireOrInterrupted(sem, 1);
                if (outcome.equals("acquired")) {
                    sem.release(1);
                }
                return outcome;
            });
            var other = start(() -> sem.tryAcquire(1, TIMEOUT_MS, TimeUnit.MILLISECONDS));
            Threads.until("2 waiters", () -> sem.toString().endsWith("waiting=2]"));
            racer.thread().interrupt();
            sem.release(1);
            String outcome = get(racer);
            assertTrue(outcome.equals("interrupted") || outcome.equals("acquired"), outcome);
            assertTrue(get(other.result()), "the other waiter is served");
            assertState(sem, 0, 0);
            sem.release(1);
            assertState(sem, 1, 0);
        }
    }

    /** Go's TestWeightedDoesntBlockIfTooBig: a request above the size waits without holding others back. */
    @Test
    void aRequestAboveTheSizeWaitsWithoutQueueing() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        var tooBig = start(() -> acquireOrInterrupted(sem, 3));
        Threads.untilParked(tooBig.thread());
        assertState(sem, 2, 0);
        List<Threads.Task<String>> small = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            small.add(start(Thread.ofVirtual(), () -> {
                sem.acquire(1);
                sem.release(1);
                return "ok";
            }));
        }
        for (var t : small) {
            assertEquals("ok", get(t));
        }
        assertTrue(sem.tryAcquire(2));
        sem.release(2);
        Threads.assertNotDone(tooBig.result());
        tooBig.thread().interrupt();
        assertEquals("interrupted", get(tooBig));
        assertFalse(sem.tryAcquire(3, 5, TimeUnit.MILLISECONDS));
        assertFalse(sem.tryAcquire(3));
        assertState(sem, 2, 0);
    }

    /** Go's rule for zero: immediate when nobody waits (even with nothing free), else in turn. */
    @Test
    void zeroPermitsFollowTheQueue() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        sem.acquire(1);
        sem.acquire(0);
        assertTrue(sem.tryAcquire(0));
        assertTrue(sem.tryAcquire(0, 0, TimeUnit.SECONDS));
        sem.release(0);
        var one = queued(sem, 1, "one", 1);
        var zero = queued(sem, 0, "zero", 2);
        assertFalse(sem.tryAcquire(0));
        sem.release(1);
        assertEquals("one", get(one));
        assertEquals("zero", get(zero));
        assertState(sem, 0, 0);
    }

    @Test
    void interruptedOnEntryThrowsEvenWhenThePermitsAreFree() {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> sem.acquire(1));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> sem.tryAcquire(1, 1, TimeUnit.SECONDS));
        Thread.currentThread().interrupt();
        assertTrue(sem.tryAcquire(1), "the untimed tryAcquire ignores interrupts");
        assertTrue(Thread.interrupted());
        sem.release(1);
        assertState(sem, 1, 0);
    }

    @Test
    void interruptedWaiterLeavesTheQueue() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        sem.acquire(1);
        var waiter = queued(sem, 1, "acquired", 1);
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(waiter.result()));
        assertState(sem, 0, 0);
        sem.release(1);
        assertTrue(sem.tryAcquire(1), "no one waits any more");
    }

    /** Zero and negative timeouts do not wait, and the most negative ones do not overflow the deadline. */
    @Test
    void nonPositiveTimeoutsDoNotWait() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        assertTrue(sem.tryAcquire(1, 0, TimeUnit.NANOSECONDS));
        assertFalse(sem.tryAcquire(1, 0, TimeUnit.NANOSECONDS));
        assertFalse(get(start(() -> sem.tryAcquire(1, -1, TimeUnit.SECONDS))));
        assertFalse(get(start(() -> sem.tryAcquire(1, Long.MIN_VALUE, TimeUnit.NANOSECONDS))));
        assertFalse(get(start(() -> sem.tryAcquire(1, Long.MIN_VALUE, TimeUnit.DAYS))));
        assertFalse(get(start(() -> sem.tryAcquire(2, Long.MIN_VALUE, TimeUnit.DAYS))));
        assertState(sem, 0, 0);
    }

    /**
     * Go's TestWeighted, on virtual threads: requests of every weight up to the size; the permits
     * held at once never exceed it, everyone is served, and all permits come back.
     */
    @Test
    void permitsHeldNeverExceedTheSize() throws Exception {
        int size = 8;
        WeightedSemaphore sem = new WeightedSemaphore(size);
        AtomicLong held = new AtomicLong();
        AtomicLong maxHeld = new AtomicLong();
        List<Threads.Task<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            long n = i % (size + 1);
            tasks.add(start(Thread.ofVirtual(), () -> {
                for (int k = 0; k < 300; k++) {
                    boolean timed = ThreadLocalRandom.current().nextBoolean();
                    if (timed && !sem.tryAcquire(n, ThreadLocalRandom.current().nextInt(50), TimeUnit.MICROSECONDS)) {
                        continue;
                    } else if (!timed) {
                        sem.acquire(n);
                    }
                    long now = held.addAndGet(n);
                    maxHeld.accumulateAndGet(now, Math::max);
                    Thread.yield();
                    held.addAndGet(-n);
                    sem.release(n);
                }
                return 0;
            }));
        }
        for (var t : tasks) {
            get(t);
        }
        assertTrue(maxHeld.get() <= size, "held at once: " + maxHeld.get());
        assertState(sem, size, 0);
    }

    /** A release happens-before the acquire that obtains its permits (Go's race tests, by hand). */
    @Test
    void acquireSeesTheWritesBeforeTheRelease() throws Exception {
        for (int i = 0; i < 500; i++) {
            WeightedSemaphore sem = new WeightedSemaphore(2);
            sem.acquire(2);
            int[] data = new int[1];
            var reader = start(Thread.ofVirtual(), () -> {
                sem.acquire(2);
                return data[0];
            });
            Thread.ofVirtual().start(() -> {
                data[0] = 42;
                sem.release(2);
            });
            assertEquals(42, get(reader), "iteration " + i);
        }
    }

    @Test
    void toStringShowsSizeAvailableAndWaiting() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(3);
        sem.acquire(2);
        assertTrue(sem.toString().matches("io\\.ants4j\\.primitives\\.WeightedSemaphore@\\p{XDigit}+\\[size=3, available=1, waiting=0]"), sem.toString());
    }

    /**
     * Starts a thread that acquires {@code n} permits and returns {@code label}, and waits until
     * it is queued as the {@code position}th waiter.
     */
    private static Threads.Task<String> queued(WeightedSemaphore sem, long n, String label, int position) {
        var task = start(() -> {
            sem.acquire(n);
            return label;
        });
        Threads.until(label + " queued", () -> sem.toString().endsWith("waiting=" + position + "]"));
        return task;
    }

    private static String acquireOrInterrupted(WeightedSemaphore sem, long n) {
        try {
            sem.acquire(n);
            return "acquired";
        } catch (InterruptedException e) {
            return "interrupted";
        }
    }

    private static void assertState(WeightedSemaphore sem, long available, int waiting) {
        assertEquals(available, sem.available(), sem::toString);
        assertTrue(sem.toString().endsWith(", available=" + available + ", waiting=" + waiting + "]"), sem.toString());
    }

    private static final MethodHandle GRANT_LOCKED;

    static {
        try {
            GRANT_LOCKED = MethodHandles.privateLookupIn(WeightedSemaphore.class, MethodHandles.lookup())
                    .findVirtual(WeightedSemaphore.class, "grantLocked", MethodType.methodType(WaitQueue.Waiter.class, long.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The lock that guards a semaphore's waiters. */
    private static SpinLock lockOf(WeightedSemaphore sem) throws ReflectiveOperationException {
        return ((WaitQueue) MethodHandles.privateLookupIn(WeightedSemaphore.class, MethodHandles.lookup())
                .findVarHandle(WeightedSemaphore.class, "queue", WaitQueue.class).get(sem)).lock;
    }
}
