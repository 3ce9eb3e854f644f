package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interrupts.java:4-7: "How an interruptible wait of the primitives reports an interrupt: with an
 * InterruptedException, the thread's interrupt status cleared [...]; and, on a heap with no room for that exception,
 * with the OutOfMemoryError, the interrupt status still set, so that the caller can still see the interrupt";
 * Cond.java:99-100 "@throws InterruptedException if the thread is interrupted before being signalled"; Cond.java:107-111
 * "The lock is taken again with its own lock(): [...] anything else it throws is thrown as it is". The review brief's
 * "interrupts leaking or lost"; and the rule the other waits follow when something throws after their wait consumed
 * an interrupt (Mutex.acquire around resign(), RWMutex.sleep around leave(), WeightedSemaphore.await around grant(),
 * TaskSlots.await around leave(): "keep the interrupt").
 *
 * <p>A Cond over a lock whose {@code lock()} throws when the wait takes it again (a lock of the caller's, closed
 * meanwhile): the waiter is interrupted, its park consumes the interrupt status (WaitQueue.park's
 * {@code Thread.interrupted()}), then relock() throws the lock's exception, which Cond.await passes on as it is. The
 * caller gets neither an InterruptedException nor its interrupt status: the interrupt is lost. The uninterruptible
 * wait keeps it (park sets it again before the relock), so only the interruptible ones lose it.
 */
@Timeout(60)
class ACondWaitWhoseRelockThrowsKeepsTheInterruptTest {

    /** A lock of the caller's whose lock() throws once armed (for instance, a lock that was closed). */
    private static final class ClosableLock extends ReentrantLock {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public void lock() {
            if (closed.get()) {
                throw new IllegalStateException("closed");
            }
            super.lock();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Cond.await()", "Cond.await(timeout)", "Condition.awaitNanos"})
    void anInterruptedWaitWhoseRelockThrowsKeepsTheInterruptStatus(String how) throws Exception {
        ClosableLock lock = new ClosableLock();
        Cond cond = new Cond(lock);
        Condition condition = new CondCondition(cond);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean statusAfter = new AtomicBoolean();
        Thread waiter = Thread.ofPlatform().start(() -> {
            lock.lock();
            try {
                switch (how) {
                    case "Cond.await()" -> cond.await();
                    case "Cond.await(timeout)" -> cond.await(30, TimeUnit.SECONDS);
                    default -> condition.awaitNanos(TimeUnit.SECONDS.toNanos(30));
                }
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                statusAfter.set(Thread.currentThread().isInterrupted());
                if (lock.isHeldByCurrentThread()) {
                    lock.unlock();
                }
            }
        });
        // parked with the lock released: it is in the Cond's wait (it parks nowhere else)
        Threads.until("the waiter waits with the lock released", () -> !lock.isLocked() && waiterParked(waiter));
        lock.closed.set(true); // the waiter's relock will throw
        waiter.interrupt();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive(), "the waiter still waits");
        assertSame(IllegalStateException.class, thrown.get() == null ? null : thrown.get().getClass(),
                "the relock's exception is passed on as documented: " + thrown.get());
        assertTrue(statusAfter.get(), how + " consumed the interrupt, then threw the relock's " + thrown.get()
                + " with the interrupt status cleared: the interrupt is lost");
    }

    /**
     * The same with this library's locks only: a Cond over an {@link RWMutex}'s read lock (Cond "works over any
     * lock"), whose {@code lock()} throws {@code Error("Maximum lock count exceeded")} at 2^30 - 1 read holds
     * (RWMutex.java:48-51). The waiter's read hold is released as it waits; read holds are taken up to the maximum
     * meanwhile; the waiter is interrupted, and its relock throws that Error (passed on as it is, as documented) with
     * the interrupt status cleared. All but the last 1,000 holds are counted into the lock's word at once, by
     * {@code RWMutexTest.holdReadLocks} (taking all 2^30 - 1 with tryLock() took 5 to 11 s); the last ones are
     * taken with tryLock(), up to the maximum's Error.
     */
    @org.junit.jupiter.api.Test
    void anInterruptedWaitOverAnRWMutexReadLockAtItsMaximumKeepsTheInterruptStatus() throws Exception {
        RWMutex rw = new RWMutex();
        Lock read = rw.readLock();
        Cond cond = new Cond(read);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean statusAfter = new AtomicBoolean();
        Thread waiter = Thread.ofPlatform().start(() -> {
            read.lock();
            try {
                cond.await();
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                statusAfter.set(Thread.currentThread().isInterrupted());
            }
        });
        Threads.until("the waiter waits with its read hold released", () -> rw.readers() == 0 && waiterParked(waiter));
        RWMutexTest.holdReadLocks(rw, RWMutexTest.MAX_READ_HOLDS - 1_000);
        Error max = null;
        try {
            while (read.tryLock()) {
                // read holds up to the maximum
            }
        } catch (Error e) {
            max = e;
        }
        assertSame(Error.class, max == null ? null : max.getClass(), "the read holds did not reach the maximum: " + max);
        waiter.interrupt();
        waiter.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(waiter.isAlive(), "the waiter still waits");
        assertSame(Error.class, thrown.get() == null ? null : thrown.get().getClass(),
                "the relock's Error is passed on as documented: " + thrown.get());
        assertTrue(statusAfter.get(), "Cond.await over an RWMutex read lock consumed the interrupt, then threw the "
                + "relock's " + thrown.get() + " with the interrupt status cleared: the interrupt is lost");
    }

    private static boolean waiterParked(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }
}
