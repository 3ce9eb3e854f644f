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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WaitGroupTest {
    private static final long TIMEOUT_MS = Threads.TIMEOUT.toMillis();

    /** Go's testWaitGroup: two groups used as a barrier, twice. */
    @Test
    void barrierUsedTwice() throws Exception {
        WaitGroup wg1 = new WaitGroup();
        WaitGroup wg2 = new WaitGroup();
        int n = 16;
        for (int round = 0; round < 2; round++) {
            wg1.add(n);
            wg2.add(n);
            AtomicInteger exited = new AtomicInteger();
            for (int i = 0; i < n; i++) {
                Thread.ofVirtual().start(() -> {
                    wg1.done();
                    wg2.awaitUninterruptibly();
                    exited.incrementAndGet();
                });
            }
            assertTrue(wg1.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            assertEquals(0, exited.get(), "no task passes the barrier before the last done");
            for (int i = 0; i < n; i++) {
                wg2.done();
            }
            Threads.until("all tasks pass the barrier", () -> exited.get() == n);
        }
    }

    /** Go's TestWaitGroupRace: await must see every write made before done. */
    @Test
    void awaitSeesWritesBeforeDone() throws Exception {
        for (int i = 0; i < 1_000; i++) {
            WaitGroup wg = new WaitGroup();
            int[] n = new int[2];
            wg.add(2);
            Thread.ofVirtual().start(() -> {
                n[0] = 1;
                wg.done();
            });
            Thread.ofVirtual().start(() -> {
                n[1] = 1;
                wg.done();
            });
            assertTrue(wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            assertEquals(2, n[0] + n[1], "iteration " + i);
        }
    }

    @Test
    void manyWaitersAllReleasedAndGroupReusable() throws Exception {
        WaitGroup wg = new WaitGroup();
        for (int round = 0; round < 3; round++) {
            wg.add(1);
            CountDownLatch released = new CountDownLatch(8);
            for (int i = 0; i < 8; i++) {
                Thread.ofVirtual().start(() -> {
                    wg.awaitUninterruptibly();
                    released.countDown();
                });
            }
            Threads.until("8 waiters register", () -> wg.toString().contains("waiters=8"));
            assertEquals(8, released.getCount());
            wg.done();
            assertTrue(released.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            assertEquals(0, wg.count());
        }
    }

    @Test
    void negativeCounterThrowsAndLeavesTheCounter() {
        WaitGroup wg = new WaitGroup();
        var e = assertThrows(IllegalStateException.class, wg::done);
        assertEquals("negative WaitGroup counter", e.getMessage());
        assertEquals(0, wg.count());
        wg.add(2);
        assertThrows(IllegalStateException.class, () -> wg.add(-3));
        assertEquals(2, wg.count());
        wg.add(-2);
        assertEquals(0, wg.count());
    }

    @Test
    void overflowPastIntMaxThrows() {
        WaitGroup wg = new WaitGroup();
        wg.add(Integer.MAX_VALUE);
        var e = assertThrows(IllegalStateException.class, () -> wg.add(1));
        assertEquals("WaitGroup counter overflow", e.getMessage());
        assertEquals(Integer.MAX_VALUE, wg.count());
        wg.add(-Integer.MAX_VALUE);
        assertEquals(0, wg.count());
    }

    /**
     * A rejected add leaves the word untouched: a thread reading the counter meanwhile never sees
     * the negative (or wrapped) value the add would have made. On a word that is published and
     * then undone the reader sees it within a few thousand calls.
     */
    @Test
    void rejectedAddNeverPublishesItsCounter() throws Exception {
        WaitGroup wg = new WaitGroup();
        assertEquals(0, smallestCountSeenWhile(wg, () -> assertThrows(IllegalStateException.class, wg::done)));
        assertEquals(0, wg.count());
        wg.add(Integer.MAX_VALUE);
        assertEquals(Integer.MAX_VALUE,
                smallestCountSeenWhile(wg, () -> assertThrows(IllegalStateException.class, () -> wg.add(1))));
        assertEquals(Integer.MAX_VALUE, wg.count());
    }

    /** Runs {@code misuse} 20,000 times while another thread reads the counter; the smallest it read. */
    private static int smallestCountSeenWhile(WaitGroup wg, Runnable misuse) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch reading = new CountDownLatch(1);
        var reader = start(() -> {
            int min = wg.count();
            reading.countDown();
            while (!stop.get()) {
                min = Math.min(min, wg.count());
            }
            return min;
        });
        assertTrue(reading.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        try {
            for (int i = 0; i < 20_000; i++) {
                misuse.run();
            }
        } finally {
            stop.set(true);
        }
        return get(reader);
    }

    /**
     * Go's TestWaitGroupMisuse2 scenario: the next round's add comes before the waiter of the
     * previous round has returned. Go detects it (best-effort) and panics; here it is harmless:
     * the waiter returns normally, released by the round it waited in, and the next round counts
     * exactly its own task.
     */
    @Test
    void reuseBeforeAwaitReturnedIsHarmless() throws Exception {
        for (int i = 0; i < 1_000; i++) {
            WaitGroup wg = new WaitGroup();
            wg.add(1);
            var waiter = start(() -> {
                wg.await();
                return "returned";
            });
            Threads.until("a waiter", () -> wg.toString().contains("waiters=1"));
            wg.done();
            wg.add(1); // the next round starts before the waiter has returned
            assertEquals("returned", get(waiter));
            assertEquals("[count=1, waiters=0]", wg.toString().substring(wg.toString().indexOf('[')));
            assertFalse(wg.await(0, TimeUnit.NANOSECONDS), "the next round is not over");
            wg.done();
            assertTrue(wg.await(0, TimeUnit.NANOSECONDS));
        }
    }

    /**
     * A round whose last done() has counted its waiter but not released it yet (that thread is
     * held at the group's lock): the next round's add and a waiter that gives up meanwhile do not
     * wait for it, and whichever gets the lock first completes the release. The waiter's wait
     * succeeded (await returns normally with the interrupt status set), the next round counts
     * exactly its own task, and nobody is left queued.
     */
    @Test
    void pendingReleaseIsCompletedByWhoeverComesFirst() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        var waiter = start(() -> {
            wg.await();
            return Thread.currentThread().isInterrupted() ? "released, interrupted" : "released";
        });
        Threads.until("a waiter", () -> wg.toString().contains("waiters=1"));
        Threads.untilParked(waiter.thread());
        SpinLock lock = lockOf(wg);
        Threads.Task<String> releaser;
        Threads.Task<String> adder;
        lock.lock();
        try {
            releaser = start(() -> {
                wg.done();
                return "done";
            });
            Threads.until("the round ends", () -> wg.toString().contains("[count=0, waiters=1]"));
            adder = start(() -> {
                wg.add(1);
                return "added";
            });
            waiter.thread().interrupt();
            Threads.until("the waiter gives up", () -> waiter.thread().getState() == Thread.State.RUNNABLE);
        } finally {
            lock.unlock();
        }
        assertEquals("released, interrupted", get(waiter));
        assertEquals("done", get(releaser));
        assertEquals("added", get(adder));
        assertEquals("[count=1, waiters=0]", wg.toString().substring(wg.toString().indexOf('[')));
        wg.done();
        assertTrue(wg.await(0, TimeUnit.NANOSECONDS));
    }

    /** The lock that guards a group's waiters (the group has had a waiter). */
    private static SpinLock lockOf(WaitGroup wg) throws ReflectiveOperationException {
        VarHandle queue = MethodHandles.privateLookupIn(WaitGroup.class, MethodHandles.lookup())
                .findVarHandle(WaitGroup.class, "queue", WaitQueue.class);
        return ((WaitQueue) queue.getAcquire(wg)).lock;
    }

    @Test
    void awaitReturnsAtOnceWhenZeroAndTimesOutOtherwise() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.await();
        assertTrue(wg.await(0, TimeUnit.NANOSECONDS));
        wg.add(1);
        assertFalse(wg.await(10, TimeUnit.MILLISECONDS));
        assertFalse(wg.await(0, TimeUnit.NANOSECONDS));
        assertTrue(wg.toString().endsWith("[count=1, waiters=0]"), wg.toString());
        wg.done();
        assertTrue(wg.await(0, TimeUnit.NANOSECONDS));
    }

    /** The most negative timeouts time out at once: the deadline must not overflow into centuries. */
    @Test
    void mostNegativeTimeoutsTimeOutAtOnce() {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        assertFalse(get(start(() -> wg.await(Long.MIN_VALUE, TimeUnit.NANOSECONDS))));
        assertFalse(get(start(() -> wg.await(Long.MIN_VALUE, TimeUnit.DAYS))));
        assertEquals("[count=1, waiters=0]", wg.toString().substring(wg.toString().indexOf('[')));
    }

    @Test
    void interruptedWaiterLeavesWithoutStealingTheOtherWakeUp() throws Exception {
        for (int i = 0; i < 50; i++) {
            WaitGroup wg = new WaitGroup();
            wg.add(1);
            var interrupted = start(() -> {
                wg.await();
                return "released";
            });
            var other = start(() -> wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            Threads.until("2 waiters", () -> wg.toString().contains("waiters=2"));
            interrupted.thread().interrupt();
            assertInstanceOf(InterruptedException.class, failure(interrupted.result()));
            assertTrue(wg.toString().endsWith("waiters=1]"), wg.toString());
            wg.done();
            assertTrue(get(other.result()));
            assertEquals("[count=0, waiters=0]", wg.toString().substring(wg.toString().indexOf('[')));
        }
    }

    @Test
    void interruptRacingWithLastDoneLosesNothing() throws Exception {
        for (int i = 0; i < 200; i++) {
            WaitGroup wg = new WaitGroup();
            wg.add(1);
            var racer = start(() -> {
                try {
                    wg.await();
                    return Thread.currentThread().isInterrupted() ? "released, interrupted" : "released";
                } catch (InterruptedException e) {
                    return "interrupted";
                }
            });
            var other = start(() -> wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            Threads.until("2 waiters", () -> wg.toString().contains("waiters=2"));
            racer.thread().interrupt();
            wg.done();
            String outcome = get(racer.result());
            assertTrue(outcome.equals("interrupted") || outcome.equals("released, interrupted"), outcome);
            assertTrue(get(other.result()), "the other waiter is released");
            assertEquals(0L, stateOf(wg));
            wg.add(1); // reusable
            wg.done();
            assertTrue(wg.await(0, TimeUnit.NANOSECONDS));
        }
    }

    @Test
    void timedOutWaiterLeavesTheGroupReusable() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        assertFalse(wg.await(5, TimeUnit.MILLISECONDS));
        assertEquals(1, wg.count());
        assertTrue(wg.toString().endsWith("waiters=0]"), wg.toString());
        var waiter = start(() -> wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        Threads.until("a waiter", () -> wg.toString().contains("waiters=1"));
        wg.done();
        assertTrue(get(waiter.result()));
    }

    /**
     * A monitor polls await with short timeouts while rounds follow each other back to back (the
     * last done() of a round, then at once the add(1) of the next). A poll whose timeout expires
     * as its round ends must leave without touching the next round: no exception on either side,
     * and the counter exact at the end. Timeouts and task lengths sweep a range of microseconds so
     * that some polls expire just as a round ends.
     */
    @Test
    void monitorPollingWithTimeoutsLeavesTheNextRoundIntact() throws Exception {
        WaitGroup wg = new WaitGroup();
        AtomicBoolean stop = new AtomicBoolean();
        var monitor = start(() -> {
            int polls = 0;
            for (int i = 0; !stop.get(); i++) {
                wg.await(1_000L + (i % 64) * 1_000L, TimeUnit.NANOSECONDS);
                polls++;
            }
            return polls;
        });
        try {
            wg.add(1);
            for (int round = 0; round < 20_000; round++) {
                long until = System.nanoTime() + 1_000L + (round % 61) * 1_000L;
                while (System.nanoTime() - until < 0L) {
                    Thread.onSpinWait(); // the task's work
                }
                wg.done();
                wg.add(1);
            }
        } finally {
            stop.set(true);
        }
        assertTrue(get(monitor) > 0);
        assertEquals("[count=1, waiters=0]", wg.toString().substring(wg.toString().indexOf('[')));
        wg.done();
        assertTrue(wg.await(0, TimeUnit.NANOSECONDS));
    }

    @Test
    void awaitUninterruptiblyKeepsWaitingAndRestoresTheFlag() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        var waiter = start(() -> {
            wg.awaitUninterruptibly();
            return Thread.currentThread().isInterrupted();
        });
        Threads.until("a waiter", () -> wg.toString().contains("waiters=1"));
        waiter.thread().interrupt();
        Threads.untilParked(waiter.thread());
        Threads.assertNotDone(waiter.result());
        wg.done();
        assertTrue(get(waiter.result()));
    }

    @Test
    void interruptedOnEntryThrows() {
        WaitGroup wg = new WaitGroup();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, wg::await);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> wg.await(1, TimeUnit.SECONDS));
    }

    @Test
    void goRunsOnVirtualThreadsAndCounts() throws Exception {
        WaitGroup wg = new WaitGroup();
        AtomicInteger virtual = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            wg.go(() -> {
                if (Thread.currentThread().isVirtual()) {
                    virtual.incrementAndGet();
                }
            });
        }
        assertTrue(wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        assertEquals(100, virtual.get());
    }

    /**
     * Go 1.26 (golang/go#76126): a task's failure is reported before the count drops, so no
     * {@code await} can return (and the program go on, or exit) before the failure is known. Here
     * the handler of the thread that runs the task reads the count while it handles the failure:
     * the task must still be counted. Inline, on a virtual thread and on a pool thread.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"inline", "virtual", "pool"})
    void aFailingTaskIsReportedBeforeTheCountDrops(String where) throws Exception {
        WaitGroup wg = new WaitGroup();
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<String> report = new CompletableFuture<>();
        Thread.UncaughtExceptionHandler handler = (thread, failure) ->
                report.complete((failure == boom ? "boom" : String.valueOf(failure)) + ", count " + wg.count());
        Runnable failing = () -> {
            throw boom;
        };
        switch (where) {
            case "inline" -> get(start(Thread.ofPlatform().uncaughtExceptionHandler(handler), () -> {
                wg.go(Runnable::run, failing); // returns normally: the failure went to the handler
                return null;
            }));
            case "virtual" -> wg.go(Thread.ofVirtual().uncaughtExceptionHandler(handler)::start, failing);
            default -> {
                ExecutorService pool = Executors.newSingleThreadExecutor(
                        Thread.ofPlatform().uncaughtExceptionHandler(handler).factory());
                try {
                    wg.go(pool, failing);
                    assertTrue(wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
                } finally {
                    pool.shutdownNow();
                }
            }
        }
        assertEquals("boom, count 1", get(report));
        assertTrue(wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        assertEquals(0, wg.count());
    }

    /** A handler that throws itself: the task is still counted done, and what it threw goes to the executor. */
    @Test
    void aThrowingHandlerStillCountsTheTaskDone() {
        WaitGroup wg = new WaitGroup();
        IllegalArgumentException fromHandler = new IllegalArgumentException("handler");
        Throwable escaped = failure(start(Thread.ofPlatform().uncaughtExceptionHandler((t, e) -> {
            throw fromHandler;
        }), () -> {
            wg.go(Runnable::run, () -> {
                throw new IllegalStateException("boom");
            });
            return null;
        }).result());
        assertSame(fromHandler, escaped);
        assertEquals(0, wg.count());
    }

    @Test
    void goRestoresTheCountWhenTheExecutorRejects() {
        WaitGroup wg = new WaitGroup();
        RejectedExecutionException rejection = new RejectedExecutionException("full");
        var e = assertThrows(RejectedExecutionException.class, () -> wg.go(task -> {
            throw rejection;
        }, () -> { }));
        assertSame(rejection, e);
        assertEquals(0, wg.count());
    }

    /**
     * The JDK's own ThreadPoolExecutor, with no core threads and a thread factory that fails once,
     * queues the task, then fails to add a worker and throws from execute: the task stays queued
     * and runs when the next execute adds a worker. go() undoes its add when execute throws, so
     * that task must never run (or it would count down a second time): only the second task may
     * count, and await must wait for it.
     */
    @Test
    void anExecutorThatThrowsAndStillRunsTheTaskCountsItOnce() throws Exception {
        AtomicInteger threadsAsked = new AtomicInteger();
        ThreadFactory failsOnce = r -> {
            if (threadsAsked.getAndIncrement() == 0) {
                throw new IllegalStateException("unable to create thread");
            }
            return Thread.ofPlatform().daemon(true).unstarted(r);
        };
        ThreadPoolExecutor executor = new ThreadPoolExecutor(0, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), failsOnce);
        try {
            WaitGroup wg = new WaitGroup();
            AtomicBoolean undoneTaskRan = new AtomicBoolean();
            var e = assertThrows(IllegalStateException.class, () -> wg.go(executor, () -> undoneTaskRan.set(true)));
            assertEquals("unable to create thread", e.getMessage());
            assertEquals(0, wg.count());
            assertEquals(1, executor.getQueue().size(), "the executor kept the task");
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            wg.go(executor, () -> {
                running.countDown();
                awaitLatch(finish);
            });
            assertTrue(running.await(TIMEOUT_MS, TimeUnit.MILLISECONDS)); // the queued task came first
            assertEquals(1, wg.count(), "only the task that is running counts");
            assertFalse(wg.await(0, TimeUnit.NANOSECONDS), "await must wait for the running task");
            finish.countDown();
            assertTrue(wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            assertEquals(0, wg.count());
            assertFalse(undoneTaskRan.get(), "a task whose go() threw must not run");
        } finally {
            executor.shutdownNow();
        }
    }

    /**
     * An executor that starts the task and then throws: the run counts, the exception
     * propagates, and no undo is made (that would count the task twice).
     */
    @Test
    void anExecutorThatThrowsAfterTheTaskStartedLetsTheRunCount() throws Exception {
        WaitGroup wg = new WaitGroup();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        IllegalStateException late = new IllegalStateException("late");
        var e = assertThrows(IllegalStateException.class, () -> wg.go(task -> {
            Thread.ofVirtual().start(task);
            awaitLatch(started);
            throw late;
        }, () -> {
            started.countDown();
            awaitLatch(finish);
        }));
        assertSame(late, e);
        assertEquals(1, wg.count(), "the running task still counts");
        assertFalse(wg.await(0, TimeUnit.NANOSECONDS));
        finish.countDown();
        assertTrue(wg.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        assertEquals(0, wg.count());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertTrue(latch.await(TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * An OutOfMemoryError while go() allocates what it hands the executor must leave the count as
     * it was, or every later await hangs: in a JVM of its own with a small heap, see
     * {@link OutOfMemoryProbe}.
     */
    @Test
    void outOfMemoryErrorInGoLeavesTheCountAsItWas() throws Exception {
        LockTests.runOutOfMemoryProbe("waitgroup");
    }

    /**
     * An OutOfMemoryError while await allocates its waiter's node must not leave the group
     * counting a waiter that is not queued: in a JVM of its own with a small heap, see
     * {@link OutOfMemoryProbe}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"waitgroup-await", "waitgroup-await-timed"})
    void outOfMemoryErrorInAwaitCountsNoWaiter(String probe) throws Exception {
        LockTests.runOutOfMemoryProbe(probe);
    }

    @Test
    void nullArgumentsThrow() {
        WaitGroup wg = new WaitGroup();
        assertThrows(NullPointerException.class, () -> wg.go(null));
        assertThrows(NullPointerException.class, () -> wg.go(null, () -> { }));
        assertThrows(NullPointerException.class, () -> wg.go(Runnable::run, null));
        assertThrows(NullPointerException.class, () -> wg.await(1, null));
        assertEquals(0, wg.count());
    }

    private static long stateOf(WaitGroup wg) {
        String s = wg.toString();
        return s.endsWith("[count=0, waiters=0]") ? 0L : -1L;
    }
}
