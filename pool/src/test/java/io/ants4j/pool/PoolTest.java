package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static io.ants4j.pool.TestSupport.tasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.WaitGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ports of ants' {@code ants_test.go} scenarios for {@link Pool}, plus the Java-specific ones. */
class PoolTest {

    private static final Duration SHORT_EXPIRY = Duration.ofMillis(150);

    /** Work a task simulates: busy for {@code ms}; never used to order test threads. */
    private static void workMillis(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    // ---------------------------------------------------------------- TestAntsPoolWaitToGetWorker & co

    @Test
    void manyTasksThroughSmallPool() throws Exception {
        Pool pool = Pool.newPool(100);
        WaitGroup wg = new WaitGroup();
        AtomicInteger done = new AtomicInteger();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            wg.add(1);
            pool.execute(() -> {
                try {
                    if ((done.incrementAndGet() & 63) == 0) {
                        workMillis(1);
                    }
                } finally {
                    wg.done();
                }
            });
        }
        assertTrue(wg.await(10, TimeUnit.SECONDS));
        assertEquals(n, done.get());
        assertTrue(pool.running() <= 100, pool::toString);
        // the counter moves after the task returned, so after wg.done()
        eventually("all counted", () -> tasks(pool.stats()).equals(tasks(n, n, 0, 0)), pool::toString);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(0, pool.running());
    }

    @Test
    void manyTasksThroughPreAllocatedPool() throws Exception {
        Pool pool = Pool.newPool(50, PoolOptions.builder().preAlloc(true).build());
        WaitGroup wg = new WaitGroup();
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 5_000; i++) {
            wg.add(1);
            pool.execute(() -> {
                done.incrementAndGet();
                wg.done();
            });
        }
        assertTrue(wg.await(10, TimeUnit.SECONDS));
        assertEquals(5_000, done.get());
        assertTrue(pool.running() <= 50);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void idleWorkerIsReused() throws Exception {
        Pool pool = Pool.newPool(10, PoolOptions.builder().disablePurge(true).build());
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 100; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(() -> {
                threads.add(Thread.currentThread());
                ran.countDown();
            });
            await(ran);
            // On the stack itself: idle=1 also counts the worker while it spins in the fast lane, and a
            // submitter that comes as it leaves the lane, before it is back on the stack, starts a second one.
            eventually("worker back on the idle stack", () -> Probe.idle(pool) == 1);
        }
        assertEquals(1, threads.size(), "one submitter at a time must always get the same idle worker");
        assertEquals(1, pool.running());
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void infinitePool() throws Exception {
        Pool pool = Pool.newPool(-1);
        assertEquals(-1, pool.cap());
        assertEquals(-1, pool.free());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(20);
        for (int i = 0; i < 20; i++) {
            pool.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        assertEquals(20, pool.running());
        pool.tune(10); // ignored for unlimited pools
        assertEquals(-1, pool.cap());
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(Pool.newPool(0).cap(), -1);
    }

    // ---------------------------------------------------------------- panics

    @Test
    void panicHandlerGetsTheThrowableAndCapacityIsKept() throws Exception {
        List<Throwable> caught = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch handled = new CountDownLatch(10);
        Pool pool = Pool.newPool(2, PoolOptions.builder().panicHandler(t -> {
            caught.add(t);
            handled.countDown();
        }).build());
        for (int i = 0; i < 10; i++) {
            int id = i;
            pool.execute(() -> {
                throw new IllegalStateException("Oops! " + id);
            });
        }
        await(handled);
        assertEquals(10, caught.size());
        assertInstanceOf(IllegalStateException.class, caught.get(0));
        // capacity is never lost: 2 workers still run 10 more tasks
        CountDownLatch ok = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            pool.execute(ok::countDown);
        }
        await(ok);
        assertTrue(pool.running() <= 2);
        eventually("stats", () -> tasks(pool.stats()).equals(tasks(20, 10, 10, 0)), pool::toString);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(0, pool.running());
    }

