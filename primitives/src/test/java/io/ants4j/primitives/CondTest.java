package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.failure;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CondTest {
    private static final long TIMEOUT_MS = Threads.TIMEOUT.toMillis();

    static Stream<Supplier<Lock>> locks() {
        return Stream.of(named(SpinLock::new, "SpinLock"), named(ReentrantLock::new, "ReentrantLock"));
    }

    private static Supplier<Lock> named(Supplier<Lock> s, String name) {
        return new Supplier<>() {
            @Override
            public Lock get() {
                return s.get();
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    private static <T> T poll(BlockingQueue<T> q) throws InterruptedException {
        T v = q.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        if (v == null) {
            throw new AssertionError("nothing arrived within " + TIMEOUT_MS + " ms");
        }
        return v;
    }

    /** Starts a thread that waits on {@code cond} once, then reports {@code id} on {@code awake}. */
    private static Threads.Task<Object> waiter(Cond cond, int id, BlockingQueue<Integer> awake) throws InterruptedException {
        Lock lock = cond.locker();
        BlockingQueue<Boolean> running = new LinkedBlockingQueue<>();
        var task = start(Thread.ofVirtual(), () -> {
            lock.lock();
            try {
                running.add(true);
                cond.await();
                awake.add(id);
            } finally {
                lock.unlock();
            }
            return null;
        });
        poll(running);
        lock.lock(); // the waiter released the lock inside await: it is queued now
        lock.unlock();
        return task;
    }

    /** Go's TestCondSignalGenerations: each signal wakes the oldest waiter, across 100 generations. */
    @ParameterizedTest
    @MethodSource("locks")
    void signalWakesTheOldestWaiter(Supplier<Lock> locks) throws Exception {
        Cond cond = new Cond(locks.get());
        BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
        for (int i = 0; i < 100; i++) {
            waiter(cond, i, awake);
            if (i > 0) {
                assertEquals(i - 1, poll(awake), "wrong thread woke up");
            }
            cond.signal();
        }
        assertEquals(99, poll(awake));
    }

    @ParameterizedTest
    @MethodSource("locks")
    void signalWakesInFifoOrderAndExactlyOne(Supplier<Lock> locks) throws Exception {
        Cond cond = new Cond(locks.get());
        BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
        for (int i = 0; i < 10; i++) {
            waiter(cond, i, awake);
        }
        for (int i = 0; i < 10; i++) {
            cond.signal();
            assertEquals(i, poll(awake));
            assertTrue(awake.isEmpty(), "one signal woke more than one waiter");
        }
        cond.signal(); // nobody waits: a no-op
    }

    /** Go's TestCondBroadcast: every waiter wakes exactly once. */
    @ParameterizedTest
    @MethodSource("locks")
    void broadcastWakesEveryCurrentWaiterOnce(Supplier<Lock> locks) throws Exception {
        Cond cond = new Cond(locks.get());
        BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
        int n = 20;
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < n; i++) {
                waiter(cond, i, awake);
            }
            cond.broadcast();
            boolean[] seen = new boolean[n];
            for (int i = 0; i < n; i++) {
                int id = poll(awake);
                assertFalse(seen[id], "woke twice: " + id);
                seen[id] = true;
            }
        }
    }

    @Test
    void broadcastDoesNotWakeLaterWaiters() throws Exception {
        Cond cond = new Cond(new SpinLock());
        BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
        waiter(cond, 1, awake);
        cond.broadcast();
        assertEquals(1, poll(awake));
        var late = waiter(cond, 2, awake);
        Threads.untilParked(late.thread());
        assertTrue(awake.isEmpty());
        cond.signal();
        assertEquals(2, poll(awake));
    }

    /** Go's TestCondSignalStealing: a broadcast racing with a new waiter still wakes the old one. */
    @Test
    void signalStealing() throws Exception {
        for (int iter = 0; iter < 300; iter++) {
            SpinLock lock = new SpinLock();
            Cond cond = new Cond(lock);
            BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
            waiter(cond, 1, awake);
            boolean[] done = new boolean[1];
            Thread.ofVirtual().start(cond::broadcast);
            var second = start(Thread.ofVirtual(), () -> {
                lock.lock();
                try {
                    while (!done[0]) {
                        cond.await();
                    }
                } finally {
                    lock.unlock();
                }
                return null;
            });
            assertEquals(1, poll(awake), "the first waiter was not woken");
            lock.lock();
            done[0] = true;
            lock.unlock();
            cond.broadcast();
            get(second.result());
        }
    }

    @ParameterizedTest
    @MethodSource("locks")
    void awaitWithoutTheLockThrowsAndLeavesNoWaiter(Supplier<Lock> locks) throws Exception {
        Cond cond = new Cond(locks.get());
        assertThrows(IllegalMonitorStateException.class, cond::await);
        assertThrows(IllegalMonitorStateException.class, cond::awaitUninterruptibly);
        assertThrows(IllegalMonitorStateException.class, () -> cond.await(1, TimeUnit.SECONDS));
        BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
        waiter(cond, 7, awake);
        cond.signal(); // must reach the real waiter, not a phantom left by the failed calls
        assertEquals(7, poll(awake));
    }

    @Test
    void reentrantLockHeldTwiceIsRefused() {
        ReentrantLock lock = new ReentrantLock();
        Cond cond = new Cond(lock);
        lock.lock();
        lock.lock();
        try {
            assertThrows(IllegalMonitorStateException.class, cond::await);
            assertEquals(2, lock.getHoldCount());
        } finally {
            lock.unlock();
            lock.unlock();
        }
    }

    /**
     * A read-write lock's write lock held twice, like a ReentrantLock held twice: await would
     * release one hold and park while the lock stays held, so that no thread could take it to
     * signal (a deadlock). It is refused, by every form of await, and the holds are kept.
     */
    @Test
    void writeLockHeldTwiceIsRefused() throws Exception {
        ReentrantReadWriteLock rw = new ReentrantReadWriteLock();
        Cond cond = new Cond(rw.writeLock());
        rw.writeLock().lock();
        rw.writeLock().lock();
        try {
            var e = assertThrows(IllegalMonitorStateException.class, () -> cond.await(20, TimeUnit.MILLISECONDS));
            assertTrue(e.getMessage().contains("2 holds"), e.getMessage());
            assertThrows(IllegalMonitorStateException.class, cond::await);
            assertThrows(IllegalMonitorStateException.class, cond::awaitUninterruptibly);
            assertEquals(2, rw.getWriteHoldCount());
            assertFalse(get(start(() -> rw.writeLock().tryLock())), "still held");
        } finally {
            rw.writeLock().unlock();
            rw.writeLock().unlock();
        }
        rw.writeLock().lock(); // held once: await works
        try {
            assertFalse(cond.await(1, TimeUnit.MILLISECONDS));
            assertEquals(1, rw.getWriteHoldCount());
        } finally {
            rw.writeLock().unlock();
        }
    }

    @ParameterizedTest
    @MethodSource("locks")
    void timedAwaitTimesOutHoldingTheLock(Supplier<Lock> locks) throws Exception {
        Lock lock = locks.get();
        Cond cond = new Cond(lock);
        lock.lock();
        try {
            assertFalse(cond.await(5, TimeUnit.MILLISECONDS));
            assertFalse(cond.await(0, TimeUnit.MILLISECONDS));
            assertFalse((boolean) get(start(lock::tryLock)), "the lock is held again");
        } finally {
            lock.unlock();
        }
        BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
        waiter(cond, 3, awake);
        cond.signal();
        assertEquals(3, poll(awake), "the timed-out waiter left the queue");
    }

    @Test
    void timedAwaitReturnsTrueWhenSignalled() throws Exception {
        SpinLock lock = new SpinLock();
        Cond cond = new Cond(lock);
        var waiter = start(() -> {
            lock.lock();
            try {
                return cond.await(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } finally {
                lock.unlock();
            }
        });
        Threads.untilParked(waiter.thread());
        cond.signal();
        assertTrue(get(waiter.result()));
    }

    @Test
    void interruptedWaiterThrowsHoldingTheLock() throws Exception {
        SpinLock lock = new SpinLock();
        Cond cond = new Cond(lock);
        var waiter = start(() -> {
            lock.lock();
            try {
                cond.await();
                return "signalled";
            } catch (InterruptedException e) {
                return lock.isLocked() ? "interrupted, locked" : "interrupted, unlocked";
            } finally {
                lock.unlock();
            }
        });
        Threads.untilParked(waiter.thread());
        waiter.thread().interrupt();
        assertEquals("interrupted, locked", get(waiter.result()));
        Thread.currentThread().interrupt();
        lock.lock();
        try {
            assertThrows(InterruptedException.class, cond::await);
        } finally {
            lock.unlock();
        }
    }

    @Test
    void awaitUninterruptiblyIgnoresInterruptsAndRestoresTheFlag() throws Exception {
        SpinLock lock = new SpinLock();
        Cond cond = new Cond(lock);
        var waiter = start(() -> {
            lock.lock();
            try {
                cond.awaitUninterruptibly();
                return Thread.currentThread().isInterrupted();
            } finally {
                lock.unlock();
            }
        });
        Threads.untilParked(waiter.thread());
        waiter.thread().interrupt();
        Threads.untilParked(waiter.thread());
        Threads.assertNotDone(waiter.result());
        cond.signal();
        assertTrue(get(waiter.result()));
    }

    /** A signal racing with an interrupt reaches exactly one waiter: the interrupted one or the next. */
    @Test
    void signalRacingWithInterruptIsNeverLost() throws Exception {
        for (int iter = 0; iter < 300; iter++) {
            SpinLock lock = new SpinLock();
            Cond cond = new Cond(lock);
            var racer = start(() -> {
                lock.lock();
                try {
                    cond.await();
                    return "signalled";
                } catch (InterruptedException e) {
                    return "interrupted";
                } finally {
                    lock.unlock();
                }
            });
            Threads.untilParked(racer.thread());
            BlockingQueue<Integer> awake = new LinkedBlockingQueue<>();
            waiter(cond, 2, awake);
            Thread interrupter = Thread.ofVirtual().start(racer.thread()::interrupt);
            cond.signal();
            Threads.join(interrupter);
            String outcome = get(racer.result());
            if (outcome.equals("interrupted")) {
                assertEquals(2, poll(awake), "the signal was lost with the interrupted waiter");
            } else {
                assertTrue(awake.isEmpty(), "one signal woke two waiters");
                cond.signal();
                assertEquals(2, poll(awake));
            }
        }
    }

    @Test
    void worksAcrossManyThreadsAsAProducerConsumerQueue() throws Exception {
        SpinLock lock = new SpinLock();
        Cond notEmpty = new Cond(lock);
        List<Integer> items = new ArrayList<>();
        int producers = 4;
        int perProducer = 2_000;
        long[] sum = new long[1];
        var consumer = start(() -> {
            for (int taken = 0; taken < producers * perProducer; taken++) {
                lock.lock();
                try {
                    while (items.isEmpty()) {
                        notEmpty.await();
                    }
                    sum[0] += items.remove(items.size() - 1);
                } finally {
                    lock.unlock();
                }
            }
            return sum[0];
        });
        for (int p = 0; p < producers; p++) {
            Thread.ofVirtual().start(() -> {
                for (int i = 1; i <= perProducer; i++) {
                    lock.lock();
                    try {
                        items.add(i);
                    } finally {
                        lock.unlock();
                    }
                    notEmpty.signal();
                }
            });
        }
        assertEquals((long) producers * perProducer * (perProducer + 1) / 2, get(consumer.result()));
    }

    @Test
    void nullLockThrowsAndLockerReturnsTheLock() {
        assertThrows(NullPointerException.class, () -> new Cond(null));
        SpinLock lock = new SpinLock();
        assertSame(lock, new Cond(lock).locker());
        assertInstanceOf(String.class, new Cond(lock).toString());
        assertThrows(NullPointerException.class, () -> new Cond(lock).await(1, null));
    }

    @Test
    void interruptedWaiterOfTimedAwaitThrows() throws Exception {
        SpinLock lock = new SpinLock();
        Cond cond = new Cond(lock);
        var waiter = start(() -> {
            lock.lock();
            try {
                return cond.await(1, TimeUnit.DAYS);
            } finally {
                lock.unlock();
            }
        });
        Threads.untilParked(waiter.thread());
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(waiter.result()));
    }

    /**
     * The most negative timeouts time out at once, as every non-positive one does: the deadline
     * arithmetic must not overflow into a wait of centuries.
     */
    @Test
    void mostNegativeTimeoutsTimeOutAtOnce() throws Exception {
        SpinLock lock = new SpinLock();
        Cond cond = new Cond(lock);
        var waiter = start(() -> {
            lock.lock();
            try {
                return cond.await(Long.MIN_VALUE, TimeUnit.NANOSECONDS) || cond.await(Long.MIN_VALUE, TimeUnit.DAYS);
            } finally {
                lock.unlock();
            }
        });
        assertFalse(get(waiter));
    }
}
