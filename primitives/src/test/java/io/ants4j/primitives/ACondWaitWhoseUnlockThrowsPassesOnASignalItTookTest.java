package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review 49 probe of Cond's newest failure path (the unlock throws: the wait leaves its queue node, passing on a
 * signal it took, before it relocks). Cond.java:40-44: "Wake-ups are never lost. [...] exactly one waiter consumes
 * each signal that found one"; Cond.java:27-28: "broadcast wakes exactly the threads waiting at the time of the call,
 * none that start waiting afterwards"; Cond.java:101-116: "the thread is then not left waiting"; what the unlock of a
 * ReentrantLock or a ReentrantReadWriteLock's write lock "throws after it released the lock [...] is thrown with the
 * lock held again"; a relock that throws "is thrown as it is, and the lock is then not held".
 *
 * <p>The window is forced deterministically from inside the caller's failing {@code unlock()}: after it released
 * the lock, a second thread takes the lock and waits behind the failing waiter (queued second), and then a
 * {@code signal} (it takes the failing waiter's node, the head) or a {@code broadcast} is made, before the unlock
 * throws. The signal must reach the second waiter; a broadcast must not be passed on to a third waiter that queued
 * after it. Locks: a ReentrantLock subclass, a ReentrantReadWriteLock write lock subclass, and a caller's own Lock
 * (over a SpinLock) that Cond cannot know released. Passes on c96fc89 (kept as a regression probe).
 */
@Timeout(60)
class ACondWaitWhoseUnlockThrowsPassesOnASignalItTookTest {

    /** What the failing unlock does in its window, after releasing. */
    private interface Window {
        void run() throws Exception;
    }

    private static final class Failing {
        volatile Window window;
        /** The thread whose next lock() throws once. */
        volatile Thread relockThrows;

        /** Runs the window once, then throws; call after releasing. */
        void afterRelease() {
            Window w = window;
            if (w != null) {
                window = null;
                try {
                    w.run();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                throw new IllegalStateException("injected: unlock failed after releasing");
            }
        }

        void beforeLock() {
            if (relockThrows == Thread.currentThread()) {
                relockThrows = null;
                throw new IllegalStateException("injected: relock failed");
            }
        }
    }

    private static final class FailingReentrantLock extends ReentrantLock {
        final Failing f = new Failing();

        @Override
        public void unlock() {
            super.unlock();
            f.afterRelease();
        }

        @Override
        public void lock() {
            f.beforeLock();
            super.lock();
        }
    }

    private static final class FailingWriteLock extends ReentrantReadWriteLock.WriteLock {
        final Failing f = new Failing();

        FailingWriteLock() {
            super(new ReentrantReadWriteLock());
        }

        @Override
        public void unlock() {
            super.unlock();
            f.afterRelease();
        }

        @Override
        public void lock() {
            f.beforeLock();
            super.lock();
        }
    }

    /** A caller's own lock: Cond cannot know that its unlock released before it threw. */
    private static final class FailingUserLock implements Lock {
        final Failing f = new Failing();
        final SpinLock inner = new SpinLock();

        @Override
        public void lock() {
            f.beforeLock();
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
            f.afterRelease();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException();
        }

        boolean isLocked() {
            return inner.isLocked();
        }
    }

    private record Subject(Lock lock, Failing failing, boolean known) {
        static Subject of(String kind) {
            return switch (kind) {
                case "reentrant" -> {
                    FailingReentrantLock l = new FailingReentrantLock();
                    yield new Subject(l, l.f, true);
                }
                case "write" -> {
                    FailingWriteLock l = new FailingWriteLock();
                    yield new Subject(l, l.f, true);
                }
                default -> {
                    FailingUserLock l = new FailingUserLock();
                    yield new Subject(l, l.f, false);
                }
            };
        }

        boolean heldBySomeone() {
            if (lock instanceof ReentrantLock r) {
                return r.isLocked();
            }
            if (lock instanceof ReentrantReadWriteLock.WriteLock w) {
                return w.isHeldByCurrentThread() || !w.tryLock() || unlockAnd(w);
            }
            return ((FailingUserLock) lock).isLocked();
        }

        private static boolean unlockAnd(ReentrantReadWriteLock.WriteLock w) {
            w.unlock();
            return false;
        }
    }

    /** A thread that takes the lock, waits up to 10 s, and reports true (signalled), false (timed out) or a throwable. */
    private static Threads.Task<Object> waiter(Lock lock, Cond cond) {
        return Threads.start(() -> {
            lock.lock();
            try {
                return cond.await(10, TimeUnit.SECONDS);
            } catch (Throwable t) {
                return t;
            } finally {
                lock.unlock();
            }
        });
    }

    private static void untilParked(Threads.Task<Object> t) {
        Threads.until("the waiter parks in await", () -> t.thread().getState() == Thread.State.TIMED_WAITING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"reentrant", "write", "user"})
    void aSignalThatTookTheFailingWaitersNodeReachesTheNextWaiter(String kind) throws Exception {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        AtomicReference<Threads.Task<Object>> second = new AtomicReference<>();
        s.failing().window = () -> {
            Threads.Task<Object> w = waiter(s.lock(), cond); // the lock is free: it takes it and queues second
            untilParked(w);
            second.set(w);
            cond.signal(); // takes the head: the failing waiter's node
        };
        s.lock().lock();
        Throwable failed = null;
        try {
            cond.await(10, TimeUnit.SECONDS);
        } catch (Throwable t) {
            failed = t;
        }
        assertSame(IllegalStateException.class, failed == null ? null : failed.getClass(), "the wait threw " + failed);
        if (s.known()) {
            assertTrue(s.heldBySomeone(), "the unlock released and threw: the lock is held again");
            s.lock().unlock();
        }
        assertEquals(Boolean.TRUE, Threads.get(second.get()),
                "the signal the failed wait took was not passed on to the only thread still waiting");
    }

    @ParameterizedTest
    @ValueSource(strings = {"reentrant", "write", "user"})
    void aSignalThatTookTheFailingWaitersNodeReachesTheNextWaiterAlsoWhenTheRelockThrows(String kind)
            throws Exception {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        AtomicReference<Threads.Task<Object>> second = new AtomicReference<>();
        Thread self = Thread.currentThread();
        s.failing().window = () -> {
            Threads.Task<Object> w = waiter(s.lock(), cond);
            untilParked(w);
            second.set(w);
            cond.signal();
            s.failing().relockThrows = self;
        };
        s.lock().lock();
        Throwable failed = null;
        try {
            cond.await(10, TimeUnit.SECONDS);
        } catch (Throwable t) {
            failed = t;
        }
        assertSame(IllegalStateException.class, failed == null ? null : failed.getClass(), "the wait threw " + failed);
        if (!s.known()) {
            s.failing().relockThrows = null; // never relocked: Cond takes the caller's lock as still held
        }
        assertEquals(Boolean.TRUE, Threads.get(second.get()),
                "the signal the failed wait took was not passed on to the only thread still waiting");
        if (s.known()) { // read once the second waiter, woken by the signal passed on, has let the lock go
            assertFalse(s.heldBySomeone(), "the relock threw: the lock is not held");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"reentrant", "write", "user"})
    void aBroadcastThatTookTheFailingWaitersNodeIsNotPassedOnToALaterWaiter(String kind) throws Exception {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        AtomicReference<Threads.Task<Object>> second = new AtomicReference<>();
        AtomicReference<Threads.Task<Object>> third = new AtomicReference<>();
        s.failing().window = () -> {
            Threads.Task<Object> w = waiter(s.lock(), cond);
            untilParked(w);
            second.set(w);
            cond.broadcast(); // takes the failing waiter's node and the second's
            Threads.Task<Object> later = waiter(s.lock(), cond); // queues after the broadcast
            Threads.until("the second waiter has returned", () -> second.get().result().isDone());
            untilParked(later);
            third.set(later);
        };
        s.lock().lock();
        Throwable failed = null;
        try {
            cond.await(10, TimeUnit.SECONDS);
        } catch (Throwable t) {
            failed = t;
        }
        assertSame(IllegalStateException.class, failed == null ? null : failed.getClass(), "the wait threw " + failed);
        if (s.known()) {
            s.lock().unlock();
        }
        assertEquals(Boolean.TRUE, Threads.get(second.get()), "the broadcast did not wake the second waiter");
        assertFalse(third.get().result().isDone(), "a waiter that queued after the broadcast was woken by it");
        cond.signal();
        assertEquals(Boolean.TRUE, Threads.get(third.get()), "the third waiter was not woken by a later signal");
    }
}
