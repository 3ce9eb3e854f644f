package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/**
 * Review 41: ordinary contracts of Cond/Condition, WeightedSemaphore and RWMutex that no test named them for.
 * These pass on the current code (the sound list of the review's report).
 */
class CondAndSemaphoreEdgeContractsTest {

    /** Cond javadoc: "it works over any lock"; Go's sync.NewCond(rw.RLocker()): broadcast wakes every reader waiting. */
    @Test
    void aCondOverAnRWMutexReadLockWakesEveryReaderOnBroadcast() throws Exception {
        RWMutex rw = new RWMutex();
        Cond cond = new Cond(rw.readLock());
        AtomicInteger woken = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            Thread.ofPlatform().start(() -> {
                rw.readLock().lock();
                try {
                    cond.awaitUninterruptibly();
                    woken.incrementAndGet();
                } finally {
                    rw.readLock().unlock();
                }
                done.countDown();
            });
        }
        Threads.until("both readers wait (none holds the read lock)", () -> rw.readers() == 0 && done.getCount() == 2
                && rw.writeLock().tryLock() && unlock(rw.writeLock()));
        // the writer could take it: the two readers released their holds while waiting; wait until both queued
        Threads.until("two waiters", () -> cond.toString() != null && woken.get() == 0 && queued(cond) == 2);
        cond.broadcast();
        assertTrue(done.await(20, TimeUnit.SECONDS), "broadcast did not wake both readers");
        assertEquals(2, woken.get());
        assertEquals(0, rw.readers(), "read holds drifted");
    }

    private static boolean unlock(Lock l) {
        l.unlock();
        return true;
    }

    private static int queued(Cond cond) {
        try {
            var f = Cond.class.getDeclaredField("queue");
            f.setAccessible(true);
            WaitQueue q = (WaitQueue) f.get(cond);
            int n = 0;
            q.lock.lock();
            try {
                for (WaitQueue.Waiter w = q.first(); w != null; w = w.next) {
                    n++;
                }
            } finally {
                q.lock.unlock();
            }
            return n;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Condition.awaitNanos: "A value less than or equal to zero indicates that no time remains"; the lock is held again. */
    @Test
    void awaitNanosThatTimesOutReturnsNoTimeLeftAndHoldsTheLock() throws Exception {
        Mutex m = new Mutex();
        Condition c = m.newCondition();
        m.lock();
        try {
            assertTrue(c.awaitNanos(1_000_000L) <= 0L);
            assertTrue(c.awaitNanos(0L) <= 0L);
            assertTrue(c.awaitNanos(-5L) <= 0L);
            assertFalse(c.awaitUntil(new java.util.Date(System.currentTimeMillis() - 1000)));
            assertFalse(c.await(0, TimeUnit.NANOSECONDS));
            assertTrue(m.isLocked());
        } finally {
            m.unlock();
        }
        assertFalse(m.isLocked());
    }

    /** Cond: awaitUninterruptibly "keeps waiting if interrupted; the interrupt status is set again when it returns". */
    @Test
    void awaitUninterruptiblyKeepsWaitingThroughAnInterrupt() throws Exception {
        Mutex m = new Mutex();
        Cond cond = new Cond(m);
        CountDownLatch returned = new CountDownLatch(1);
        boolean[] flag = new boolean[1];
        Thread t = Thread.ofPlatform().start(() -> {
            m.lock();
            try {
                cond.awaitUninterruptibly();
                flag[0] = Thread.currentThread().isInterrupted();
            } finally {
                m.unlock();
            }
            returned.countDown();
        });
        Threads.until("waiting", () -> queued(cond) == 1);
        t.interrupt();
        assertFalse(returned.await(50, TimeUnit.MILLISECONDS), "returned on an interrupt");
        cond.signal();
        assertTrue(returned.await(20, TimeUnit.SECONDS));
        assertTrue(flag[0], "interrupt status not set again");
    }

    /** WeightedSemaphore: "while only such a request waits, other acquisitions, tryAcquire included, succeed". */
    @Test
    void aTimedTryAcquireOfZeroTimeoutSucceedsWhileOnlyAnOversizedRequestWaits() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(2);
        Thread big = Thread.ofPlatform().start(() -> {
            try {
                s.acquire(3);
            } catch (InterruptedException expected) {
            }
        });
        Threads.until("oversized waits", () -> big.getState() == Thread.State.WAITING);
        assertTrue(s.tryAcquire(2, 0, TimeUnit.SECONDS));
        s.release(2);
        assertTrue(s.tryAcquire(0, 0, TimeUnit.SECONDS));
        big.interrupt();
        big.join(20_000);
        assertEquals(2, s.available());
    }

    /** RWMutex: a writer that times out waiting for readers "lets in the readers it held back and gives up its place". */
    @Test
    void aWriterTimingOutBehindAReaderLetsTheHeldBackReaderIn() throws Exception {
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        CountDownLatch writerWaits = new CountDownLatch(1);
        var writer = Threads.start(() -> {
            writerWaits.countDown();
            return rw.writeLock().tryLock(200, TimeUnit.MILLISECONDS);
        });
        writerWaits.await();
        Threads.until("writer pending", () -> rw.toString().contains("writer pending"));
        assertFalse(rw.readLock().tryLock(), "a reader got in while a writer waits");
        var reader = Threads.start(() -> {
            rw.readLock().lock();
            return true;
        });
        assertFalse(Threads.get(writer), "the writer got the lock while a reader held it");
        assertTrue(Threads.get(reader), "the held-back reader was not let in");
        assertEquals(2, rw.readers());
        rw.readLock().unlock();
        rw.readLock().unlock();
        assertEquals(0, rw.readers());
        assertTrue(rw.writeLock().tryLock(), "a free RWMutex refused its write lock");
        rw.writeLock().unlock();
    }
}
