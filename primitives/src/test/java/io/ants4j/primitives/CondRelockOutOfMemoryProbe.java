package io.ants4j.primitives;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM of its own with a small heap ({@link CondRelockOutOfMemoryTest}): a thread waiting in
 * {@link Cond#await()} over a {@link Mutex} is signalled while another thread holds the lock, and the heap
 * is full as it takes the lock again (the lock's {@code lock()} fills it first, in the waiter's own thread, standing
 * for a heap exhausted at that moment): the contended {@code lock()} cannot allocate its queue node. Cond's javadoc:
 * "the lock is held again ... The lock is taken again with its own lock(): an OutOfMemoryError from it is retried
 * until memory is found". {@code relock()} retries after a {@code Thread.yield()}, which on a virtual thread on a full
 * heap throws {@code OutOfMemoryError} itself (unmounting allocates): {@code await} then throws without the lock.
 * Prints {@code OK} if {@code await} returned, or threw, with the lock held by the waiter (the other thread has let
 * it go by then, so the mutex is locked only if the waiter holds it). (A {@code ReentrantLock} would not show it:
 * its {@code lock()} spins when it cannot allocate its node, and never throws.)
 * {@code platform}: the waiter is a platform thread (the control); {@code virtual}: a virtual thread.
 */
final class CondRelockOutOfMemoryProbe {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration HOLD = Duration.ofSeconds(2);

    private static volatile boolean armed;
    private static volatile Throwable thrown;
    private static volatile boolean awaitEnded;

    private CondRelockOutOfMemoryProbe() {
    }

    /** A Mutex whose lock(), once armed, first fills the heap in the calling thread. */
    private static final class FillingLock extends MutexLock {
        @Override
        public void lock() {
            if (armed) {
                armed = false;
                OutOfMemoryProbe.fillHeap();
            }
            inner.lock();
        }
    }

    /**
     * A {@link Lock} that hands every call to its {@link Mutex}, {@code inner}: the base of the test locks that
     * change one call ({@link CondRelockTest} uses it too).
     */
    static class MutexLock implements Lock {
        final Mutex inner = new Mutex();

        @Override
        public void lock() {
            inner.lock();
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            inner.lockInterruptibly();
        }

        @Override
        public boolean tryLock() {
            return inner.tryLock();
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            return inner.tryLock(time, unit);
        }

        @Override
        public void unlock() {
            inner.unlock();
        }

        @Override
        public Condition newCondition() {
            return inner.newCondition();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean virtual = args[0].equals("virtual");
        FillingLock lock = new FillingLock();
        Cond cond = new Cond(lock);
        Runnable waiting = () -> {
            lock.lock();
            try {
                cond.await();
            } catch (Throwable t) {
                thrown = t;
            }
            OutOfMemoryProbe.releaseHeap();
            awaitEnded = true; // the waiter keeps what it holds: the check below reads the mutex
        };
        Thread waiter = (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true)).start(waiting);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!(waiter.getState() == Thread.State.WAITING && LockSupport.getBlocker(waiter) instanceof WaitQueue.Waiter)) {
            if (System.nanoTime() - deadline > 0L) {
                System.out.println("setup: the waiter never parked");
                System.exit(0);
            }
            Thread.yield();
        }
        lock.inner.lock(); // the lock is held when the waiter takes it again
        try {
            armed = true;
            cond.signal();
            long until = System.nanoTime() + HOLD.toNanos();
            while (waiter.isAlive() && System.nanoTime() - until < 0L) {
                Thread.onSpinWait();
            }
        } finally {
            lock.inner.unlock();
        }
        OutOfMemoryProbe.releaseHeap();
        boolean ended = waiter.join(WAIT);
        boolean heldAfter = lock.inner.isLocked(); // let go by this thread: held only by the waiter
        System.out.println(ended && awaitEnded && heldAfter ? "OK" : "FAILED: a " + (virtual ? "virtual" : "platform")
                + " thread signalled in Cond.await, taking a held Mutex again on a full heap, ended: " + ended
                + "; await threw " + thrown + "; the mutex held by it afterwards: " + heldAfter + ", " + lock.inner);
        System.exit(0);
    }
}