    @Test
    void panicWithoutHandlerIsLogged() throws Exception {
        RecordingLogger logger = new RecordingLogger();
        Pool pool = Pool.newPool(10, PoolOptions.builder().logger(logger).build());
        pool.execute(() -> {
            throw new IllegalArgumentException("Oops!");
        });
        eventually("failure logged", () -> !logger.thrown.isEmpty());
        assertInstanceOf(IllegalArgumentException.class, logger.thrown.get(0));
        assertEquals(System.Logger.Level.ERROR, logger.levels.get(0));
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void throwingPanicHandlerIsLoggedAndWorkerSurvives() throws Exception {
        RecordingLogger logger = new RecordingLogger();
        Pool pool = Pool.newPool(1, PoolOptions.builder().logger(logger).panicHandler(t -> {
            throw new IllegalStateException("handler broke");
        }).build());
        pool.execute(() -> {
            throw new RuntimeException("task broke");
        });
        eventually("handler failure logged", () -> !logger.thrown.isEmpty());
        CountDownLatch ok = new CountDownLatch(1);
        pool.execute(ok::countDown);
        await(ok);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    // ---------------------------------------------------------------- purge

    @Test
    void purgeRetiresIdleWorkers() throws Exception {
        Pool pool = Pool.newPool(10, PoolOptions.builder().expiryDuration(SHORT_EXPIRY).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            pool.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        assertEquals(10, pool.running());
        assertEquals(0, pool.free());
        release.countDown();
        eventually("all idle workers purged", () -> pool.running() == 0, pool::toString);
        assertEquals(10, pool.free());
        // the pool still works after a purge
        CountDownLatch again = new CountDownLatch(1);
        pool.execute(again::countDown);
        await(again);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void purgeRetiresIdleWorkersOfPreAllocatedPool() throws Exception {
        Pool pool = Pool.newPool(10, PoolOptions.builder().preAlloc(true).expiryDuration(SHORT_EXPIRY).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            pool.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        release.countDown();
        eventually("all idle workers purged", () -> pool.running() == 0, pool::toString);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void disablePurgeKeepsIdleWorkers() throws Exception {
        Pool pool = Pool.newPool(5, PoolOptions.builder().disablePurge(true)
                .expiryDuration(Duration.ofMillis(50)).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(5);
        for (int i = 0; i < 5; i++) {
            pool.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        release.countDown();
        eventually("all idle", () -> pool.toString().contains("idle=5"), pool::toString);
        // A negative check needs some elapsed time: ten expiry periods pass with no purge.
        assertFalse(new CountDownLatch(1).await(500, TimeUnit.MILLISECONDS));
        assertEquals(5, pool.running());
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(0, pool.running());
    }

    // ---------------------------------------------------------------- nonblocking & maxBlockingTasks

    @Test
    void nonblockingRejectsWhenFull() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().nonblocking(true).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            block(release);
        });
        await(started);
        assertThrows(PoolOverloadException.class, () -> pool.execute(() -> { }));
        release.countDown();
        // once the worker is back, submission works again
        CountDownLatch ok = new CountDownLatch(1);
        eventually("worker returned", () -> {
            try {
                pool.execute(ok::countDown);
                return true;
            } catch (PoolOverloadException e) {
                return false;
            }
        });
        await(ok);
        assertTrue(pool.stats().rejected() >= 1);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void maxBlockingTasksLetsTwoWaitAndRejectsThree() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().maxBlockingTasks(2).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            block(release);
        });
        await(started);
        AtomicInteger overloaded = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        CountDownLatch ran = new CountDownLatch(2);
        WaitGroup submitters = new WaitGroup();
        for (int i = 0; i < 5; i++) {
            submitters.go(() -> {
                try {
                    pool.execute(ran::countDown);
                    accepted.incrementAndGet();
                } catch (PoolOverloadException e) {
                    overloaded.incrementAndGet();
                }
            });
        }
        eventually("2 waiting and 3 rejected", () -> pool.waiting() == 2 && overloaded.get() == 3,
                () -> pool + " overloaded=" + overloaded);
        release.countDown();
        assertTrue(submitters.await(10, TimeUnit.SECONDS));
        await(ran);
        assertEquals(2, accepted.get());
        assertEquals(3, overloaded.get());
        assertEquals(0, pool.waiting());
        assertEquals(3, pool.stats().rejected());
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void tryExecuteTimesOutAndSucceeds() throws Exception {
        Pool pool = Pool.newPool(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        assertTrue(pool.tryExecute(() -> {
            started.countDown();
            block(release);
        }, Duration.ZERO));
        await(started);
        assertFalse(pool.tryExecute(() -> { }, Duration.ZERO));
        assertFalse(pool.tryExecute(() -> { }, Duration.ofMillis(30)));
        assertEquals(0, pool.waiting());
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> result.set(pool.tryExecute(ran::countDown, TestSupport.WAIT)));
        eventually("submitter waits", () -> pool.waiting() == 1);
        release.countDown();
        await(ran);
        t.join(TestSupport.WAIT);
        assertEquals(Boolean.TRUE, result.get());
        assertEquals(2, pool.stats().rejected());
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertThrows(PoolClosedException.class, () -> pool.tryExecute(() -> { }, Duration.ZERO));
    }

    // ---------------------------------------------------------------- tune

    @Test
    void tuneUpWakesWaiters() throws Exception {
        Pool pool = Pool.newPool(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            block(release);
        });
        await(started);
        CountDownLatch ran = new CountDownLatch(3);
        WaitGroup submitters = new WaitGroup();
        for (int i = 0; i < 3; i++) {
            submitters.go(() -> pool.execute(ran::countDown));
        }
        eventually("3 waiting", () -> pool.waiting() == 3);
        pool.tune(4);
        assertEquals(4, pool.cap());
        await(ran); // the first task still blocks: only the new capacity can have run them
        assertTrue(submitters.await(10, TimeUnit.SECONDS));
        assertTrue(pool.running() <= 4);
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void tuneUpByOneWakesOneWaiter() throws Exception {
        Pool pool = Pool.newPool(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        pool.execute(() -> {
            started.countDown();
            block(release);
        });
        WaitGroup submitters = new WaitGroup();
        submitters.go(() -> pool.execute(() -> {
            started.countDown();
            block(release);
        }));
        eventually("1 waiting", () -> pool.waiting() == 1);
        pool.tune(2);
        await(started);
        assertEquals(2, pool.running());
        release.countDown();
        assertTrue(submitters.await(10, TimeUnit.SECONDS));
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void tuneDownShrinksAsWorkersFinish() throws Exception {
        Pool pool = Pool.newPool(4, PoolOptions.builder().disablePurge(true).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(4);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        pool.tune(2);
        assertEquals(2, pool.cap());
        assertEquals(4, pool.running());
        assertEquals(0, pool.free());
        release.countDown();
        eventually("surplus workers exited", () -> pool.running() == 2, pool::toString);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void tuneIsIgnoredForPreAllocAndBadSizes() throws Exception {
        Pool pre = Pool.newPool(3, PoolOptions.builder().preAlloc(true).build());
        pre.tune(10);
        assertEquals(3, pre.cap());
        pre.tune(0);
        pre.tune(-5);
        assertEquals(3, pre.cap());
        pre.releaseTimeout(Duration.ofSeconds(5));
        Pool pool = Pool.newPool(3);
        pool.tune(0);
        pool.tune(-1);
        assertEquals(3, pool.cap());
        pool.tune(7);
        assertEquals(7, pool.cap());
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    // ---------------------------------------------------------------- release, releaseTimeout, reboot

    @Test
    void releaseWakesBlockedSubmittersWithPoolClosed() throws Exception {
        Pool pool = Pool.newPool(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        pool.execute(() -> {
            started.countDown();
            block(release);
            finished.incrementAndGet();
        });
        await(started);
        AtomicInteger closed = new AtomicInteger();
        WaitGroup submitters = new WaitGroup();
        for (int i = 0; i < 3; i++) {
            submitters.go(() -> {
                try {
                    pool.execute(() -> { });
                } catch (PoolClosedException e) {
                    closed.incrementAndGet();
                }
            });
        }
        eventually("3 waiting", () -> pool.waiting() == 3);
        pool.release();
        assertTrue(pool.isClosed());
        assertTrue(submitters.await(10, TimeUnit.SECONDS));
        assertEquals(3, closed.get());
        assertEquals(0, pool.waiting());
        assertThrows(PoolClosedException.class, () -> pool.execute(() -> { }));
        pool.release(); // twice is harmless
        assertEquals(1, pool.running(), "the running task finishes");
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(1, finished.get());
        assertEquals(0, pool.running());
        assertTrue(pool.isTerminated());
    }

    @Test
    void releaseTimeoutWithHungTaskTimesOut() throws Exception {
        Pool pool = Pool.newPool(2);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            block(release); // hung until the test lets it go
        });
        await(started);
        TimeoutException e = assertThrows(TimeoutException.class,
                () -> pool.releaseTimeout(Duration.ofMillis(100)));
        assertTrue(e.getMessage().contains("1 worker"), e.getMessage());
        assertTrue(pool.isClosed());
        assertFalse(pool.isTerminated());
        assertThrows(PoolClosedException.class, () -> pool.execute(() -> { }));
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(pool.isTerminated());
    }

    @Test
    void releaseTimeoutLeavesNoThreadAlive() throws Exception {
        for (boolean virtual : new boolean[] {true, false}) {
            TestSupport.RecordingFactory factory = new TestSupport.RecordingFactory(
                    virtual ? Thread.ofVirtual().factory() : Thread.ofPlatform().daemon().factory());
            Pool pool = Pool.newPool(8, PoolOptions.builder().threadFactory(factory)
                    .expiryDuration(Duration.ofMillis(50)).build());
            WaitGroup wg = new WaitGroup();
            for (int i = 0; i < 200; i++) {
                wg.add(1);
                pool.execute(() -> {
                    workMillis(1);
                    wg.done();
                });
            }
            assertTrue(wg.await(10, TimeUnit.SECONDS));
            pool.releaseTimeout(Duration.ofSeconds(5));
            assertFalse(factory.threads.isEmpty());
            for (Thread t : factory.threads) {
                assertFalse(t.isAlive(), t + " still alive");
            }
            assertTrue(pool.isTerminated());
            assertTrue(pool.awaitTermination(0, TimeUnit.SECONDS));
        }
    }

    @Test
    void rebootReopensReleasedPool() throws Exception {
        Pool pool = Pool.newPool(2, PoolOptions.builder().expiryDuration(SHORT_EXPIRY).build());
        CountDownLatch first = new CountDownLatch(1);
        pool.execute(first::countDown);
        await(first);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertThrows(PoolClosedException.class, () -> pool.execute(() -> { }));
        pool.reboot();
        assertFalse(pool.isClosed());
        CountDownLatch second = new CountDownLatch(1);
        pool.execute(second::countDown);
        await(second);
        pool.reboot(); // no-op on an open pool
        assertFalse(pool.isClosed());
        // the purger runs again after reboot
        eventually("purged after reboot", () -> pool.running() == 0, pool::toString);
        pool.release();
        pool.reboot();
        CountDownLatch third = new CountDownLatch(1);
        pool.execute(third::countDown);
        await(third);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    // ---------------------------------------------------------------- Java-specific

    @Test
    void interruptedBlockedSubmitterIsRejected() throws Exception {
        Pool pool = Pool.newPool(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            block(release);
        });
        await(started);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Thread submitter = Thread.ofPlatform().start(() -> {
            try {
                pool.execute(() -> { });
            } catch (Throwable t) {
                thrown.set(t);
                flag.set(Thread.currentThread().isInterrupted());
            }
        });
        eventually("submitter waits", () -> pool.waiting() == 1);
        submitter.interrupt();
        assertTrue(submitter.join(TestSupport.WAIT));
        assertInstanceOf(RejectedExecutionException.class, thrown.get());
        assertInstanceOf(InterruptedException.class, thrown.get().getCause());
        assertEquals(Boolean.TRUE, flag.get(), "interrupt flag set again");
        assertEquals(0, pool.waiting());
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(1, pool.stats().rejected());
    }

    @Test
    void executorServiceSubmitAndInvokeAll() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        Pool pool = Pool.newPool(3, PoolOptions.builder().panicHandler(t -> handled.incrementAndGet()).build());
        Future<Integer> f = pool.submit(() -> 6 * 7);
        assertEquals(42, f.get(10, TimeUnit.SECONDS));
        Future<?> failing = pool.submit(() -> {
            throw new IllegalStateException("boom");
        });
        ExecutionException ee = assertThrows(ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, ee.getCause());
        List<Callable<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int id = i;
            calls.add(() -> id * id);
        }
        List<Future<Integer>> results = pool.invokeAll(calls, 10, TimeUnit.SECONDS);
        for (int i = 0; i < 20; i++) {
            assertEquals(i * i, results.get(i).get());
        }
        assertEquals(Integer.valueOf(7), pool.invokeAny(List.<Callable<Integer>>of(() -> 7), 10, TimeUnit.SECONDS));
        assertEquals(0, handled.get(), "a Future carries the failure; the panic handler never sees it");
        pool.shutdown();
        assertTrue(pool.isShutdown());
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(pool.isTerminated());
    }

    @Test
    void completableFutureRunsOnPool() throws Exception {
        Pool pool = Pool.newPool(2);
        AtomicReference<String> thread = new AtomicReference<>();
        CompletableFuture<Void> cf = CompletableFuture.runAsync(
                () -> thread.set(Thread.currentThread().getName()), pool);
        cf.get(10, TimeUnit.SECONDS);
        assertTrue(thread.get().startsWith(pool.name() + "-worker-"), thread.get());
        int sum = CompletableFuture.supplyAsync(() -> 20, pool)
                .thenCombineAsync(CompletableFuture.supplyAsync(() -> 22, pool), Integer::sum, pool)
                .get(10, TimeUnit.SECONDS);
        assertEquals(42, sum);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void tryWithResourcesWaitsForTasks() {
        AtomicInteger done = new AtomicInteger();
        Pool escaped;
        try (Pool pool = Pool.newPool(4)) {
            escaped = pool;
            for (int i = 0; i < 40; i++) {
                pool.execute(() -> {
                    workMillis(2);
                    done.incrementAndGet();
                });
            }
        }
        assertEquals(40, done.get());
        assertTrue(escaped.isTerminated());
    }

    @Test
    void shutdownNowInterruptsRunningTasks() throws Exception {
        Pool pool = Pool.newPool(2);
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            });
        }
        await(started);
        assertEquals(List.of(), pool.shutdownNow());
        await(interrupted);
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void virtualWorkersByDefaultPlatformWithFactory() throws Exception {
        Pool virtualPool = Pool.newPool(1);
        AtomicReference<Boolean> isVirtual = new AtomicReference<>();
        CountDownLatch a = new CountDownLatch(1);
        virtualPool.execute(() -> {
            isVirtual.set(Thread.currentThread().isVirtual());
            a.countDown();
        });
        await(a);
        assertEquals(Boolean.TRUE, isVirtual.get());
        virtualPool.releaseTimeout(Duration.ofSeconds(5));

        Pool platformPool = Pool.newPool(1, PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().name("plat-", 0).daemon().factory()).build());
        CountDownLatch b = new CountDownLatch(1);
        AtomicReference<String> name = new AtomicReference<>();
        platformPool.execute(() -> {
            isVirtual.set(Thread.currentThread().isVirtual());
            name.set(Thread.currentThread().getName());
            b.countDown();
        });
        await(b);
        assertEquals(Boolean.FALSE, isVirtual.get());
        assertEquals("plat-0", name.get());
        platformPool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void threadFactoryReturningNullIsRejectedAndCountRestored() throws Exception {
        Pool pool = Pool.newPool(2, PoolOptions.builder().threadFactory(r -> null).build());
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        assertTrue(e.getMessage().contains("threadFactory"), e.getMessage());
        assertEquals(0, pool.running());
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void happensBeforeFromExecuteToTask() throws Exception {
        Pool pool = Pool.newPool(4);
        int rounds = 10_000;
        int[] plain = new int[rounds];
        AtomicInteger bad = new AtomicInteger();
        WaitGroup wg = new WaitGroup();
        for (int i = 0; i < rounds; i++) {
            int id = i;
            plain[id] = id + 1; // plain write before execute
            wg.add(1);
            pool.execute(() -> {
                if (plain[id] != id + 1) {
                    bad.incrementAndGet();
                }
                wg.done();
            });
        }
        assertTrue(wg.await(10, TimeUnit.SECONDS));
        assertEquals(0, bad.get());
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void statsAndToString() throws Exception {
        Pool pool = Pool.newPool(3, PoolOptions.builder().panicHandler(t -> { }).build());
        CountDownLatch done = new CountDownLatch(2);
        pool.execute(done::countDown);
        pool.execute(() -> {
            done.countDown();
            throw new RuntimeException();
        });
        await(done);
        eventually("counted", () -> pool.stats().completed() + pool.stats().failed() == 2);
        assertEquals(tasks(2, 1, 1, 0), pool.stats());
        String s = pool.toString();
        assertTrue(s.startsWith(pool.name() + "[Pool, open, cap=3"), s);
        assertTrue(s.contains("completed=1") && s.contains("failed=1") && s.contains("rejected=0"), s);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(pool.toString().startsWith(pool.name() + "[Pool, terminated"), pool.toString());
        assertThrows(PoolClosedException.class, () -> pool.execute(() -> { }));
        assertEquals(1, pool.stats().rejected());
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void badInputIsRejectedClearly() {
        assertThrows(NullPointerException.class, () -> Pool.newPool(1, null));
        IllegalArgumentException pre = assertThrows(IllegalArgumentException.class,
                () -> Pool.newPool(0, PoolOptions.builder().preAlloc(true).build()));
        assertTrue(pre.getMessage().contains("preAlloc"), pre.getMessage());
        IllegalArgumentException exp = assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.builder().expiryDuration(Duration.ofSeconds(-1)));
        assertTrue(exp.getMessage().contains("expiryDuration"), exp.getMessage());
        IllegalArgumentException max = assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.builder().maxBlockingTasks(-1));
        assertTrue(max.getMessage().contains("maxBlockingTasks"), max.getMessage());
        assertThrows(NullPointerException.class, () -> PoolOptions.builder().expiryDuration(null));
        assertThrows(NullPointerException.class, () -> PoolOptions.builder().logger(null));
        assertThrows(NullPointerException.class, () -> PoolOptions.builder().threadFactory(null));
        Pool pool = Pool.newPool(1);
        assertThrows(NullPointerException.class, () -> pool.execute(null));
        assertThrows(NullPointerException.class, () -> pool.tryExecute(null, Duration.ZERO));
        assertThrows(NullPointerException.class, () -> pool.tryExecute(() -> { }, null));
        assertThrows(NullPointerException.class, () -> pool.releaseTimeout(null));
        pool.release();
    }

    @Test
    void optionsDefaults() {
        PoolOptions d = PoolOptions.defaults();
        assertEquals(Duration.ofSeconds(1), d.expiryDuration());
        assertFalse(d.preAlloc());
        assertEquals(0, d.maxBlockingTasks());
        assertFalse(d.nonblocking());
        assertNull(d.panicHandler());
        assertEquals("io.ants4j.pool", d.logger().getName());
        assertFalse(d.disablePurge());
        assertNull(d.threadFactory(), "each pool makes its own, naming the threads after the pool");
        assertNull(d.name(), "each pool gets a name of its own");
        assertEquals(Duration.ofSeconds(1), PoolOptions.builder().expiryDuration(Duration.ZERO).build()
                .expiryDuration());
        assertEquals(Duration.ZERO, PoolOptions.builder().expiryDuration(Duration.ZERO).disablePurge(true)
                .build().expiryDuration());
        assertSame(d, PoolOptions.defaults());
        assertTrue(d.toString().contains("expiryDuration=PT1S"), d.toString());
    }

    // ---------------------------------------------------------------- virtual workers are not preempted

    /**
     * The remedies the class javadoc gives for tasks that wait for each other in a {@code Thread.yield()} loop
     * (Go's {@code runtime.Gosched()}), which on virtual workers can starve a woken task for seconds: platform
     * workers, or parking instead of yielding. As many spinners as carriers, and one task woken among them.
     */
    @ParameterizedTest(name = "platform workers={0}")
    @ValueSource(booleans = {true, false})
    void aTaskWokenAmongSpinningTasksRunsOnPlatformWorkersOrWhenTheyPark(boolean platform) throws Exception {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        PoolOptions.Builder b = PoolOptions.builder().disablePurge(true);
        if (platform) {
            b.threadFactory(Thread.ofPlatform().daemon(true).factory());
        }
        Pool pool = Pool.newPool(carriers + 1, b.build());
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch woken = new CountDownLatch(1);
        CountDownLatch waiting = new CountDownLatch(1);
        pool.execute(() -> {
            waiting.countDown();
            block(go);
            woken.countDown();
        });
        await(waiting);
        CountDownLatch spinning = new CountDownLatch(carriers);
        for (int i = 0; i < carriers; i++) {
            pool.execute(() -> {
                spinning.countDown();
                long deadline = System.nanoTime() + TestSupport.WAIT.toNanos();
                while (woken.getCount() > 0 && System.nanoTime() - deadline < 0) {
                    if (platform) {
                        Thread.yield();
                    } else {
                        LockSupport.parkNanos(20_000);
                    }
                }
            });
        }
        await(spinning);
        go.countDown();
        await(woken);
        pool.releaseTimeout(TestSupport.WAIT);
    }
}
