package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Review 41. LockSupport.park may return for no reason, and any code may unpark any thread. Cond's javadoc: "there
 * are no spurious wake-ups: await returns only after a signal or broadcast chose this thread, an interrupt, or a
 * timeout"; every other blocking call returns only once what it waits for has happened. Each waiter is unparked
 * many times by a stranger while what it waits for has not happened: it must park again, not return.
 */
class StrayUnparksWakeNoWaiterTest {

    private static <T> void assertStrayUnparksDoNotWake(String what, Callable<T> blocking, Runnable release)
            throws Exception {
        CompletableFuture<T> done = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().daemon().name(what).start(() -> {
            try {
                done.complete(blocking.call());
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        Threads.untilParked(t);
        for (int i = 0; i < 200; i++) {
            LockSupport.unpark(t);
            Thread.yield();
        }
        Threads.until(what + ": parked again or returned",
                () -> done.isDone() || t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING);
        assertFalse(done.isDone(), () -> what + " returned on a stray unpark: " + done);
        release.run();
        Threads.get(done);
        Threads.join(t);
    }

    @Test
    void condAwait() throws Exception {
        Mutex m = new Mutex();
        Cond c = new Cond(m);
        assertStrayUnparksDoNotWake("Cond.await", () -> {
            m.lock();
            try {
                c.await();
            } finally {
                m.unlock();
            }
            return true;
        }, c::signal);
        assertFalse(m.isLocked());
    }

    @Test
    void condTimedAwait() throws Exception {
        SpinLock l = new SpinLock();
        Cond c = new Cond(l);
        assertStrayUnparksDoNotWake("Cond.await(timeout)", () -> {
            l.lock();
            try {
                assertTrue(c.await(1, TimeUnit.HOURS), "timed out?");
            } finally {
                l.unlock();
            }
            return true;
        }, c::signal);
    }

    @Test
    void mutexLock() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        assertStrayUnparksDoNotWake("Mutex.lock", () -> {
            m.lock();
            m.unlock();
            return true;
        }, m::unlock);
        assertFalse(m.isLocked());
        assertTrue(m.toString().endsWith("waiters=0]"), m.toString());
    }

    @Test
    void rwMutexReaderAndWriter() throws Exception {
        RWMutex rw = new RWMutex();
        rw.writeLock().lock();
        assertStrayUnparksDoNotWake("RWMutex read lock", () -> {
            rw.readLock().lock();
            rw.readLock().unlock();
            return true;
        }, rw.writeLock()::unlock);
        rw.readLock().lock();
        assertStrayUnparksDoNotWake("RWMutex write lock", () -> {
            rw.writeLock().lock();
            rw.writeLock().unlock();
            return true;
        }, rw.readLock()::unlock);
        assertTrue(rw.writeLock().tryLock());
        rw.writeLock().unlock();
    }

    @Test
    void waitGroupAwait() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        assertStrayUnparksDoNotWake("WaitGroup.await", () -> {
            wg.await();
            return true;
        }, wg::done);
        assertEquals(0, wg.count());
    }

    @Test
    void weightedSemaphoreAcquire() throws Exception {
        WeightedSemaphore s = new WeightedSemaphore(1);
        s.acquire(1);
        assertStrayUnparksDoNotWake("WeightedSemaphore.acquire", () -> {
            s.acquire(1);
            s.release(1);
            return true;
        }, () -> s.release(1));
        assertEquals(1, s.available());
    }

    @Test
    void onceRunWaiter() throws Exception {
        Once once = new Once();
        java.util.concurrent.CountDownLatch inAction = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
        Thread runner = Thread.ofPlatform().daemon().start(() -> once.run(() -> {
            inAction.countDown();
            try {
                finish.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        assertTrue(inAction.await(20, TimeUnit.SECONDS));
        assertStrayUnparksDoNotWake("Once.run waiter", () -> {
            once.run(() -> { throw new AssertionError("ran twice"); });
            return once.isDone();
        }, finish::countDown);
        Threads.join(runner);
    }

    @Test
    void taskGroupBlockedSubmitterAndFutureGet() throws Exception {
        java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
        try (TaskGroup<String> g = TaskGroup.create(1)) {
            Future<String> first = g.go(() -> {
                finish.await(20, TimeUnit.SECONDS);
                return "first";
            });
            CompletableFuture<Future<String>> second = new CompletableFuture<>();
            assertStrayUnparksDoNotWake("TaskGroup.go blocked at the limit", () -> {
                Future<String> f = g.go(() -> "second");
                second.complete(f);
                return f;
            }, finish::countDown);
            assertEquals("first", first.get(20, TimeUnit.SECONDS));
            assertEquals("second", Threads.get(second).get(20, TimeUnit.SECONDS));
        }
        try (TaskGroup<String> g = TaskGroup.create()) {
            java.util.concurrent.CountDownLatch finish2 = new java.util.concurrent.CountDownLatch(1);
            Future<String> f = g.go(() -> {
                finish2.await(20, TimeUnit.SECONDS);
                return "v";
            });
            assertStrayUnparksDoNotWake("TaskGroup Future.get", f::get, finish2::countDown);
        }
    }

    @Test
    void singleFlightJoinedRun() throws Exception {
        SingleFlight<String, String> sf = new SingleFlight<>();
        java.util.concurrent.CountDownLatch inFn = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<SingleFlight.Result<String>> starter = sf.submit("k", () -> {
            inFn.countDown();
            finish.await(20, TimeUnit.SECONDS);
            return "v";
        });
        assertTrue(inFn.await(20, TimeUnit.SECONDS));
        assertStrayUnparksDoNotWake("SingleFlight joined run", () -> {
            SingleFlight.Result<String> r = sf.run("k", () -> "not mine");
            assertEquals("v", r.value());
            return r;
        }, finish::countDown);
        assertEquals("v", Threads.get(starter).value());
    }
}
