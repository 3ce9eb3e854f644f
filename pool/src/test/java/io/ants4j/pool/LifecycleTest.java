package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Kind;
import io.ants4j.pool.PoolKinds.Tested;
import io.ants4j.pool.PoolKinds.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The life cycle of the pools: release, reboot, tune, termination, and their background threads. */
class LifecycleTest {

    private static final PoolOptions NO_PURGE = PoolOptions.builder().disablePurge(true).build();

    /** Sub-pools of the multi-pool races: a walk over this many parts is far longer than a CAS. */
    private static final int PARTS = 64;
    private static final int ROUNDS = 20;
    private static final int GENERATIONS = 3;

    // ---------------------------------------------------------------- multi-pool transitions

    @ParameterizedTest(name = "shutdownNow={0}")
    @ValueSource(booleans = {false, true})
    void rebootRacingReleaseNeverLeavesAClosedPartInAnOpenMultiPool(boolean now) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            MultiPool mp = MultiPool.newMultiPool(PARTS, 1, LoadBalancing.ROUND_ROBIN, NO_PURGE);
            race(() -> {
                spinUntil("the release has begun", mp::isClosed);
                mp.reboot();
            }, now ? mp::shutdownNow : mp::release);
            assertFalse(mp.isClosed(), "the reboot came after the release");
            for (int i = 0; i < PARTS; i++) { // round robin from part 0 after a reboot: one task per part
                int r = round;
                int part = i;
                assertDoesNotThrow(() -> mp.execute(() -> { }),
                        () -> "round " + r + ": part " + part + " of an open multi-pool is closed");
            }
            mp.releaseTimeout(WAIT);
        }
    }

    /**
     * The JVM marks an ending platform thread terminated a moment before {@code isAlive()} turns false; a join
     * that came in between must still report the thread as ended (it made {@code awaitTermination} return
     * false at once).
     */
    @Test
    void joinReportsAThreadThatHasJustEndedAsEnded() throws InterruptedException {
        for (int i = 0; i < 10_000; i++) { // a deadline per thread: 10,000 thread starts may take long on a loaded host
            long deadline = PoolCore.deadline(WAIT.toNanos());
            Thread t = Thread.ofPlatform().start(() -> { });
            while (t.getState() != Thread.State.TERMINATED && deadline - System.nanoTime() > 0L) {
                Thread.yield(); // the thread may need this core to end, when the machine's others are busy
            }
            assertTrue(PoolCore.join(t, deadline), "thread " + i + " was reported alive after it ended");
        }
    }

    @Test
    void releaseRacingRebootNeverLeavesAnOpenPartInAClosedMultiPool() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            MultiPoolWithFunc<Object> mp = MultiPoolWithFunc.newMultiPool(PARTS, 1, x -> { },
                    LoadBalancing.ROUND_ROBIN, NO_PURGE);
            mp.release();
            race(() -> {
                spinUntil("the reboot has begun", () -> !mp.isClosed());
                mp.release();
            }, mp::reboot);
            assertTrue(mp.isClosed(), "the release came after the reboot");
            assertTrue(mp.awaitTermination(WAIT.toNanos(), TimeUnit.NANOSECONDS),
                    "round " + round + ": a closed multi-pool with an open part never terminates");
        }
    }

    @Test
    void tuneRacingTuneLeavesEveryPartTheSameCapacity() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            MultiPool mp = MultiPool.newMultiPool(PARTS, 1, LoadBalancing.ROUND_ROBIN, NO_PURGE);
            race(() -> {
                spinUntil("the first tune has begun", () -> mp.free(0) == 2);
                mp.tune(3);
            }, () -> mp.tune(2));
            for (int i = 0; i < PARTS; i++) { // no worker yet: a part's free slots are its capacity
                assertEquals(3, mp.free(i), "round " + round + ": capacity of part " + i);
            }
            assertEquals(3 * PARTS, mp.cap());
            mp.releaseTimeout(WAIT);
        }
    }

    /**
     * Runs {@code other} on a new thread and, once that thread runs, {@code mine} on this one; waits for both
     * and rethrows what {@code other} threw.
     */
    private static void race(Runnable other, Runnable mine) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name("racer").start(() -> {
            running.countDown();
            try {
                other.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        await(running);
        mine.run();
        assertTrue(t.join(WAIT), "the racing thread did not end");
        if (failure.get() != null) {
            throw new AssertionError("the racing thread failed", failure.get());
        }
    }

    /** Spins, without parking, until {@code condition} holds: the window to hit is microseconds wide. */
    private static void spinUntil(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void withoutAPurgerThereIsNoTicker() throws Exception {
        // The ticker only refreshes the clock the idle workers' stamps come from, and only the purger reads them.
        for (PoolOptions options : List.of(NO_PURGE,
                PoolOptions.builder().disablePurge(true).expiryDuration(Duration.ZERO).build())) {
            PoolCore core = core(2, options);
            assertEquals(List.of(), core.backgroundThreads(), options::toString);
            core.release();
            core.reboot();
            assertEquals(List.of(), core.backgroundThreads(), options::toString);
            core.release();
            assertTrue(core.awaitTermination(WAIT.toNanos()));
        }
        PoolCore purging = core(2, PoolOptions.defaults());
        List<String> names = new ArrayList<>();
        for (Thread t : purging.backgroundThreads()) {
            names.add(t.getName());
        }
        assertEquals(List.of("Pool-purger", "Pool-ticker"), names);
        purging.release();
        assertEquals(List.of(), purging.backgroundThreads());
        assertTrue(purging.awaitTermination(WAIT.toNanos()));
    }

    // ---------------------------------------------------------------- shutdownNow, then reboot

    private static PoolOptions platformNoPurge() {
        return PoolOptions.builder().disablePurge(true).threadFactory(Thread.ofPlatform().daemon(true).factory())
                .build();
    }

    /**
     * An interrupt from {@code shutdownNow} is for the tasks of before the reboot: a task submitted after
     * {@code shutdownNow(); reboot()} starts uninterrupted, also on the worker that was spinning in the fast
     * lane when the interrupt came (it is neither idle nor running a task).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void aTaskSubmittedAfterShutdownNowAndRebootStartsUninterrupted(Kind kind, Threads threads)
            throws Exception {
        PoolOptions.Builder b = PoolOptions.builder().disablePurge(true);
        if (threads == Threads.PLATFORM) {
            b.threadFactory(Thread.ofPlatform().daemon(true).factory());
        }
        Tested t = kind.make(2, b.build());
        AbstractWorkerPool pool = (AbstractWorkerPool) t.pool();
        int interrupted = 0;
        for (int i = 0; i < 200; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            t.submit().accept(ran::countDown); // its worker then spins in the fast lane for a while
            await(ran);
            pool.releaseNow();
            pool.reboot();
            AtomicBoolean startedInterrupted = new AtomicBoolean();
            CountDownLatch checked = new CountDownLatch(1);
            t.submit().accept(() -> {
                startedInterrupted.set(Thread.currentThread().isInterrupted());
                checked.countDown();
            });
            await(checked);
            if (startedInterrupted.get()) {
                interrupted++;
            }
        }
        assertEquals(0, interrupted, "tasks submitted after the reboot that started interrupted, of 200");
        pool.releaseTimeout(WAIT);
    }

    /**
     * A reboot racing {@code shutdownNow} (the reboot follows the close at once, while the interrupts may still
     * be on their way): a task submitted after the reboot returned is never interrupted, neither when it starts
     * nor while it runs, and the reopened pool does not go on interrupting the tasks it starts.
     */
    @ParameterizedTest(name = "multi={0}")
    @ValueSource(booleans = {false, true})
    void aTaskSubmittedAfterARebootThatRacedShutdownNowIsNeverInterrupted(boolean multi) throws Exception {
        int busy = 64; // a long walk: the interrupts take a while to reach every worker
        // room for the probe and for the last round's probe worker, which may still be counted; in a multi-pool,
        // in each sub-pool, since the probe waits in the sub-pool the balancing picks
        ExecutorService es = multi
                ? MultiPool.newMultiPool(2, busy / 2 + 2, LoadBalancing.LEAST_TASKS, platformNoPurge())
                : Pool.newPool(busy + 2, platformNoPurge());
        WorkerPool pool = (WorkerPool) es;
        CountDownLatch end = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(busy);
        for (int i = 0; i < busy; i++) {
            es.execute(() -> { // ignores the interrupts of every shutdownNow
                running.countDown();
                while (end.getCount() > 0) {
                    try {
                        end.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                        return;
                    } catch (InterruptedException e) {
                        // the next round interrupts again
                    }
                }
            });
        }
        await(running);
        int interrupted = 0;
        try {
            for (int round = 0; round < 300; round++) {
                AtomicBoolean shutdownNowReturned = new AtomicBoolean();
                AtomicBoolean probeInterrupted = new AtomicBoolean();
                CountDownLatch probed = new CountDownLatch(1);
                Runnable probe = () -> {
                    long deadline = System.nanoTime() + WAIT.toNanos();
                    while (!shutdownNowReturned.get() && deadline - System.nanoTime() > 0L) {
                        if (Thread.currentThread().isInterrupted()) {
                            probeInterrupted.set(true);
                        }
                        Thread.onSpinWait();
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        probeInterrupted.set(true);
                    }
                    probed.countDown();
                };
                race(() -> {
                    spinUntil("the shutdown has begun", pool::isClosed);
                    pool.reboot();
                    es.execute(probe);
                }, () -> {
                    es.shutdownNow();
                    shutdownNowReturned.set(true);
                });
                await(probed);
                if (probeInterrupted.get()) {
                    interrupted++;
                }
            }
        } finally {
            end.countDown();
        }
        assertEquals(0, interrupted, "tasks submitted after the reboot that were interrupted, of 300");
        pool.releaseTimeout(WAIT);
    }

    // ---------------------------------------------------------------- termination

    @Test
    void isTerminatedAsSoonAsShutDownWithoutWorkers() {
        // The purger and ticker are only asked to stop, and termination does not wait for them; nor is a
        // pool just made "idle enough": its background threads may not even have started yet.
        for (int round = 0; round < ROUNDS; round++) {
            Pool pool = Pool.newPool(2);
            assertFalse(pool.isTerminated());
            pool.shutdown();
            assertTrue(pool.isTerminated(), "round " + round + ": " + pool);
        }
        for (int round = 0; round < ROUNDS; round++) {
            MultiPool mp = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN);
            assertFalse(mp.isTerminated());
            mp.shutdown();
            assertTrue(mp.isTerminated(), "round " + round + ": " + mp);
        }
    }

    @Test
    void awaitTerminationWithTheMostNegativeTimeoutReturnsAtOnce() {
        Pool pool = Pool.newPool(2);
        PoolWithFunc<Object> pwf = PoolWithFunc.newPool(2, x -> { });
        MultiPool mp = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN);
        MultiPoolWithFunc<Object> mpwf = MultiPoolWithFunc.newMultiPool(2, 2, x -> { }, LoadBalancing.ROUND_ROBIN);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertFalse(pool.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS));
            assertFalse(pwf.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS));
            assertFalse(mp.awaitTermination(Long.MIN_VALUE, TimeUnit.NANOSECONDS));
            assertFalse(mpwf.awaitTermination(Long.MIN_VALUE, TimeUnit.DAYS));
        }, "an open pool's awaitTermination with a negative timeout must return false at once");
        pool.release();
        pwf.release();
        mp.release();
        mpwf.release();
    }

    @Test
    void isTerminatedAsSoonAsShutDownWithIdleWorkers() throws Exception {
        // Idle workers run no task: termination must not wait for their threads to wind down, but
        // awaitTermination still joins them.
        for (int round = 0; round < ROUNDS; round++) {
            TestSupport.RecordingFactory factory = new TestSupport.RecordingFactory(Thread.ofVirtual().factory());
            Pool pool = Pool.newPool(2, PoolOptions.builder().threadFactory(factory).build());
            CountDownLatch ran = new CountDownLatch(2);
            CountDownLatch both = new CountDownLatch(1);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    ran.countDown();
                    block(both);
                });
            }
            await(ran);
            both.countDown();
            eventually("both workers idle", () -> Probe.idle(pool) == 2);
            pool.shutdown();
            assertTrue(pool.isTerminated(), "round " + round + ": " + pool);
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
            for (Thread t : factory.threads) {
                assertFalse(t.isAlive(), t + " alive after awaitTermination");
            }
        }
    }

    @Test
    void isTerminatedOnceTheLastWorkerHasLeft() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Pool pool = Pool.newPool(2);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            pool.execute(() -> {
                started.countDown();
                block(go);
            });
            await(started);
            pool.shutdown();
            assertFalse(pool.isTerminated(), "a task still runs");
            go.countDown();
            spinUntil("the worker left", () -> pool.running() == 0);
            assertTrue(pool.isTerminated(), "round " + round + ": " + pool);
            assertTrue(pool.awaitTermination(WAIT.toNanos(), TimeUnit.NANOSECONDS));
            assertTrue(pool.isTerminated(), "stays terminated");
        }
    }

    @Test
    void awaitTerminationOutlivesTheThreadsOfEveryGeneration() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            TestSupport.RecordingFactory factory = new TestSupport.RecordingFactory(Thread.ofVirtual().factory());
            PoolCore core = core(2, PoolOptions.builder().threadFactory(factory).build());
            CountDownLatch ran = new CountDownLatch(1);
            core.dispatch((Runnable) ran::countDown, false, 0L);
            await(ran);
            List<Thread> threads = new ArrayList<>(core.backgroundThreads());
            for (int gen = 1; gen < GENERATIONS; gen++) {
                core.release();
                core.reboot();
                threads.addAll(core.backgroundThreads());
            }
            assertEquals(2 * GENERATIONS, threads.size(), "a purger and a ticker per generation");
            core.release();
            assertTrue(core.awaitTermination(WAIT.toNanos()));
            assertTrue(core.isTerminated());
            threads.addAll(factory.threads);
            for (Thread t : threads) {
                assertFalse(t.isAlive(), "round " + round + ": " + t + " still alive");
            }
        }
    }

    @Test
    void exitedThreadsForgetsTheTerminatedOnes() throws Exception {
        ExitedThreads exited = new ExitedThreads();
        Thread dead = Thread.ofVirtual().start(() -> { });
        dead.join(WAIT);
        CountDownLatch go = new CountDownLatch(1);
        Thread alive = Thread.ofVirtual().start(() -> block(go));
        exited.reserve(1);
        exited.add(alive);
        for (int i = 0; i < 1000; i++) { // prunes along the way
            exited.reserve(1);
            exited.add(dead);
        }
        assertArrayEquals(new Thread[] {alive}, exited.backgroundAlive());
        go.countDown();
        alive.join(WAIT);
        assertArrayEquals(new Thread[0], exited.backgroundAlive());
    }

    private static PoolCore core(int capacity, PoolOptions options) {
        return new PoolCore("Pool", capacity, options, task -> ((Runnable) task).run(), new SpinningWorkers());
    }

    // ---------------------------------------------------------------- counts across a tune down

    @Test
    void freeIsNeverNegativeAboveATunedDownCapacity() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Pool pool = Pool.newPool(4, NO_PURGE);
        MultiPool mp = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN, NO_PURGE);
        CountDownLatch started = new CountDownLatch(8);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                started.countDown();
                block(go);
            });
            mp.execute(() -> {
                started.countDown();
                block(go);
            });
        }
        await(started);
        pool.tune(2);
        mp.tune(1);
        assertEquals(4, pool.running());
        assertEquals(0, pool.free(), pool::toString);
        assertEquals(4, mp.running());
        assertEquals(0, mp.free(0));
        assertEquals(0, mp.free(1));
        assertEquals(0, mp.free(), "a bounded multi-pool never reports -1 (unlimited)");
        mp.tune(2);
        assertEquals(0, mp.free());
        mp.tune(3);
        assertEquals(2, mp.free(), "the sum of the parts' free slots");
        go.countDown();
        eventually("surplus workers retired", () -> pool.running() == 2, pool::toString);
        assertEquals(0, pool.free());
        pool.releaseTimeout(WAIT);
        mp.releaseTimeout(WAIT);
    }

    // ---------------------------------------------------------------- background threads

    @Test
    void interruptedPeriodicTaskParksAgain() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PeriodicTask task = PeriodicTask.start("test-periodic", true, TimeUnit.HOURS.toNanos(1), runs::incrementAndGet,
                new TaskFailures("test", PoolOptions.builder().build()));
        Thread t = task.thread();
        try {
            eventually("parked", () -> t.getState() == Thread.State.TIMED_WAITING);
            t.interrupt();
            // a busy loop never clears the flag and is mostly RUNNABLE
            eventually("interrupt consumed and parked again",
                    () -> !t.isInterrupted() && t.getState() == Thread.State.TIMED_WAITING,
                    () -> t + " interrupted=" + t.isInterrupted() + " state=" + t.getState());
            assertEquals(0, runs.get(), "the period has not passed");
        } finally {
            task.stop();
        }
        assertTrue(t.join(WAIT), "stop() ends the thread");
    }
}
