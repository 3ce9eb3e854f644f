package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.TIMEOUT_SECONDS;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolClosedException;
import io.ants4j.pool.PoolOptions;
import io.ants4j.pool.PoolStatisticsProbe;
import io.ants4j.pool.WorkerPool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The life-cycle contracts of the pools ({@code release}, {@code reboot}, {@code shutdownNow}, {@code close}
 * from a task, termination), explored by Fray on platform workers with no purger or ticker thread; the
 * random scheduler, as in {@link PoolFrayTest}.
 */
@ExtendWith(FrayTestExtension.class)
class PoolLifecycleFrayTest {
    /**
     * A submitter blocked when the pool is released is rejected with {@link PoolClosedException} even if
     * {@code reboot()} follows at once, before it wakes, and its task never runs: s1 and s2 wait behind t0 as
     * the pool is released and rebooted. The rebooted pool runs on, and terminates once released (issue 25,
     * defect 11: a woken submitter found the pool open again and went on waiting, and its task ran in the
     * reopened pool).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterBlockedBeforeReleaseIsRejectedAfterAReboot() throws Exception {
        aSubmitterBlockedBeforeReleaseIsRejectedAfterARebootScenario();
    }

    /** The schedule in which Fray found issue 25's defect 11 (iteration 3 of aSubmitterBlockedBeforeReleaseIsRejectedAfterAReboot, on the code before the fix). */
    @FrayTest(replay = "classpath:fray-recordings/PoolLifecycleFrayTest/aSubmitterBlockedBeforeReleaseIsRejectedAfterAReboot", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterBlockedBeforeReleaseIsRejectedAfterARebootReplay() throws Exception {
        aSubmitterBlockedBeforeReleaseIsRejectedAfterARebootScenario();
    }

    private static void aSubmitterBlockedBeforeReleaseIsRejectedAfterARebootScenario() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        Thread[] submitters = new Thread[2];
        for (int i = 1; i <= submitters.length; i++) {
            String name = "s" + i;
            submitters[i - 1] = start(name, () -> assertThrows(PoolClosedException.class,
                    () -> pool.execute(tasks.quick(name)),
                    name + ", blocked before release() and reboot(), was not rejected"));
            int waiters = i;
            until(name + " waits", () -> pool.waiting() == waiters);
        }
        pool.release();
        pool.reboot();
        t0Ends.countDown();
        join(submitters);
        pool.execute(tasks.quick("after"));
        tasks.untilStarted(2);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "after");
    }

    /**
     * {@code release()}'s javadoc, raced: "blocked submitters ... wake up with {@link PoolClosedException} (also
     * when a {@code reboot()} follows before they wake: their tasks never run)". Every worker busy (t0 on a pool
     * of one), submitters blocked behind it (s1 to s3; each woken by the release is a chance to be late for it);
     * another thread calls {@code release(); reboot()} while a third lets the busy tasks end once the pool shows
     * closed: before the reboot, as it reboots, or after (freed any earlier, the worker serves every submitter
     * before the release comes, which is nothing but a pool at work). Invariant: each submitter either was served (its call
     * returns, its task runs once) or is rejected with {@link PoolClosedException} (its task never runs, also
     * not in the reopened pool), never anything else and never left waiting. A blocked submitter can be served
     * only before the release, and only by the hand-off of its busy task's worker (the only worker of its
     * pool): so one whose busy task ended only after {@code release()} had returned must be rejected, and a
     * served one's task runs on that worker's thread, not on a worker of the reopened pool. The reopened pool
     * runs a task and terminates once released. (Mutants: a release that leaves the waiters queued, caught at
     * iteration 0. A submitter woken {@code CLOSED} that finds the pool open again and dispatches once more,
     * issue 25's defect 11 reintroduced in {@code PoolCore.awaitTurn}, survives: the reboot must complete, a
     * dozen or more scheduling points of the releasing thread, before the woken submitter's three or so reach
     * its look at the state; with a {@code System.err.println} added there, which widens that path, it was
     * caught at iterations 5, 6 and 25.)
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterBlockedAcrossAnotherThreadsReleaseAndRebootIsRejected() throws Exception {
        blockedAcrossAnotherThreadsReleaseAndReboot(Pool.newPool(1, PoolTasks.options()), 1, 3);
    }

    /**
     * The same on a {@code MultiPool} of 2×1, round robin: t0 and t1 hold the two sub-pools, s1 to s4 wait two
     * in each (each is served only by its own sub-pool's worker); the multi-pool's {@code release(); reboot()}
     * on another thread. (Mutants: the release that leaves the waiters queued, caught at iteration 0; the
     * {@code awaitTurn} one above and a round-robin retry that also catches the first sub-pool's
     * {@link PoolClosedException} survive, their window narrower still: the releasing thread must also release
     * the other sub-pool before it reboots.)
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterBlockedAcrossAnotherThreadsReleaseAndRebootIsRejectedByAMultiPool() throws Exception {
        blockedAcrossAnotherThreadsReleaseAndReboot(
                MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options()), 2, 2);
    }

    /**
     * The window of the two tests above that no random walk reached, alone: a submitter woken {@code CLOSED} by
     * the release that has not yet looked at what it was granted when the releasing thread's {@code reboot()}
     * has already reopened the pool. It is rejected with {@link PoolClosedException} all the same, and its task
     * never runs, also not in the reopened pool ({@code release()}'s javadoc: "also when a {@code reboot()}
     * follows before they wake"). s1 alone waits behind t0 on a pool of one; the test thread itself calls
     * {@code release(); reboot()}, so that during the reboot only s1 competes with it (t0 is held, and no thread
     * polls), and only then lets t0 end. The POS scheduler ({@link StarvationFreePOSScheduler}): a thread woken up
     * draws one priority and keeps it until it runs, while the running thread draws a new one at each step, so the
     * releasing thread completes its k steps before s1's first with probability about 1/(k+1), where a random
     * walk's is 2^-k.
     * (Mutant: in {@code PoolCore.awaitTurn}, a waiter granted {@code CLOSED} that finds the pool open again
     * dispatches once more, issue 25's defect 11: caught, see docs/testing.md.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = StarvationFreePOSScheduler.class)
    void aSubmitterWokenByAReleaseIsRejectedThoughTheReleasingThreadRebootedBeforeItLooked() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        wokenByAReleaseThoughRebootedBeforeItLooked(pool, 1, pool::waiting);
    }

    /**
     * The same on a {@code MultiPool} of 2×1, round robin: t0 and t1 hold the two sub-pools, s1 waits in one;
     * the multi-pool's {@code release()} rejects it, its {@code reboot()} reopens both sub-pools before s1
     * looks. s1's {@link PoolClosedException} comes from its sub-pool, after the multi-pool's own check passed:
     * the round-robin retry, which looks again on the least-running sub-pool after an overloaded one, must let
     * it through. (Mutants: that retry also catching {@code PoolClosedException}, its second look finding the
     * reopened sub-pool; the {@code awaitTurn} one above: both caught, see docs/testing.md.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = StarvationFreePOSScheduler.class)
    void aSubmitterWokenByAReleaseIsRejectedThoughTheReleasingThreadRebootedBeforeItLookedByAMultiPool()
            throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        // the sub-pools' counts, each a plain volatile read: the multi-pool's waiting() takes their locks, and
        // under POS a thread spinning for a lock that s1 holds starved s1 (the yields between its attempts
        // race with nothing, and POS runs such a step before any other)
        wokenByAReleaseThoughRebootedBeforeItLooked(pool, 2, () -> pool.waiting(0) + pool.waiting(1));
    }

    private static <P extends java.util.concurrent.Executor & WorkerPool> void wokenByAReleaseThoughRebootedBeforeItLooked(
            P pool, int workers, java.util.function.IntSupplier waiting) throws Exception {
        // the capacity as a constant: a multi-pool's cap() takes every sub-pool's lock, and under POS two threads
        // spinning for those locks (a task reading cap(), a submitter) starved their holder until the watchdog
        PoolTasks tasks = new PoolTasks(() -> workers);
        CountDownLatch busyEnd = new CountDownLatch(1);
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < workers; i++) {
            expected.add("t" + i);
            pool.execute(tasks.holding("t" + i, busyEnd));
        }
        tasks.awaitStarted(workers); // blocked: under POS a polling wait starved the tasks
        AtomicReference<Object> outcome = new AtomicReference<>();
        CountDownLatch s1Runs = new CountDownLatch(1);
        Thread s1 = start("s1", () -> {
            s1Runs.countDown();
            try {
                pool.execute(tasks.quick("s1"));
                outcome.set("served");
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        assertTrue(s1Runs.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "s1 never ran");
        // POS runs a pending yield before any other step, so this loop reads the count only (onSpinWait is no
        // scheduling point). Even so POS left s1 short of waiting for 100,000 reads in 2 of some 14 runs (cause not
        // found): such a schedule cannot open the window and checks only what holds whenever s1 came; the bound
        // comes before t0's own (10 virtual seconds), so that t0 is still held then
        boolean s1Waits = false;
        for (int i = 0; i < 50_000 && !(s1Waits = waiting.getAsInt() == 1); i++) {
            Thread.onSpinWait();
        }
        pool.release();
        pool.reboot();
        busyEnd.countDown();
        join(s1);
        Object o = outcome.get();
        if (s1Waits) {
            assertInstanceOf(PoolClosedException.class, o, () -> "s1, blocked before release() and woken by it,"
                    + " ended with " + o + " once reboot() had reopened the pool");
        } else if ("served".equals(o)) { // it came after the reboot
            expected.add("s1");
        } else {
            assertInstanceOf(PoolClosedException.class, o, () -> "s1 ended with " + o);
        }
        for (int i = 0; i < workers; i++) {
            pool.execute(tasks.quick("after" + i));
            expected.add("after" + i);
        }
        tasks.awaitStarted(expected.size());
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce(expected.toArray(String[]::new)); // s1's only if it came after the reboot
    }

    private static <P extends java.util.concurrent.Executor & WorkerPool> void blockedAcrossAnotherThreadsReleaseAndReboot(
            P pool, int workers, int perWorker) throws Exception {
        PoolTasks tasks = new PoolTasks(pool::cap);
        AtomicBoolean released = new AtomicBoolean(); // set once release() has returned
        CountDownLatch busyEnd = new CountDownLatch(1);
        List<AtomicBoolean> endedAfterRelease = new java.util.ArrayList<>();
        List<AtomicReference<Thread>> busyThreads = new java.util.ArrayList<>();
        for (int i = 0; i < workers; i++) {
            AtomicBoolean after = new AtomicBoolean();
            AtomicReference<Thread> busyThread = new AtomicReference<>();
            endedAfterRelease.add(after);
            busyThreads.add(busyThread);
            Runnable hold = tasks.holding("t" + i, busyEnd);
            pool.execute(() -> {
                busyThread.set(Thread.currentThread());
                hold.run();
                after.set(released.get()); // before its worker looks for a waiter
            });
        }
        tasks.untilStarted(workers);
        int n = workers * perWorker; // s(k+1) waits behind t(k % workers): round robin over the sub-pools
        Thread[] submitters = new Thread[n];
        List<AtomicReference<Object>> outcomes = new java.util.ArrayList<>();
        List<AtomicReference<Thread>> servedThreads = new java.util.ArrayList<>();
        for (int k = 0; k < n; k++) {
            String name = "s" + (k + 1);
            AtomicReference<Object> outcome = new AtomicReference<>();
            AtomicReference<Thread> servedThread = new AtomicReference<>();
            outcomes.add(outcome);
            servedThreads.add(servedThread);
            Runnable quick = tasks.quick(name);
            submitters[k] = start(name, () -> {
                try {
                    pool.execute(() -> {
                        servedThread.set(Thread.currentThread());
                        quick.run();
                    });
                    outcome.set("served");
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            int waiters = k + 1;
            until(name + " waits", () -> pool.waiting() == waiters);
        }
        Thread cycler = start("release, reboot", () -> {
            pool.release();
            released.set(true);
            pool.reboot();
        });
        Thread freer = start("busy tasks end", () -> { // once closed: freed earlier, the worker serves them all
            until("closed", pool::isClosed);
            busyEnd.countDown();
        });
        join(cycler, freer);
        join(submitters);
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < workers; i++) {
            expected.add("t" + i);
        }
        for (int k = 0; k < n; k++) {
            String name = "s" + (k + 1);
            int i = k % workers;
            String busy = "t" + i;
            Object outcome = outcomes.get(k).get();
            if ("served".equals(outcome)) {
                assertFalse(endedAfterRelease.get(i).get(), () -> name + " was served though " + busy
                        + "'s worker, the only one that could serve it, freed up only after release() returned");
                AtomicReference<Thread> servedThread = servedThreads.get(k);
                until(name + " ran", () -> servedThread.get() != null);
                assertEquals(busyThreads.get(i).get(), servedThread.get(), () -> name + " was served, but not by"
                        + " the hand-off of " + busy + "'s worker: a worker of the reopened pool ran it");
                expected.add(name);
            } else {
                assertInstanceOf(PoolClosedException.class, outcome, () -> name + " ended with " + outcome);
            }
        }
        for (int i = 0; i < workers; i++) {
            pool.execute(tasks.quick("after" + i));
            expected.add("after" + i);
        }
        tasks.untilStarted(expected.size());
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce(expected.toArray(String[]::new));
    }

    /**
     * {@code awaitTermination} returns true only once every thread of the pool has ended, also a worker started
     * before a {@code reboot()} (the {@code WorkerPool} javadoc): t0 runs on w1 while one thread releases,
     * reboots and releases the pool again, another awaits its termination, and a third lets t0 end, in any
     * order. When the wait returns true, w1 has ended, whether the pool terminated before the reboot (t0 ended
     * first) or only after the second release (w1 may have served the reopened pool meanwhile); it does return
     * true, and so does every later call until the next reboot.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void awaitTerminationWaitsForTheWorkersOfBeforeAReboot() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        CountDownLatch t0Ends = new CountDownLatch(1);
        AtomicReference<Thread> w1 = new AtomicReference<>();
        pool.execute(() -> {
            w1.set(Thread.currentThread());
            try {
                assertTrue(t0Ends.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "t0 never released");
            } catch (InterruptedException e) {
                throw new AssertionError("t0 interrupted", e);
            }
        });
        until("t0 runs", () -> w1.get() != null);
        Thread cycler = start("release, reboot, release", () -> {
            pool.release();
            pool.reboot();
            pool.release();
        });
        Thread waiter = start("awaitTermination", () -> {
            assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
            assertFalse(w1.get().isAlive(), () -> "awaitTermination returned true while w1 was alive: " + pool);
        });
        Thread opener = start("t0 ends", t0Ends::countDown);
        join(cycler, opener, waiter);
        assertTrue(pool.awaitTermination(0, TimeUnit.SECONDS), pool::toString);
        assertTrue(pool.isTerminated(), pool::toString);
    }

    /**
     * A multi-pool's {@code awaitTermination} returns true only once every thread of every sub-pool has ended,
     * also a sub-pool it saw terminated before a {@code reboot()} that has started a worker since (the
     * {@code WorkerPool} javadoc: "it has terminated once it is closed and no worker is left"; MultiPoolCore:
     * "if the multi-pool was rebooted meanwhile, a sub-pool awaited before the reboot may have started threads
     * again, so the wait starts over"). A round-robin multi-pool of 2×1: q0 ran on sub-pool 0, t0 runs on
     * sub-pool 1; the main thread releases it, a waiter awaits its termination; once the waiter is parked, a
     * cycler reboots, executes x (round robin after a reboot: sub-pool 0, a new worker) and releases again;
     * t0 and x are let go by two threads at any moment. When the wait returns true, x's worker has ended
     * (coverage review 10, mutant M-A: {@code awaitParts} without its start-over after a reboot returned true
     * with x still running).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolsAwaitTerminationStartsOverAfterAReboot() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        CountDownLatch q0Ran = new CountDownLatch(1);
        pool.execute(q0Ran::countDown);
        assertTrue(q0Ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "q0 never ran");
        CountDownLatch t0Ends = new CountDownLatch(1);
        CountDownLatch xEnds = new CountDownLatch(1);
        AtomicReference<Thread> xWorker = new AtomicReference<>();
        pool.execute(() -> await(t0Ends, "t0"));
        pool.release();
        Thread waiter = start("awaitTermination", () -> {
            assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
            Thread w = xWorker.get();
            assertTrue(w != null && !w.isAlive(),
                    () -> "awaitTermination returned true while x's worker " + w + " had not ended: " + pool);
        });
        FrayThreads.untilParked(waiter);
        Thread cycler = start("reboot, execute x, release", () -> {
            pool.reboot();
            pool.execute(() -> {
                xWorker.set(Thread.currentThread());
                await(xEnds, "x");
            });
            pool.release();
        });
        Thread t0Ender = start("t0 ends", t0Ends::countDown);
        Thread xEnder = start("x ends", xEnds::countDown);
        join(cycler, t0Ender, xEnder, waiter);
        assertTrue(pool.awaitTermination(0, TimeUnit.SECONDS), pool::toString);
        assertTrue(pool.isTerminated(), pool::toString);
    }

    private static void await(CountDownLatch latch, String task) {
        try {
            assertTrue(latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), task + " never released");
        } catch (InterruptedException e) {
            throw new AssertionError(task + " interrupted", e);
        }
    }

    /**
     * No interrupt from {@code shutdownNow()} reaches a task of the rebooted pool: a task submitted after a
     * {@code shutdownNow()} and the {@code reboot()} that follows it starts with its interrupt status clear and
     * keeps it clear, whatever the worker that takes it (one still spinning in the fast lane, one going back to
     * idle, a new one) was doing when the interrupts went out. The reboot comes from another thread as soon as
     * the pool shows closed, so it may overlap the rest of {@code shutdownNow} (which the pool orders before
     * it) (issue 25, defect 9: a reboot between the close and the stop mark left the reopened pool starting
     * every task interrupted; a worker that was spinning in the lane kept the interrupt for its next task).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void noShutdownNowInterruptReachesATaskOfTheRebootedPool() throws Exception {
        noShutdownNowInterruptReachesATaskOfTheRebootedPoolScenario();
    }

    /** The schedule in which Fray found issue 25's defect 9 (iteration 18 of noShutdownNowInterruptReachesATaskOfTheRebootedPool, on the code before the fix). */
    @FrayTest(replay = "classpath:fray-recordings/PoolLifecycleFrayTest/noShutdownNowInterruptReachesATaskOfTheRebootedPool", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void noShutdownNowInterruptReachesATaskOfTheRebootedPoolReplay() throws Exception {
        noShutdownNowInterruptReachesATaskOfTheRebootedPoolScenario();
    }

    private static void noShutdownNowInterruptReachesATaskOfTheRebootedPoolScenario() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        AtomicBoolean t0Done = new AtomicBoolean();
        pool.execute(() -> t0Done.set(true));
        until("t0 ran", t0Done::get);
        Thread stopper = start("stopper", pool::shutdownNow);
        Thread rebooter = start("rebooter", () -> {
            until("the pool is closed", pool::isClosed);
            pool.reboot();
        });
        join(stopper, rebooter);
        AtomicInteger interruptedAt = new AtomicInteger(); // 1: at its start, 2: after a yield
        CountDownLatch t1Done = new CountDownLatch(1);
        pool.execute(() -> {
            if (Thread.currentThread().isInterrupted()) {
                interruptedAt.set(1);
            }
            Thread.yield();
            if (Thread.currentThread().isInterrupted()) {
                interruptedAt.compareAndSet(0, 2);
            }
            t1Done.countDown();
        });
        assertTrue(t1Done.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, interruptedAt.get(),
                "a task of the rebooted pool was interrupted (1: it started so, 2: while it ran)");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /**
     * {@code shutdownNow()} interrupts every task of the pool it closes: one running when it is called, and one
     * handed over as the pool closes, which starts interrupted. On a pool of three, t0 runs and q's worker has
     * just finished (spinning in the fast lane or going back to idle); s1 and s2 submit while another thread
     * calls {@code shutdownNow()}, so their tasks go to q's worker or to a new one, before, during or after
     * the close. Each task waits for an interrupt (bounded); every task the pool accepted is interrupted, a
     * submission refused never runs, and the pool terminates.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void shutdownNowInterruptsEveryTaskItAccepted() throws Exception {
        shutdownNowInterruptsEveryTaskItAcceptedScenario(PoolTasks.options());
    }

    /**
     * The same when interrupting a worker's thread throws (CHANGELOG, Fixed: {@code shutdownNow()} "interrupts every
     * running task even when one Thread.interrupt() throws"; its javadoc: "An interrupt that throws ... does not stop
     * the others: it is logged at ERROR with the pool's logger, and this call returns normally"): every worker
     * thread's {@code interrupt()}, called by another thread, sets the status and then throws
     * ({@link InterruptThrows#DAEMONS_THROWING_FOR_OTHERS}). Invariants as above, and {@code shutdownNow()} returns
     * normally, having logged at {@code ERROR} what the interrupts threw (t0's at least), and nothing else.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void shutdownNowInterruptsEveryTaskItAcceptedAlsoWhenInterruptsThrow() throws Exception {
        shutdownNowWithThrowingInterrupts(InterruptThrows.DAEMONS_THROWING_FOR_OTHERS);
    }

    /**
     * The same with a worker's interrupt of itself throwing too, as it does when the thread's {@code interrupt()}
     * throws whoever calls it ({@link InterruptThrows#DAEMONS}): a task handed over as {@code shutdownNow()} closes
     * the pool "starts interrupted" (its javadoc), by its worker's interrupt of itself, and still runs, once (the
     * worker's {@code runPayload} "never throws").
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskHandedOverAsShutdownNowClosesRunsAlsoWhenItsWorkersInterruptThrows() throws Exception {
        shutdownNowWithThrowingInterrupts(InterruptThrows.DAEMONS);
    }

    private static void shutdownNowWithThrowingInterrupts(java.util.concurrent.ThreadFactory workers) throws Exception {
        ErrorLogger logger = new ErrorLogger();
        List<Throwable> killedAWorker = new CopyOnWriteArrayList<>();
        shutdownNowInterruptsEveryTaskItAcceptedScenario(PoolOptions.builder().threadFactory(r -> {
            Thread t = workers.newThread(r);
            // kept here, so that a worker dying of it fails the schedule on the test thread, which then ends it
            t.setUncaughtExceptionHandler((dead, e) -> killedAWorker.add(e));
            return t;
        }).logger(logger).disablePurge(true).build());
        assertEquals(List.of(), killedAWorker, "what a worker thread died of");
        List<Throwable> errors = logger.errors();
        assertFalse(errors.isEmpty(), "shutdownNow() logged no interrupt that threw");
        for (Throwable e : errors) {
            assertEquals(InterruptThrows.INJECTED, e == null ? null : e.getMessage(), () -> "logged at ERROR: " + errors);
        }
    }

    private static void shutdownNowInterruptsEveryTaskItAcceptedScenario(PoolOptions options) throws Exception {
        Pool pool = Pool.newPool(3, options);
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Set<String> started = ConcurrentHashMap.newKeySet();
        Set<String> interrupted = ConcurrentHashMap.newKeySet();
        AtomicBoolean qDone = new AtomicBoolean();
        pool.execute(waitsForAnInterrupt("t0", started, interrupted));
        accepted.add("t0");
        pool.execute(() -> qDone.set(true));
        until("t0 runs and q ran", () -> started.contains("t0") && qDone.get());
        Thread s1 = start("s1", () -> submit(pool, "s1", accepted, started, interrupted));
        Thread s2 = start("s2", () -> submit(pool, "s2", accepted, started, interrupted));
        Thread stopper = start("stopper", () -> assertDoesNotThrow(pool::shutdownNow, "shutdownNow() threw"));
        join(s1, s2, stopper);
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                () -> "a task of the pool escaped shutdownNow's interrupt: " + pool + ", interrupted " + interrupted
                        + " of " + started);
        assertEquals(accepted, started, "a task accepted did not run, or a refused one ran");
        assertEquals(accepted, interrupted, "a task of the pool escaped shutdownNow's interrupt");
    }

    private static void submit(Pool pool, String name, Set<String> accepted, Set<String> started,
            Set<String> interrupted) {
        try {
            pool.execute(waitsForAnInterrupt(name, started, interrupted));
            accepted.add(name);
        } catch (PoolClosedException refused) {
            // closed before the task was handed over: it must never run
        }
    }

    /**
     * A task that records its start and then waits for an interrupt, recording it when it comes. The wait has
     * no bound of its own: a task never interrupted keeps the pool from terminating, which the test's bounded
     * awaitTermination reports (a timed wait here ended, on Fray's clock, before the shutdownNow came).
     */
    private static Runnable waitsForAnInterrupt(String name, Set<String> started, Set<String> interrupted) {
        return () -> {
            started.add(name);
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                interrupted.add(name);
            }
        };
    }

    /**
     * {@code shutdown()} (the {@code ExecutorService} view: "Same as {@link Pool#release()}", whose javadoc says
     * "new submissions are rejected with {@link PoolClosedException}, blocked submitters ... wake up with
     * {@link PoolClosedException} ..., running tasks finish"; {@code ExecutorService.shutdown}: "previously submitted
     * tasks are executed"): t0 runs on a pool of one while s1 submits, blocked behind t0 or not yet, and another
     * thread calls {@code shutdown()}. s1 is rejected either way and its task never runs; t0 is not interrupted and
     * finishes once let go; the pool is shut down and terminates. Coverage review 25, mutants SD
     * ({@code shutdown()} calling {@code releaseNow()}: t0 interrupted) and SD0 ({@code shutdown()} doing nothing):
     * no other systematic test calls {@code shutdown()}.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void shutdownLetsTheRunningTaskFinishAndRejectsTheSubmitters() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        ExecutorService executor = pool;
        CountDownLatch t0Ends = new CountDownLatch(1);
        AtomicBoolean t0Started = new AtomicBoolean();
        AtomicReference<String> t0Outcome = new AtomicReference<>("not ended");
        executor.execute(() -> {
            t0Started.set(true);
            try {
                t0Ends.await(); // untimed, as waitsForAnInterrupt: a timed wait may end on Fray's clock first
                t0Outcome.set(Thread.currentThread().isInterrupted() ? "interrupted after its wait" : "finished");
            } catch (InterruptedException e) {
                t0Outcome.set("interrupted");
            }
        });
        until("t0 runs", t0Started::get);
        AtomicBoolean s1Ran = new AtomicBoolean();
        Thread s1 = start("s1", () -> assertThrows(PoolClosedException.class,
                () -> executor.execute(() -> s1Ran.set(true)), "s1, racing shutdown(), was not rejected"));
        Thread stopper = start("stopper", executor::shutdown);
        join(s1, stopper);
        assertTrue(executor.isShutdown(), () -> "shutdown() returned, the pool is not shut down: " + pool);
        assertThrows(PoolClosedException.class, () -> executor.execute(() -> s1Ran.set(true)),
                "a submission after shutdown() was accepted");
        t0Ends.countDown();
        assertTrue(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals("finished", t0Outcome.get(), "the task running at shutdown() did not finish normally");
        assertFalse(s1Ran.get(), "a task rejected by shutdown() ran");
    }

    /**
     * {@code close()} from a task: it returns once every other task of the pool has ended, and the pool
     * terminates. A task closes its pool of two workers while the other task runs: close() returns only after
     * the other ended.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskClosingItsPoolWaitsForTheOthers() throws Exception {
        Pool pool = Pool.newPool(2, PoolTasks.options());
        CountDownLatch bothStarted = new CountDownLatch(2);
        AtomicBoolean otherEnded = new AtomicBoolean();
        AtomicBoolean closeReturned = new AtomicBoolean();
        pool.execute(() -> {
            started(bothStarted);
            Thread.yield();
            otherEnded.set(true);
        });
        pool.execute(() -> {
            started(bothStarted);
            pool.close();
            assertTrue(otherEnded.get(), "close() from a task returned while another task ran");
            closeReturned.set(true);
        });
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertTrue(closeReturned.get(), "the closing task did not finish");
    }

    /**
     * Two tasks that call {@code close()} on their own {@link Pool} do not wait for each other: both calls
     * return, and the pool terminates (issue 25, defect 10: each waited for the other's worker to end, for ever).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoTasksClosingTheirPoolBothReturn() throws Exception {
        twoTasksClose(Pool.newPool(2, PoolTasks.options()));
    }

    /** The schedule in which Fray found issue 25's defect 10 (iteration 0 of twoTasksClosingTheirPoolBothReturn, on the code before the fix). */
    @FrayTest(replay = "classpath:fray-recordings/PoolLifecycleFrayTest/twoTasksClosingTheirPoolBothReturn", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoTasksClosingTheirPoolBothReturnReplay() throws Exception {
        twoTasksClose(Pool.newPool(2, PoolTasks.options()));
    }

    /**
     * The same for a {@link MultiPool}: two tasks on different sub-pools close the multi-pool; both calls return
     * and it terminates (issue 25, defect 10: each waited for the other's sub-pool to terminate).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoTasksClosingTheirMultiPoolBothReturn() throws Exception {
        twoTasksClose(MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options()));
    }

    /** The schedule in which Fray found issue 25's defect 10 (iteration 0 of twoTasksClosingTheirMultiPoolBothReturn, on the code before the fix). */
    @FrayTest(replay = "classpath:fray-recordings/PoolLifecycleFrayTest/twoTasksClosingTheirMultiPoolBothReturn", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoTasksClosingTheirMultiPoolBothReturnReplay() throws Exception {
        twoTasksClose(MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options()));
    }

    /**
     * {@code ants4j.PoolStatistics} is emitted "one per open pool" (PoolEvents: "a pool is in it from its
     * construction or reboot to its release"). A release and a reboot (once the pool shows closed) from two
     * threads: if the pool ends open, it is in the periodic statistics (found by review 12 at iterations 8 to 13:
     * the release took the pool out after its core had closed, undoing the registration of a reboot in between).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anOpenPoolStaysInThePeriodicStatistics() throws Exception {
        anOpenPoolStaysInThePeriodicStatisticsScenario();
    }

    /** The schedule in which Fray found it on the code before the fix. */
    @FrayTest(replay = "classpath:fray-recordings/PoolLifecycleFrayTest/anOpenPoolStaysInThePeriodicStatistics",
            resetClassLoaderPerIteration = false, systemTimeDelegateType = SystemTimeDelegateType.MOCK,
            ignoreTimedBlock = false, scheduler = RandomScheduler.class)
    void anOpenPoolStaysInThePeriodicStatisticsReplay() throws Exception {
        anOpenPoolStaysInThePeriodicStatisticsScenario();
    }

    private static void anOpenPoolStaysInThePeriodicStatisticsScenario() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        Thread releaser = start("releaser", pool::release);
        Thread rebooter = start("rebooter", () -> {
            until("closed", pool::isClosed);
            pool.reboot();
        });
        join(releaser, rebooter);
        assertTrue(pool.isClosed() || PoolStatisticsProbe.inPeriodicStatistics(pool),
                () -> "an open pool is missing from the periodic PoolStatistics: " + pool);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    private static void twoTasksClose(ExecutorService pool) throws Exception {
        CountDownLatch bothStarted = new CountDownLatch(2);
        CountDownLatch closed = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                started(bothStarted);
                pool.close();
                closed.countDown();
            });
        }
        assertTrue(closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), () -> "close() from a task did not return: "
                + pool);
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertFalse(pool.isShutdown() && !pool.isTerminated(), pool::toString);
    }

    /**
     * {@code close()} interrupted while it waits (WorkerPool's javadoc: "if interrupted while waiting, it
     * interrupts the running tasks (as {@code shutdownNow} does) once, goes on waiting, and returns with the
     * interrupt status set"). t0 runs until it is interrupted; a closer calls {@code close()} and is
     * interrupted, at any point of its call, then, once t0 has had its interrupt and the closer has taken its
     * own and waits again, interrupted a second time. Invariants: the first interrupt reaches t0 (else the
     * pool never terminates and the closer is reported stuck); the second one does not (t0, waiting again
     * untimed until the closer has taken it, sees no second interrupt); {@code close()} returns only once t0 has
     * ended, with the closer's interrupt status set; the pool is terminated.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedCloseInterruptsTheTasksOnceAndKeepsTheInterrupt() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        AtomicBoolean t0Started = new AtomicBoolean();
        AtomicInteger t0Interrupts = new AtomicInteger();
        AtomicBoolean t0Ended = new AtomicBoolean();
        CountDownLatch secondInterruptTaken = new CountDownLatch(1);
        pool.execute(() -> {
            t0Started.set(true);
            try {
                new CountDownLatch(1).await(); // untimed: only an interrupt ends it
            } catch (InterruptedException first) {
                t0Interrupts.incrementAndGet();
                Thread.interrupted(); // under Fray 0.9.2 the status outlives a latch's InterruptedException
            }
            try {
                secondInterruptTaken.await(); // opened once the closer has taken its second interrupt
            } catch (InterruptedException second) {
                t0Interrupts.incrementAndGet();
            }
            t0Ended.set(true);
        });
        until("t0 runs", t0Started::get);
        Thread closer = start("closer", () -> {
            pool.close();
            assertTrue(t0Ended.get(), "close() returned while t0 ran");
            assertTrue(Thread.interrupted(), "close() returned without the interrupt status set");
        });
        closer.interrupt();
        until("t0 has its interrupt", () -> t0Interrupts.get() > 0);
        until("the closer has taken the first interrupt", () -> !closer.isInterrupted());
        closer.interrupt();
        until("the closer has taken the second interrupt", () -> !closer.isInterrupted());
        until("the closer waits again or has returned", () -> closer.getState() == Thread.State.WAITING
                || closer.getState() == Thread.State.TIMED_WAITING || !closer.isAlive()); // a second shutdownNow is out by then
        secondInterruptTaken.countDown();
        join(closer);
        assertEquals(1, t0Interrupts.get(), "close() interrupted the running task more than once");
        assertTrue(pool.isTerminated(), pool::toString);
    }

    /**
     * A logger that waits for the pool from inside its {@code shutdownNow()} is refused, and nothing else is
     * ({@code WorkerPool}: {@code awaitTermination} and {@code releaseTimeout} throw {@link IllegalStateException}
     * "if called from inside a shutdownNow of this pool on the same thread"; {@code shutdownNow()}'s javadoc: a
     * logger that calls {@code close()}, {@code awaitTermination} or {@code releaseTimeout} on this pool from there
     * gets it, and the call returns normally). On a pool of two whose workers' {@code interrupt()} throws
     * ({@link InterruptThrows}), t0 and t1 wait for an interrupt; a stopper calls {@code shutdownNow()}, whose
     * logger, at the first interrupt that threw, calls {@code awaitTermination}, {@code releaseTimeout} and
     * {@code close()} on the pool; meanwhile, at any point (before the stopper, while its logger runs, after), one
     * thread calls {@code awaitTermination} and another {@code releaseTimeout} (whose release may close the pool
     * first). Invariants: each of the logger's three calls throws {@code IllegalStateException}; shutdownNow
     * returns normally and both tasks are interrupted; the other threads' calls are not refused: they wait and
     * return (true, normally); so are the stopper's own {@code awaitTermination} and {@code close()} once its
     * {@code shutdownNow()} has returned; then every thread the factory made has ended.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aLoggerWaitingForThePoolInsideShutdownNowIsRefusedAndNothingElseIs() throws Exception {
        AtomicReference<Pool> poolOfLogger = new AtomicReference<>();
        Map<String, Object> fromLogger = new ConcurrentHashMap<>(); // each call: what it threw, or returned
        CountDownLatch loggerWaited = new CountDownLatch(1);
        ErrorLogger logger = new ErrorLogger(() -> {
            Pool p = poolOfLogger.get();
            fromLogger.put("awaitTermination", outcome(() -> p.awaitTermination(100, TimeUnit.MILLISECONDS)));
            fromLogger.put("releaseTimeout", outcome(() -> {
                p.releaseTimeout(Duration.ofMillis(100));
                return "returned";
            }));
            loggerWaited.countDown(); // before close(): refused or not, the two timed calls have returned
            fromLogger.put("close", outcome(() -> {
                p.close();
                return "returned";
            }));
        });
        List<Thread> made = new CopyOnWriteArrayList<>();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).disablePurge(true).threadFactory(r -> {
            Thread t = InterruptThrows.DAEMONS_THROWING_FOR_OTHERS.newThread(r);
            made.add(t);
            return t;
        }).build());
        poolOfLogger.set(pool);
        Set<String> started = ConcurrentHashMap.newKeySet();
        Set<String> interrupted = ConcurrentHashMap.newKeySet();
        pool.execute(waitsForAnInterrupt("t0", started, interrupted));
        pool.execute(waitsForAnInterrupt("t1", started, interrupted));
        until("t0 and t1 run", () -> started.size() == 2);
        Thread stopper = start("stopper", () -> {
            assertDoesNotThrow(pool::shutdownNow, "shutdownNow() threw");
            assertTrue(assertDoesNotThrow(() -> pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                    "awaitTermination after shutdownNow() returned, on its thread"), pool::toString);
            assertDoesNotThrow(pool::close, "close() after shutdownNow() returned, on its thread");
        });
        Thread awaiter = start("awaiter", () -> assertTrue(assertDoesNotThrow(
                () -> pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), "awaitTermination on another thread"),
                pool::toString));
        Thread releaser = start("releaser", () -> assertDoesNotThrow(
                () -> pool.releaseTimeout(Duration.ofSeconds(TIMEOUT_SECONDS)), "releaseTimeout on another thread"));
        assertTrue(loggerWaited.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the logger was not called: " + pool);
        assertInstanceOf(IllegalStateException.class, fromLogger.get("awaitTermination"),
                "awaitTermination from the logger inside shutdownNow()");
        assertInstanceOf(IllegalStateException.class, fromLogger.get("releaseTimeout"),
                "releaseTimeout from the logger inside shutdownNow()");
        join(stopper, awaiter, releaser);
        assertInstanceOf(IllegalStateException.class, fromLogger.get("close"), "close() from the logger inside shutdownNow()");
        assertEquals(Set.of("t0", "t1"), interrupted, "the tasks shutdownNow() interrupted");
        for (Thread t : made) {
            assertFalse(t.isAlive(), () -> t.getName() + " is alive after the pool terminated: " + pool);
        }
    }

    /** What {@code call} returned, or the throwable it threw. */
    private static Object outcome(java.util.concurrent.Callable<?> call) {
        try {
            return call.call();
        } catch (Throwable t) {
            return t;
        }
    }

    /**
     * {@code releaseTimeout} leaves no thread of the pool alive ({@code WorkerPool}: it "waits until every worker
     * thread and the pool's background threads ... have ended"; README: "afterwards no thread of the pool is
     * alive"), and an interrupt while it waits is not lost (it declares no {@code InterruptedException}). On a
     * pool of two, t0 holds its worker and q has run (its worker idle, or in the fast lane); a releaser calls
     * {@code releaseTimeout} while one thread lets t0 end and another interrupts the releaser, in any order.
     * Invariants: {@code releaseTimeout} returns normally; then the pool has terminated and every thread the
     * factory made has ended; once the interrupt was sent, the releaser's interrupt status is set.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void releaseTimeoutLeavesNoThreadOfThePoolAlive() throws Exception {
        List<Thread> made = new CopyOnWriteArrayList<>();
        Pool pool = Pool.newPool(2, recordingThreads(made));
        releaseTimeoutLeavesNoThreadAlive(pool, pool, () -> pool.releaseTimeout(Duration.ofSeconds(TIMEOUT_SECONDS)),
                made);
    }

    /**
     * {@link #releaseTimeoutLeavesNoThreadOfThePoolAlive} on a {@code MultiPool} of 2x1, round robin (t0 on sub-pool
     * 0, q on sub-pool 1): {@code releaseTimeout} waits for every sub-pool against one deadline, and "an interrupt
     * does not cut the wait short but is kept" (MultiPoolCore.awaitReleased). Coverage review 14, mutant MK
     * (MultiPoolCore.awaitReleased restarting its wait after an interrupt without setting it again): caught at
     * iteration 20, by no other test of this class or of PoolCloseFromTaskFrayTest; the Pool test above cannot see it.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void releaseTimeoutLeavesNoThreadOfAMultiPoolAliveAndKeepsTheInterrupt() throws Exception {
        List<Thread> made = new CopyOnWriteArrayList<>();
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, recordingThreads(made));
        releaseTimeoutLeavesNoThreadAlive(pool, pool, () -> pool.releaseTimeout(Duration.ofSeconds(TIMEOUT_SECONDS)),
                made);
    }

    /** No purger; platform workers, each thread the factory makes added to {@code made}. */
    private static PoolOptions recordingThreads(List<Thread> made) {
        return PoolOptions.builder().disablePurge(true).threadFactory(r -> {
            Thread t = PoolTasks.PLATFORM_WORKERS.newThread(r);
            made.add(t);
            return t;
        }).build();
    }

    private static void releaseTimeoutLeavesNoThreadAlive(WorkerPool pool, java.util.concurrent.Executor submit,
            FrayThreads.Body releaseTimeout, List<Thread> made) throws Exception {
        CountDownLatch t0Ends = new CountDownLatch(1);
        AtomicBoolean t0Started = new AtomicBoolean();
        AtomicBoolean qDone = new AtomicBoolean();
        submit.execute(() -> {
            t0Started.set(true);
            try {
                assertTrue(t0Ends.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "t0 never released");
            } catch (InterruptedException e) {
                throw new AssertionError("t0 interrupted", e);
            }
        });
        submit.execute(() -> qDone.set(true));
        until("t0 runs and q ran", () -> t0Started.get() && qDone.get());
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread releaser = start("releaser", () -> {
            releaseTimeout.run();
            for (Thread t : made) {
                assertFalse(t.isAlive(), () -> t.getName() + " is alive after releaseTimeout returned: " + pool);
            }
            assertTrue(pool.isTerminated(), pool::toString);
            until("the interrupt is sent", interruptSent::get);
            assertTrue(Thread.interrupted(), "releaseTimeout lost the interrupt");
        });
        Thread ender = start("ender", t0Ends::countDown);
        Thread interrupter = start("interrupter", () -> {
            releaser.interrupt();
            interruptSent.set(true);
        });
        join(releaser, ender, interrupter);
    }

    /**
     * {@code releaseTimeout} "closes the pool like {@code release()}, then waits"; {@code reboot} reopens a closed
     * pool ("the only way out of the closed and the terminated states"): a reboot made on another thread once
     * {@code releaseTimeout} has closed the pool stands, since the wait closes nothing (Core.awaitReleased: "a
     * reboot between the release and this wait stands"). A pool of one runs t0, held until the end; the releaser
     * calls {@code releaseTimeout(50 ms)} (it times out: t0 runs on), and the rebooter reboots as soon as the pool
     * shows closed, at any point of the releaser's call. Afterwards the pool is open and runs a task. (Coverage
     * review 12, mutant AR-3: PoolCore.awaitReleased releasing the pool again before it waits.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aRebootOnceReleaseTimeoutClosedThePoolStands() throws Exception {
        rebootOnceReleaseTimeoutClosedThePool(Pool.newPool(1, PoolTasks.options()));
    }

    /**
     * {@link #aRebootOnceReleaseTimeoutClosedThePoolStands} on a {@code MultiPool} of 2x1, round robin (t0 on
     * sub-pool 0): the reboot reopens both sub-pools and stands. (Coverage review 12, mutant AR-3M:
     * MultiPoolCore.awaitReleased releasing the multi-pool again before it waits.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aRebootOnceReleaseTimeoutClosedAMultiPoolStands() throws Exception {
        rebootOnceReleaseTimeoutClosedThePool(
                MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options()));
    }

    private static <P extends java.util.concurrent.Executor & WorkerPool> void rebootOnceReleaseTimeoutClosedThePool(
            P pool) throws Exception {
        CountDownLatch t0Ends = new CountDownLatch(1);
        AtomicBoolean t0Started = new AtomicBoolean();
        pool.execute(() -> {
            t0Started.set(true);
            try {
                assertTrue(t0Ends.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "t0 never released");
            } catch (InterruptedException e) {
                throw new AssertionError("t0 interrupted", e);
            }
        });
        until("t0 runs", t0Started::get);
        Thread releaser = start("releaser", () -> {
            try {
                pool.releaseTimeout(Duration.ofMillis(50));
            } catch (TimeoutException expected) {
                // t0 runs on: the rebooted pool does not terminate
            }
        });
        Thread rebooter = start("rebooter", () -> {
            until("releaseTimeout closed the pool", pool::isClosed);
            pool.reboot();
        });
        join(rebooter, releaser);
        assertFalse(pool.isClosed(), () -> "the reboot made once releaseTimeout had closed the pool did not stand: "
                + pool);
        t0Ends.countDown();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        assertTrue(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), () -> "the rebooted pool ran no task: " + pool);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /** Counts the calling task as started and waits until the other has started too. */
    private static void started(CountDownLatch both) {
        both.countDown();
        try {
            assertTrue(both.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the other task never started");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * {@code awaitTermination} "@throws InterruptedException if interrupted while waiting" (and "blocks until ...
     * or the current thread is interrupted, whichever happens first"), on a {@link Pool} and a {@link MultiPool}:
     * the pool is released while its one task runs, and the task ends only once the waiter has returned, so the
     * pool cannot terminate first. A waiter in {@code awaitTermination(10 s)} is interrupted, before or while it
     * waits: it throws {@code InterruptedException} rather than waiting on (which the bound of the join
     * reports); then the task ends and the pool terminates.
     */
    @FrayTest(iterations = 30 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptEndsAwaitTermination() throws Exception {
        interruptEndsAwaitTermination(Pool.newPool(1, PoolTasks.options()));
        interruptEndsAwaitTermination(MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options()));
    }

    private static void interruptEndsAwaitTermination(WorkerPool pool) throws Exception {
        AtomicBoolean started = new AtomicBoolean();
        AtomicBoolean waiterReturned = new AtomicBoolean();
        ((ExecutorService) pool).execute(() -> {
            started.set(true);
            until("the waiter has returned", waiterReturned::get);
        });
        until("the task runs", started::get);
        pool.release();
        Thread waiter = start("awaitTermination", () -> {
            try {
                assertThrows(InterruptedException.class, () -> pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                        () -> "awaitTermination was not ended by an interrupt: " + pool);
            } finally {
                waiterReturned.set(true);
            }
        });
        Thread interrupter = start("interrupter", waiter::interrupt);
        join(interrupter, waiter);
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /**
     * A multi-pool's timed waits for termination end at their deadline, however many sub-pools they wait for
     * ({@code awaitTermination}: "true if this executor terminated and false if the timeout elapsed before
     * termination"; {@code releaseTimeout}: a {@code TimeoutException} once the timeout elapses): a round-robin
     * {@code MultiPool} of 2×1 runs a task on each sub-pool, each held until the waits have returned, and is
     * released; {@code awaitTermination(20 ms)}, then {@code releaseTimeout(20 ms)} (virtual time) return
     * {@code false} and throw, each within 26 ms. Every other thread waits on a timed wait of 10 s meanwhile, so
     * the clock jumps to the waiter's deadline. The {@code TimeoutException} names both sub-pools (MultiPool:
     * "reporting every sub-pool that timed out in one {@link TimeoutException}"; coverage review 23, mutant P1:
     * {@code MultiPoolCore.awaitParts} ending its pass at the first late sub-pool named pool 0 alone). Then the
     * tasks end and the multi-pool terminates.
     */
    @FrayTest(iterations = 30 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolsTimedWaitsForTerminationEndAtTheirDeadlineAcrossTheSubPools() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        CountDownLatch end = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                started.incrementAndGet();
                try {
                    assertTrue(end.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "never released");
                } catch (InterruptedException e) {
                    throw new AssertionError("a task was interrupted", e);
                }
            });
        }
        until("both tasks run", () -> started.get() == 2);
        assertEquals(1, pool.running(0), pool::toString);
        assertEquals(1, pool.running(1), pool::toString);
        pool.release();
        long limit = TimeUnit.MILLISECONDS.toNanos(26);
        AtomicReference<Object> terminated = new AtomicReference<>();
        AtomicReference<Object> released = new AtomicReference<>();
        long[] took = new long[2];
        Thread waiter = start("waiter", () -> {
            long before = System.nanoTime();
            terminated.set(pool.awaitTermination(20, TimeUnit.MILLISECONDS));
            took[0] = System.nanoTime() - before;
            before = System.nanoTime();
            try {
                pool.releaseTimeout(Duration.ofMillis(20));
                released.set("returned");
            } catch (TimeoutException e) {
                released.set(e);
            }
            took[1] = System.nanoTime() - before;
        });
        join(waiter);
        assertEquals(Boolean.FALSE, terminated.get(), "awaitTermination with both sub-pools running");
        assertTrue(took[0] < limit, () -> "awaitTermination(20 ms) returned after " + took[0] / 1_000 + " µs");
        assertInstanceOf(TimeoutException.class, released.get(), "releaseTimeout");
        String why = ((TimeoutException) released.get()).getMessage();
        assertTrue(why.contains("pool 0:") && why.contains("pool 1:"),
                () -> "releaseTimeout's TimeoutException does not name both sub-pools still running: " + why);
        assertTrue(took[1] < limit, () -> "releaseTimeout(20 ms) returned after " + took[1] / 1_000 + " µs");
        end.countDown();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /**
     * A pool's {@code releaseTimeout} waits at most its timeout also when interrupted while it waits ("the
     * longest time to wait"; it waits on through an interrupt and keeps it): on a {@code Pool} of one whose task is
     * held, a thread's {@code releaseTimeout(100 ms)}, interrupted 50 ms (virtual time) after it parked, throws
     * {@code TimeoutException} within 130 ms of its call (Fray's clock overshoots a deadline by up to some 10 ms),
     * with its interrupt status set. Coverage review 16, mutant RT-K ({@code PoolCore.awaitReleased} starting its
     * wait over with the whole timeout after an interrupt: 150 ms or more).
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aPoolsReleaseTimeoutInterruptedWhileItWaitsEndsAtItsDeadline() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        CountDownLatch end = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        pool.execute(() -> {
            started.incrementAndGet();
            try {
                assertTrue(end.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "never released");
            } catch (InterruptedException e) {
                throw new AssertionError("the task was interrupted", e);
            }
        });
        until("the task runs", () -> started.get() == 1);
        AtomicReference<Object> released = new AtomicReference<>();
        AtomicBoolean keptTheInterrupt = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong took = new java.util.concurrent.atomic.AtomicLong(-1);
        Thread waiter = start("waiter", () -> {
            long before = System.nanoTime();
            try {
                pool.releaseTimeout(Duration.ofMillis(100));
                released.set("returned");
            } catch (TimeoutException e) {
                released.set(e);
            }
            long waited = System.nanoTime() - before;
            keptTheInterrupt.set(Thread.interrupted());
            took.set(waited);
        });
        FrayThreads.untilParked(waiter);
        long mark = System.nanoTime();
        until("50 ms pass", () -> System.nanoTime() - mark > TimeUnit.MILLISECONDS.toNanos(50));
        waiter.interrupt();
        join(waiter); // a timed wait: with every other thread waiting, the clock jumps to the waiter's deadline
        assertInstanceOf(TimeoutException.class, released.get(), "releaseTimeout with the task held");
        assertTrue(keptTheInterrupt.get(), "releaseTimeout lost the interrupt");
        assertTrue(took.get() < TimeUnit.MILLISECONDS.toNanos(130),
                () -> "releaseTimeout(100 ms), interrupted, returned after " + took.get() / 1_000 + " µs");
        end.countDown();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }
}
