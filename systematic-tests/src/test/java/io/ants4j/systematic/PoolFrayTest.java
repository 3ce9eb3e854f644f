package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.TIMEOUT_SECONDS;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.recording;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilEveryWorkerButTheHoldersIsParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.FrayPoolCore;
import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolOptions;
import io.ants4j.pool.PoolOverloadException;
import io.ants4j.pool.PoolWithFunc;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The blocking contracts of the pools' submit path ({@link Pool}, {@link PoolWithFunc}, {@link MultiPool}):
 * blocked submitters, revert and purge, tune, the fast lane; explored by Fray on platform workers (Fray hangs
 * on virtual threads) with no purger or ticker thread. The random scheduler, as for {@code TaskGroupFrayTest}:
 * the pool's SpinLock and fast lane spin. Every task checks, as it starts, that no more tasks run at once than
 * the capacity ({@link PoolTasks}), and every scenario ends with each task run exactly once and the released
 * pool terminated. The multi-pools' choice of a sub-pool and their per-sub-pool limits are explored in
 * {@link MultiPoolFrayTest}, {@code invokeAll} and {@code invokeAny} in {@link PoolInvokeFrayTest}.
 */
@ExtendWith(FrayTestExtension.class)
class PoolFrayTest {
    /**
     * Blocked submitters are served first come, first served (WorkerPool: a worker that finishes its task goes
     * to the submitter that has waited longest, and a submission never takes a worker while another submitter
     * waits, also when it would not wait itself): s1 ({@code execute}) and s2 ({@code submit}) block in that
     * order behind t0 on a pool of one worker, and a newcomer keeps trying {@code tryExecute} with a zero
     * timeout as t0 ends. The tasks start in the order t0, s1, s2, newcomer (issue 25, defect 12: the worker
     * going back to idle could be taken by the newcomer before the woken s1, which then waited again behind s2).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void blockedSubmittersAreServedInArrivalOrder() throws Exception {
        blockedSubmittersAreServedInArrivalOrderScenario();
    }

    /** The schedule in which Fray found issue 25's defect 12 (iteration 1 of blockedSubmittersAreServedInArrivalOrder, on the code before the fix). */
    @FrayTest(replay = "classpath:fray-recordings/PoolFrayTest/blockedSubmittersAreServedInArrivalOrder", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void blockedSubmittersAreServedInArrivalOrderReplay() throws Exception {
        blockedSubmittersAreServedInArrivalOrderScenario();
    }

    /**
     * {@link #blockedSubmittersAreServedInArrivalOrder} on a pool whose idle workers wait in a ring allocated up
     * front ({@code PoolOptions.preAlloc(true)}, a {@code LoopQueue} instead of the stack).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void blockedSubmittersAreServedInArrivalOrderPreAlloc() throws Exception {
        blockedSubmittersAreServedInArrivalOrderScenario(PoolOptions.builder()
                .threadFactory(PoolTasks.PLATFORM_WORKERS).disablePurge(true).preAlloc(true).build());
    }

    /**
     * The futures of {@code submit(Runnable, T)} and {@code submit(Callable)} made by submitters blocked behind a
     * busy worker (ExecutorService: "the Future's get method will return the given result upon successful
     * completion", "... the task's result ..."): t0 holds the only worker while s1 ({@code submit(task, "r1")}) and
     * s2 ({@code submit(() -> "r2")}) submit, blocked or not yet; t0 ends; each future gives its result, each task
     * ran once. Coverage review 25, mutant SR ({@code submit(Runnable, T)} wrapping its task with a null result): no
     * other systematic test calls {@code submit(Runnable, T)}, and none reads a {@code submit(Callable)}'s value.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theFuturesOfBlockedSubmitsGiveTheirResults() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        AtomicReference<Future<String>> f1 = new AtomicReference<>();
        AtomicReference<Future<String>> f2 = new AtomicReference<>();
        Runnable s2Task = tasks.quick("s2");
        Thread s1 = start("s1", () -> f1.set(pool.submit(tasks.quick("s1"), "r1")));
        Thread s2 = start("s2", () -> f2.set(pool.submit(() -> {
            s2Task.run();
            return "r2";
        })));
        Thread ender = start("ender", t0Ends::countDown);
        join(s1, s2, ender);
        assertEquals("r1", f1.get().get(TIMEOUT_SECONDS, TimeUnit.SECONDS), "submit(Runnable, result)'s future");
        assertEquals("r2", f2.get().get(TIMEOUT_SECONDS, TimeUnit.SECONDS), "submit(Callable)'s future");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "s1", "s2");
    }

    private static void blockedSubmittersAreServedInArrivalOrderScenario() throws Exception {
        blockedSubmittersAreServedInArrivalOrderScenario(PoolTasks.options());
    }

    private static void blockedSubmittersAreServedInArrivalOrderScenario(PoolOptions options) throws Exception {
        Pool pool = Pool.newPool(1, options);
        PoolTasks tasks = new PoolTasks(pool::cap, () -> assertTrue(pool.running() <= 1, pool::toString));
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        Thread s1 = start("s1", () -> pool.execute(tasks.quick("s1")));
        until("s1 waits", () -> pool.waiting() == 1);
        Thread s2 = start("s2", () -> pool.submit(tasks.quick("s2")));
        until("s2 waits", () -> pool.waiting() == 2);
        Thread newcomer = start("newcomer", () -> until("the newcomer gets in",
                () -> pool.tryExecute(tasks.quick("newcomer"), Duration.ZERO)));
        t0Ends.countDown();
        join(s1, s2, newcomer);
        tasks.untilStarted(4);
        assertEquals(List.of("t0", "s1", "s2", "newcomer"), tasks.started(), "the order the tasks started in");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "s1", "s2", "newcomer");
    }

    /**
     * Revert (a worker going back to the idle queue, or handing itself to the longest waiter) and purge (the
     * expiry of idle workers) lose no task and keep the counts: two submitters each submit two tasks to a
     * pool of one worker while a purger, on a clock moved by hand past the expiry before each run, retires
     * whatever worker is idle. A submitter blocked while the worker expires is served all the same (the
     * retired worker's slot goes to it); every task runs once, never two at a time, never more than one worker
     * counted; at the end the one worker left is idle on the queue, the next purges retire it, and the
     * released pool terminates.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void revertAndPurgeLoseNoTask() throws Exception {
        revertAndPurgeLoseNoTask(FrayPoolCore.open(1, Duration.ofSeconds(1), PoolTasks.PLATFORM_WORKERS));
    }

    /**
     * {@link #revertAndPurgeLoseNoTask} on a pool whose idle workers wait in a ring allocated up front
     * ({@code PoolOptions.preAlloc(true)}: a {@code LoopQueue}, whose purge cuts expired workers off its head).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void revertAndPurgeLoseNoTaskPreAlloc() throws Exception {
        revertAndPurgeLoseNoTask(FrayPoolCore.openPreAlloc(1, Duration.ofSeconds(1), PoolTasks.PLATFORM_WORKERS));
    }

    private static void revertAndPurgeLoseNoTask(FrayPoolCore pool) throws Exception {
        PoolTasks tasks = new PoolTasks(() -> 1, () -> {
            int n = pool.running();
            assertTrue(n == 1, () -> "a task runs while " + n + " workers are counted: " + pool);
        });
        Thread a = start("a", () -> {
            pool.execute(tasks.quick("a1"));
            pool.execute(tasks.quick("a2"));
        });
        Thread b = start("b", () -> {
            pool.execute(tasks.quick("b1"));
            pool.execute(tasks.quick("b2"));
        });
        Thread purger = start("purger", () -> {
            for (int i = 0; i < 3; i++) {
                pool.advanceAndPurge();
                Thread.yield();
            }
        });
        join(a, b, purger);
        tasks.untilStarted(4);
        until("every worker left is idle on the queue", () -> tasks.active() == 0 && pool.running() == pool.queued());
        assertTrue(pool.running() <= 1 && pool.waiting() == 0, pool::toString);
        pool.advanceAndPurge(); // the first run may only raise the stamps of workers idle since the last one
        pool.advanceAndPurge();
        assertEquals(0, pool.running(), () -> "a worker idle for twice the expiry is still counted: " + pool);
        assertEquals(0, pool.queued(), pool::toString);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS), pool::toString);
        tasks.assertEachRanOnce("a1", "a2", "b1", "b2");
    }

    /**
     * Purge racing {@code release()} and {@code reboot()} loses no task and leaves the pool sound: on a pool of
     * one worker (a hand-moved clock, {@code FrayPoolCore}), a purger retires idle workers three times while a
     * submitter executes two tasks and a third thread releases and reboots the pool. A task is either refused
     * ({@code PoolClosedException}, never run) or runs once, never with more than one worker counted; afterwards
     * the reopened pool runs a task, its idle worker expires by two purges, and the released pool terminates
     * (every worker told to stop: the purged ones too).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void purgeRacingReleaseAndRebootLosesNoTask() throws Exception {
        FrayPoolCore pool = FrayPoolCore.open(1, Duration.ofSeconds(1), PoolTasks.PLATFORM_WORKERS);
        PoolTasks tasks = new PoolTasks(() -> 1, () -> {
            int n = pool.running();
            assertTrue(n <= 1, () -> "a task runs while " + n + " workers are counted: " + pool);
        });
        pool.execute(tasks.quick("t0"));
        tasks.untilStarted(1);
        List<String> accepted = new java.util.concurrent.CopyOnWriteArrayList<>(List.of("t0"));
        Thread submitter = start("submitter", () -> {
            for (String name : List.of("s1", "s2")) {
                try {
                    pool.execute(tasks.quick(name));
                    accepted.add(name);
                } catch (io.ants4j.pool.PoolClosedException e) {
                    // refused while closed: must never run
                }
            }
        });
        Thread purger = start("purger", () -> {
            for (int i = 0; i < 3; i++) {
                pool.advanceAndPurge();
                Thread.yield();
            }
        });
        Thread lifecycle = start("lifecycle", () -> {
            pool.release();
            pool.reboot();
        });
        join(submitter, purger, lifecycle);
        pool.execute(tasks.quick("after"));
        accepted.add("after");
        tasks.untilStarted(accepted.size());
        until("every worker left is idle on the queue", () -> tasks.active() == 0 && pool.running() == pool.queued());
        pool.advanceAndPurge();
        pool.advanceAndPurge();
        assertEquals(0, pool.running(), () -> "a worker idle for twice the expiry is still counted: " + pool);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS), pool::toString);
        tasks.assertEachRanOnce(accepted.toArray(String[]::new));
    }

    /**
     * {@code tune} up serves the blocked submitters that have waited longest, and a capacity tuned down holds
     * for every task that starts afterwards (surplus workers exit as they finish; none takes a new task): on a
     * {@link PoolWithFunc} of one worker, s1, s2 and s3 block behind t0; tune(3) lets s1 and s2 in, s3 waits
     * on; tune(1) while the three run; s4 comes; as the three end, s3 and then s4 run, each alone, with at most
     * one worker counted.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void tuneServesTheLongestWaitersAndHoldsTheNewCapacity() throws Exception {
        tuneServesTheLongestWaitersAndHoldsTheNewCapacityScenario();
    }

    /** The schedule in which Fray found issue 25's defect 12 in tune (iteration 0 of tuneServesTheLongestWaitersAndHoldsTheNewCapacity, on the code before the fix). */
    @FrayTest(replay = "classpath:fray-recordings/PoolFrayTest/tuneServesTheLongestWaitersAndHoldsTheNewCapacity", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void tuneServesTheLongestWaitersAndHoldsTheNewCapacityReplay() throws Exception {
        tuneServesTheLongestWaitersAndHoldsTheNewCapacityScenario();
    }

    private static void tuneServesTheLongestWaitersAndHoldsTheNewCapacityScenario() throws Exception {
        PoolWithFunc<Runnable> pool = PoolWithFunc.newPool(1, Runnable::run, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch firstEnd = new CountDownLatch(1);
        pool.invoke(tasks.holding("t0", firstEnd));
        Thread[] s = new Thread[4];
        for (int i = 1; i <= 3; i++) {
            String name = "s" + i;
            s[i - 1] = start(name, () -> pool.invoke(tasks.holding(name, firstEnd)));
            int waiters = i;
            until(name + " waits", () -> pool.waiting() == waiters);
        }
        pool.tune(3);
        tasks.untilStarted(3);
        assertEquals(Set.of("t0", "s1", "s2"), Set.copyOf(tasks.started()), "tune(3) let in a later submitter");
        until("s3 waits on", () -> pool.waiting() == 1);
        pool.tune(1);
        s[3] = start("s4", () -> pool.invoke(() -> {
            assertTrue(pool.running() <= 1, () -> "s4 runs above the tuned-down capacity: " + pool);
            tasks.quick("s4").run();
        }));
        until("s4 waits", () -> pool.waiting() == 2);
        firstEnd.countDown();
        join(s);
        tasks.untilStarted(5);
        assertEquals(List.of("s3", "s4"), tasks.started().subList(3, 5), "the order of the last two");
        assertTrue(pool.running() <= 1, pool::toString);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "s1", "s2", "s3", "s4");
    }

    /**
     * The fast lane (a worker that has just finished spins for the next task, which a submitter hands it without
     * the lock): a task handed over there runs exactly once, and the capacity holds, also across the sub-pools of
     * a {@link MultiPool}, which share one lane (a worker of one sub-pool may take a task the balancing meant for
     * another; it is counted by its own). Two submitters each submit two tasks to two sub-pools of one worker;
     * each task runs once, never more than two at a time, never more than one worker counted per sub-pool.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskHandedInTheFastLaneRunsOnce() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        Thread a = start("a", () -> {
            pool.execute(tasks.quick("a1"));
            pool.execute(tasks.quick("a2"));
        });
        Thread b = start("b", () -> {
            pool.execute(tasks.quick("b1"));
            pool.execute(tasks.quick("b2"));
        });
        join(a, b);
        tasks.untilStarted(4);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        tasks.assertEachRanOnce("a1", "a2", "b1", "b2");
    }

    /**
     * A task handed over in the fast lane exactly as its worker leaves it runs once, and is never lost
     * ({@code SpinningWorkers}: of the submitter's CAS and the worker's withdrawing CAS exactly one wins, so the
     * worker either leaves or has the payload to run). The worker of this pool spins only once before it
     * withdraws ({@code FrayPoolCore.openWithShortSpins}), so the hand-off meets the withdrawal within a few
     * scheduling steps, where the default thousand spins hide it. Two submitters each submit three quick tasks to
     * a pool of two workers; each task runs once, never more than two workers counted, and the released pool
     * terminates.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskHandedAsTheWorkerLeavesTheLaneRunsOnce() throws Exception {
        FrayPoolCore pool = FrayPoolCore.openWithShortSpins(2, 1, PoolTasks.PLATFORM_WORKERS);
        PoolTasks tasks = new PoolTasks(() -> 2, () -> {
            int n = pool.running();
            assertTrue(n <= 2, () -> "a task runs while " + n + " workers are counted: " + pool);
        });
        Thread a = start("a", () -> {
            for (int i = 1; i <= 3; i++) {
                pool.execute(tasks.quick("a" + i));
            }
        });
        Thread b = start("b", () -> {
            for (int i = 1; i <= 3; i++) {
                pool.execute(tasks.quick("b" + i));
            }
        });
        join(a, b);
        tasks.untilStarted(6);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        tasks.assertEachRanOnce("a1", "a2", "a3", "b1", "b2", "b3");
    }

    /**
     * A task handed to a worker as it withdraws from the fast lane runs, also when a tune down or a release comes
     * before that worker reaches its pool's lock ({@code SpinningWorkers.withdrawn}: "either the worker leaves the
     * lane empty-handed, or it takes the payload handed to it meanwhile"; an idle worker is taken whatever the
     * capacity, and a submission that returned has been accepted, release or not). A pool of two whose worker spins
     * once ({@code openWithShortSpins}): t0 holds one worker, q runs on the other, which then spins and withdraws;
     * s submits as it does, racing {@code tune(1)} (first round) or {@code release()} (second round). A submission
     * that returned ran exactly once; with the tune, s always returns. Coverage review 18, mutant LW:
     * {@code PoolCore.revertWorker} retiring a worker of a closed or over-capacity pool before it swaps the lane
     * free (the payload handed to it as it withdrew is dropped: s never runs).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskHandedToAWithdrawingWorkerRunsThoughATuneDownOrAReleaseComesFirst() throws Exception {
        for (boolean release : new boolean[] {false, true}) {
            FrayPoolCore pool = FrayPoolCore.openWithShortSpins(2, 1, PoolTasks.PLATFORM_WORKERS);
            PoolTasks tasks = new PoolTasks(() -> 2);
            CountDownLatch t0End = new CountDownLatch(1);
            pool.execute(tasks.holding("t0", t0End));
            pool.execute(tasks.quick("q")); // a second worker: it runs q, spins once in the lane and withdraws
            AtomicBoolean accepted = new AtomicBoolean();
            Thread s = start("submitter", () -> {
                try {
                    pool.execute(tasks.quick("s"));
                    accepted.set(true);
                } catch (io.ants4j.pool.PoolClosedException closedFirst) {
                    assertTrue(release, "rejected by a pool that was only tuned down");
                }
            });
            Thread other = start(release ? "releaser" : "tuner", () -> {
                if (release) {
                    pool.release();
                } else {
                    pool.tune(1);
                }
            });
            join(other);
            t0End.countDown();
            join(s);
            assertTrue(release || accepted.get(), "s was not accepted by a pool that was only tuned down");
            if (accepted.get()) {
                tasks.untilStarted(3);
            }
            pool.release();
            assertTrue(pool.awaitTermination(TIMEOUT_SECONDS), pool::toString);
            if (accepted.get()) {
                tasks.assertEachRanOnce("t0", "q", "s");
            } else {
                tasks.assertEachRanOnce("t0", "q");
            }
        }
    }

    /**
     * {@code Future.cancel(true)} of a task leaves no interrupt for the next task of its worker ({@code Pool}'s
     * javadoc: "the worker clears that interrupt before it takes its next task"). On a pool of one worker, t1
     * (submitted) runs a few steps while a canceller calls {@code cancel(true)} on its {@code Future}, at any
     * point (before t1 starts, while it runs, as it returns, after); the main thread submits t2 meanwhile,
     * which blocks until the worker is free and runs on the same worker (the fast lane, or idle and woken).
     * Invariant: t2 starts with its interrupt status clear and keeps it clear.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aCancelledTasksInterruptDoesNotReachTheNextTask() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        AtomicReference<Thread> t1Worker = new AtomicReference<>();
        Future<?> f1 = pool.submit(() -> {
            t1Worker.set(Thread.currentThread());
            Thread.yield();
            Thread.yield();
        });
        Thread canceller = start("canceller", () -> f1.cancel(true));
        AtomicReference<Thread> t2Worker = new AtomicReference<>();
        AtomicInteger t2InterruptedAt = new AtomicInteger(); // 1: at its start, 2: after a yield
        AtomicBoolean t2Done = new AtomicBoolean();
        pool.execute(() -> {
            t2Worker.set(Thread.currentThread());
            if (Thread.currentThread().isInterrupted()) {
                t2InterruptedAt.set(1);
            }
            Thread.yield();
            if (Thread.currentThread().isInterrupted()) {
                t2InterruptedAt.compareAndSet(0, 2);
            }
            t2Done.set(true);
        });
        join(canceller);
        until("t2 ran", t2Done::get);
        assertEquals(0, t2InterruptedAt.get(),
                "the next task of a cancelled task's worker was interrupted (1: it started so, 2: while it ran)");
        if (t1Worker.get() != null) { // t1 ran (the cancel came after it started)
            assertSame(t1Worker.get(), t2Worker.get(), "t2 ran on another worker than t1: the claim not explored");
        }
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /**
     * A timed submitter served as its timeout runs out loses no slot, and its result says whether its task was
     * handed over ({@code tryExecute}: "whether the task was handed to a worker"): s waits in {@code tryExecute}
     * (200 ms, virtual time) behind t0 on a pool of one worker; once s's timeout has run out, {@code tune(2)}
     * grants it a slot, or t0 ends and its worker takes s's task, racing s's withdrawal (what came first must then
     * be honoured). s's task ran exactly when {@code tryExecute} returned {@code true}; afterwards (capacity 2)
     * two tasks run at once; the released pool terminates with no worker counted. aSubmitterThatGivesUpLosesNoSlot
     * explores the slot's race with an interrupt; a short timeout there ran out before the grant could meet it.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedSubmitterServedAsItTimesOutLosesNoSlot() throws Exception {
        timedSubmitterServedAsItTimesOut(true);
        timedSubmitterServedAsItTimesOut(false);
    }

    private static void timedSubmitterServedAsItTimesOut(boolean byTune) throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        long timeout = TimeUnit.MILLISECONDS.toNanos(200); // its retries before it waits take some of it
        AtomicLong sStart = new AtomicLong();
        AtomicBoolean handed = new AtomicBoolean();
        Thread s = start("s", () -> {
            sStart.set(System.nanoTime()); // its deadline is later
            handed.set(pool.tryExecute(tasks.quick("s"), Duration.ofNanos(timeout)));
        });
        until("s waits or gave up", () -> pool.waiting() == 1 || !s.isAlive());
        until("s's timeout runs out", () -> System.nanoTime() - sStart.get() >= timeout);
        if (byTune) {
            pool.tune(2); // grants s a slot if it still waits, racing its withdrawal
        } else {
            t0Ends.countDown(); // t0's worker takes s's task if s still waits, racing its withdrawal
        }
        join(s);
        assertEquals(0, pool.waiting(), pool::toString);
        t0Ends.countDown();
        pool.tune(2);
        twoRunAtOnceThenTerminate(pool, tasks);
        if (handed.get()) {
            tasks.assertEachRanOnce("t0", "s", "a", "b");
        } else {
            tasks.assertEachRanOnce("t0", "a", "b");
        }
    }

    /**
     * The end of the slot-loss tests: no slot was lost, so two tasks, "a" and "b", run at once on {@code pool}
     * (its capacity 2 by then), and the released pool terminates with no worker counted.
     */
    private static void twoRunAtOnceThenTerminate(Pool pool, PoolTasks tasks) throws InterruptedException {
        CountDownLatch abEnd = new CountDownLatch(1);
        for (String name : List.of("a", "b")) {
            assertTrue(pool.tryExecute(tasks.holding(name, abEnd), Duration.ofSeconds(TIMEOUT_SECONDS)),
                    () -> name + " found no free worker on a pool of capacity 2: a slot was lost: " + pool);
        }
        until("a and b run at once", () -> tasks.active() == 2);
        abEnd.countDown();
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
    }

    /**
     * A blocked submitter that gives up keeps no worker slot and loses none: s blocks behind t0 on a pool of one
     * worker; an interrupter interrupts it while {@code tune(2)} grants it a slot (the grant may land between
     * s's waking and its withdrawal, and must then be honoured). s either ran its task or was rejected with a
     * {@link RejectedExecutionException} caused by {@link InterruptedException}, its interrupt status set
     * ({@code Pool}'s javadoc). Afterwards the full capacity is usable: two tasks run at once; and the released
     * pool terminates with no worker counted.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterThatGivesUpLosesNoSlot() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        AtomicBoolean rejected = new AtomicBoolean();
        Thread s = start("s", () -> {
            try {
                pool.execute(tasks.quick("s"));
            } catch (RejectedExecutionException e) {
                assertInstanceOf(InterruptedException.class, e.getCause(), "s was rejected for another reason");
                assertTrue(Thread.currentThread().isInterrupted(), "s rejected with its interrupt status clear");
                rejected.set(true);
            }
        });
        until("s waits", () -> pool.waiting() == 1);
        Thread interrupter = start("interrupter", s::interrupt);
        pool.tune(2);
        join(s, interrupter);
        assertEquals(0, pool.waiting(), pool::toString);
        t0Ends.countDown();
        twoRunAtOnceThenTerminate(pool, tasks);
        if (rejected.get()) {
            tasks.assertEachRanOnce("t0", "a", "b");
        } else {
            tasks.assertEachRanOnce("t0", "s", "a", "b");
        }
    }

    /**
     * {@code maxBlockingTasks} bounds the submitters that wait: on a pool of one busy worker with
     * {@code maxBlockingTasks(1)}, s1 and s2 submit at once; exactly one waits and the other gets
     * {@link PoolOverloadException}, and {@code waiting()} never exceeds 1. Once the waiter is served, the count
     * is back to 0: a new submitter waits again and one more is refused. Each accepted task runs once, none
     * refused runs, and the released pool terminates.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void maxBlockingTasksBoundsTheWaiters() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(PoolTasks.PLATFORM_WORKERS)
                .disablePurge(true).maxBlockingTasks(1).build());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        AtomicInteger refused = new AtomicInteger();
        AtomicBoolean s1Refused = new AtomicBoolean();
        Thread[] s = new Thread[2];
        for (int i = 1; i <= 2; i++) {
            String name = "s" + i;
            boolean first = i == 1;
            s[i - 1] = start(name, () -> {
                try {
                    pool.execute(tasks.quick(name));
                } catch (PoolOverloadException e) {
                    refused.incrementAndGet();
                    s1Refused.set(first);
                }
            });
        }
        until("one waits, one is refused", () -> {
            int w = pool.waiting();
            assertTrue(w <= 1, () -> w + " submitters wait with maxBlockingTasks=1: " + pool);
            return refused.get() == 1 && w == 1;
        });
        t0Ends.countDown();
        join(s);
        assertEquals(1, refused.get(), "submitters refused");
        CountDownLatch t1Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t1", t1Ends));
        Thread s3 = start("s3", () -> pool.execute(tasks.quick("s3")));
        until("s3 waits", () -> pool.waiting() == 1);
        assertThrows(PoolOverloadException.class, () -> pool.execute(tasks.quick("s4")),
                "a second waiter was let in with maxBlockingTasks=1");
        t1Ends.countDown();
        join(s3);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.waiting(), pool::toString);
        tasks.assertEachRanOnce("t0", s1Refused.get() ? "s2" : "s1", "t1", "s3");
    }

    /**
     * {@code maxBlockingTasks} counts and bounds the timed submitters too ({@code tryExecute}/{@code tryInvoke}:
     * "returns false as well when maxBlockingTasks callers already wait"): on a pool of one busy worker with
     * {@code maxBlockingTasks(1)}, s1's {@code tryExecute(100 s)} and s2's {@code execute} race to wait; exactly
     * one waits, {@code waiting()} never exceeds 1, and the other is refused at once: s1 with {@code false}, s2
     * with {@link PoolOverloadException}. Then t0 ends: the waiter's task runs once, the refused one never
     * (coverage review 10, mutant MB-T: a timed submitter that ignores the limit waited as a second waiter).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void maxBlockingTasksBoundsTheTimedWaitersToo() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(PoolTasks.PLATFORM_WORKERS)
                .disablePurge(true).maxBlockingTasks(1).build());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        AtomicReference<String> s1Outcome = new AtomicReference<>();
        AtomicReference<String> s2Outcome = new AtomicReference<>();
        Thread s1 = start("s1", () -> s1Outcome.set(
                pool.tryExecute(tasks.quick("s1"), Duration.ofSeconds(100)) ? "handed" : "refused"));
        Thread s2 = start("s2", () -> {
            try {
                pool.execute(tasks.quick("s2"));
                s2Outcome.set("handed");
            } catch (PoolOverloadException e) {
                s2Outcome.set("refused");
            }
        });
        until("one waits, one is refused", () -> {
            int w = pool.waiting();
            assertTrue(w <= 1, () -> w + " submitters wait with maxBlockingTasks=1: " + pool);
            return w == 1 && ("refused".equals(s1Outcome.get()) || "refused".equals(s2Outcome.get()));
        });
        t0Ends.countDown();
        join(s1, s2);
        boolean s1Waited = "handed".equals(s1Outcome.get());
        assertEquals(s1Waited ? "refused" : "handed", s2Outcome.get(), () -> "s1 " + s1Outcome.get());
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", s1Waited ? "s1" : "s2");
    }

    /**
     * The timed calls ignore {@code nonblocking} ({@code tryExecute}: "Ignores nonblocking: the timeout is the
     * caller's explicit bound"; the timed {@code invokeAll}: "so also in a non-blocking pool"), the untimed ones
     * do not: on a non-blocking pool of one worker held by t0, {@code execute} and {@code submit} are refused at
     * once with {@link PoolOverloadException} and their tasks never run; then a {@code tryExecute} and a timed
     * {@code invokeAll}, each with a timeout of {@code TIMEOUT_SECONDS}, come from two threads and wait (both are
     * counted waiting before t0 is let go); once t0 ends both tasks run, in the order the callers came, the
     * {@code tryExecute} returns true and the {@code invokeAll}'s future is done normally.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void timedCallsWaitInANonblockingPoolAndUntimedOnesAreRefused() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(PoolTasks.PLATFORM_WORKERS)
                .disablePurge(true).nonblocking(true).build());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        tasks.untilStarted(1);
        assertThrows(PoolOverloadException.class, () -> pool.execute(tasks.quick("refused execute")),
                "an untimed execute on a full non-blocking pool");
        assertThrows(PoolOverloadException.class, () -> pool.submit(tasks.quick("refused submit")),
                "an untimed submit on a full non-blocking pool");
        AtomicReference<Boolean> tried = new AtomicReference<>();
        Thread trier = start("tryExecute", () -> tried.set(
                pool.tryExecute(tasks.quick("tryExecute"), Duration.ofSeconds(TIMEOUT_SECONDS))));
        until("tryExecute waits or has returned", () -> pool.waiting() == 1 || tried.get() != null);
        AtomicReference<List<Future<Object>>> invoked = new AtomicReference<>();
        Thread invoker = start("invokeAll", () -> invoked.set(pool.invokeAll(
                List.of(java.util.concurrent.Executors.callable(tasks.quick("invokeAll"))),
                TIMEOUT_SECONDS, TimeUnit.SECONDS)));
        until("invokeAll waits or has returned", () -> pool.waiting() == 2 || invoked.get() != null);
        t0Ends.countDown();
        join(trier, invoker);
        assertEquals(Boolean.TRUE, tried.get(), "a timed tryExecute on a non-blocking pool gave up before its timeout");
        Future<Object> f = invoked.get().get(0);
        assertTrue(f.isDone() && !f.isCancelled(),
                () -> "a timed invokeAll on a non-blocking pool gave up before its timeout: " + f);
        assertEquals(List.of("t0", "tryExecute", "invokeAll"), tasks.started(), "the order the tasks started in");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "tryExecute", "invokeAll");
    }

    /**
     * The slot of a worker that cannot start goes to the submitter that has waited longest ({@code WorkerPool}:
     * "a worker slot that frees up ... goes to the submitter that has waited longest"): on a pool of one worker held by t0, s1 to s5
     * block in that order; {@code tune(2)} grants the one new slot to s1, whose worker cannot start (the thread
     * factory throws); the slot goes on to s2 (the factory returns null), then to s3 (the factory returns a
     * thread already started and ended: {@code Thread.start} throws), then to s4, whose worker starts. s1, s2 and
     * s3 are rejected with {@link RejectedExecutionException} and their tasks never run; s4's task runs while t0
     * still holds its worker, and s5's after it (s4's worker comes back to the longest waiter); never more than
     * two workers counted; the released pool terminates.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theSlotOfAWorkerThatCannotStartGoesToTheLongestWaiter() throws Exception {
        AtomicInteger threadsAsked = new AtomicInteger();
        java.util.concurrent.ThreadFactory failsTheSecondToFourth = r -> switch (threadsAsked.incrementAndGet()) {
            case 2 -> throw new IllegalStateException("the factory cannot make a thread");
            case 3 -> null;
            case 4 -> {
                Thread ended = Thread.ofPlatform().start(() -> { });
                try {
                    ended.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                yield ended; // its start() throws IllegalThreadStateException
            }
            default -> PoolTasks.PLATFORM_WORKERS.newThread(r);
        };
        Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(failsTheSecondToFourth)
                .disablePurge(true).build());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> assertTrue(pool.running() <= 2, pool::toString));
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        Thread[] s = new Thread[5];
        List<Class<? extends Throwable>> causes = java.util.Arrays.asList(IllegalStateException.class, null,
                IllegalThreadStateException.class);
        for (int i = 1; i <= 5; i++) {
            String name = "s" + i;
            Class<? extends Throwable> cause = i <= 3 ? causes.get(i - 1) : null;
            boolean refused = i <= 3;
            s[i - 1] = start(name, () -> {
                if (!refused) {
                    pool.execute(tasks.quick(name));
                    return;
                }
                RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                        () -> pool.execute(tasks.quick(name)), name + "'s worker could not start");
                if (cause != null) {
                    assertInstanceOf(cause, e.getCause(), name + "'s rejection");
                }
            });
            int waiters = i;
            until(name + " waits", () -> pool.waiting() == waiters);
        }
        pool.tune(2);
        join(s[0], s[1], s[2], s[3]);
        tasks.untilStarted(3);
        assertEquals(List.of("t0", "s4", "s5"), tasks.started(),
                "the slot of the workers that could not start did not go to the longest waiter");
        join(s[4]);
        t0Ends.countDown();
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        assertEquals(5, threadsAsked.get(), "threads asked of the factory");
        tasks.assertEachRanOnce("t0", "s4", "s5");
    }

    /**
     * A factory whose thread's own {@code start()} starts it and then throws ({@code PoolOptions.Builder
     * .threadFactory}: "the worker never runs in a thread so returned, unless it had begun to run there before
     * Thread.start() threw, which makes that thread the worker's and the submission succeed"): s submits to an
     * empty pool of one worker; in the thread's {@code start()} the worker's admission in the started thread races
     * the pool's revoke after the throw. Invariant: the submission succeeds exactly when the worker began in that
     * thread, and its task then runs once, in that thread; otherwise {@code execute} throws
     * {@link RejectedExecutionException} (the cause: what {@code start()} threw), the task never runs, the thread
     * ends, and the slot is given back (no worker counted; the next submission, whose thread starts normally,
     * gets a worker on the pool of one). The released pool terminates.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWorkerThatBeganInTheThreadWhoseStartThrewMakesTheSubmissionSucceed() throws Exception {
        AtomicBoolean startThrows = new AtomicBoolean(true);
        List<Thread> made = new java.util.concurrent.CopyOnWriteArrayList<>();
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true).threadFactory(r -> {
            Thread t = startThrows.get() ? new StartsThenThrows(r) : PoolTasks.PLATFORM_WORKERS.newThread(r);
            made.add(t);
            return t;
        }).build());
        AtomicInteger sRuns = new AtomicInteger();
        AtomicReference<Thread> sRanIn = new AtomicReference<>();
        AtomicReference<RejectedExecutionException> refused = new AtomicReference<>();
        Thread s = start("s", () -> {
            try {
                pool.execute(() -> {
                    sRanIn.set(Thread.currentThread());
                    sRuns.incrementAndGet();
                });
            } catch (RejectedExecutionException e) {
                refused.set(e);
            }
        });
        join(s);
        Thread first = made.get(0);
        if (refused.get() == null) {
            until("s's task runs", () -> sRuns.get() > 0);
            assertSame(first, sRanIn.get(), "s's task ran in another thread than the one whose start() threw");
        } else {
            assertInstanceOf(IllegalThreadStateException.class, refused.get().getCause(), "s's rejection");
            until("the refused worker's thread ends, or runs s's task", () -> !first.isAlive() || sRuns.get() > 0);
            assertEquals(0, sRuns.get(), "the task of a refused submission ran, in the thread whose start() threw");
            assertEquals(0, pool.running(), () -> "the refused worker's slot was not given back: " + pool);
        }
        startThrows.set(false);
        AtomicBoolean nextRan = new AtomicBoolean();
        assertTrue(pool.tryExecute(() -> nextRan.set(true), Duration.ofSeconds(TIMEOUT_SECONDS)),
                () -> "the next submission found no worker on the pool of one: " + pool);
        until("the next task runs", nextRan::get);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(refused.get() == null ? 1 : 0, sRuns.get(), "how often s's task ran");
        for (Thread t : made) {
            assertTrue(!t.isAlive(), () -> t + " is alive after the pool terminated");
        }
    }

    /** A thread whose {@code start()} starts it and then throws, as if the start had failed. */
    private static final class StartsThenThrows extends Thread {
        StartsThenThrows(Runnable task) {
            super(task);
            setDaemon(true);
        }

        @Override
        public void start() {
            super.start();
            throw new IllegalThreadStateException("injected: start() started the thread, then threw");
        }
    }

    /**
     * A submission skips the fast lane while a submitter waits in the sub-pool it goes to ({@code WorkerPool}:
     * "a submission never takes a worker while another submitter waits ... In a multi-pool this holds per
     * sub-pool"; {@code MultiPoolCore}: "A submitter skips the lane while submitters wait in the sub-pool it
     * picked"): a multi-pool of two sub-pools of one worker, round robin. t0 holds X's worker; b1 ran on Y's,
     * which is parked idle before s1 submits to X, so s1 waits there. Then a newcomer submits b2 (to Y: it wakes
     * Y's worker, which spins in the shared lane once b2 ended) and, once b2 started, its own task (to X, where s1
     * waits), while Y's worker may be spinning or running b2; then t0 is let go. Invariant: s1's task starts
     * before the newcomer's; every task runs once, no sub-pool above its capacity.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theFastLaneNeverHandsATaskPastAWaitingSubmitter() throws Exception {
        java.util.Queue<Thread> workers = new java.util.concurrent.ConcurrentLinkedQueue<>();
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.builder()
                .threadFactory(recording(workers)).disablePurge(true).build());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch t0Ends = new CountDownLatch(1);
        Set<Thread> holders = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Runnable t0 = tasks.holding("t0", t0Ends);
        pool.execute(() -> {
            holders.add(Thread.currentThread());
            t0.run();
        });
        tasks.untilStarted(1);
        int x = pool.running(0) == 1 ? 0 : 1;
        pool.execute(tasks.quick("b1"));
        untilEveryWorkerButTheHoldersIsParked(workers, holders, 2);
        Thread s1 = start("s1", () -> pool.execute(tasks.quick("s1")));
        until("s1 waits", () -> pool.waiting(x) == 1);
        Thread newcomer = start("newcomer", () -> {
            pool.execute(tasks.quick("b2"));
            until("b2 started", () -> tasks.started().contains("b2"));
            pool.execute(tasks.quick("newcomer"));
        });
        until("the newcomer waits or runs", () -> pool.waiting(x) == 2 || tasks.started().contains("newcomer"));
        t0Ends.countDown();
        join(s1, newcomer);
        tasks.untilStarted(5);
        List<String> order = tasks.started();
        assertTrue(order.indexOf("s1") < order.indexOf("newcomer"),
                () -> "the newcomer's task started before that of s1, who waited: " + order);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "b1", "s1", "b2", "newcomer");
    }

    /**
     * A tune down lets the surplus exit as they finish their tasks (WorkerPool.tune: "shrinking stops no worker
     * but lets the surplus exit as they finish their tasks ... no more tasks run at once than workers were alive,
     * and running() comes down to the new capacity as they finish"; only a surplus worker that was idle at the
     * tune may take one more task first). On a pool of two, t0 and t1 run; {@code tune(1)}; t0 ends, its worker
     * is surplus and must retire rather than spin in the fast lane for another task; x, submitted once t0 has
     * ended, must wait for t1's worker: x never runs beside t1, and the pool's count comes down to 1. Each task
     * runs once and the released pool terminates (coverage review 8, mutant T1: {@code PoolCore.nextFromLane}
     * without its {@code running > cap} check, the surplus worker handed x in the lane while t1 runs).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSurplusWorkerRetiresAsItFinishesItsTaskAfterATuneDown() throws Exception {
        Pool pool = Pool.newPool(2, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        CountDownLatch t1Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        pool.execute(tasks.holding("t1", t1Ends));
        tasks.untilStarted(2);
        pool.tune(1);
        t0Ends.countDown();
        until("t0 ended", () -> tasks.active() == 1);
        AtomicBoolean xHandedOver = new AtomicBoolean();
        Thread x = start("x", () -> {
            pool.execute(tasks.quick("x"));
            xHandedOver.set(true);
        });
        until("x is handed over or waits", () -> xHandedOver.get() || pool.waiting() == 1);
        boolean early = xHandedOver.get();
        t1Ends.countDown();
        join(x);
        assertTrue(!early, () -> "x was handed a worker while t1 still ran on a pool tuned down to 1: " + pool);
        tasks.untilStarted(3);
        until("the count comes down to the new capacity", () -> pool.running() <= 1);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "t1", "x");
    }

    /**
     * A timed submitter blocked when the pool closes is rejected, not timed out (AbstractPoolExecutor.tryExecute:
     * "@throws PoolClosedException if the pool is closed, or closes while this call waits"; WorkerPool.release:
     * "blocked submitters ... wake up with PoolClosedException"). s waits in {@code tryExecute(100 s)} behind t0
     * on a pool of one; {@code release()} races t0's end (a helper lets t0 go at any moment): s's task was handed
     * t0's worker first ({@code true}, it runs once) or s gets {@link io.ants4j.pool.PoolClosedException} and
     * its task never runs; never {@code false}, long before its timeout. The pool terminates (coverage review 8,
     * mutant T2: a timed waiter woken {@code CLOSED} that returns {@code false}).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedSubmitterBlockedWhenThePoolClosesIsRejected() throws Exception {
        TimedSubmitterBehindT0 w = TimedSubmitterBehindT0.start(refused -> {
            if (!(refused instanceof io.ants4j.pool.PoolClosedException)) {
                throw refused;
            }
            return "closed";
        });
        Thread ender = start("t0 ender", w.t0Ends::countDown);
        w.pool.release();
        join(w.s, ender);
        assertTrue(Set.of("handed", "closed").contains(w.outcome.get()),
                () -> "tryExecute(100 s) of a submitter blocked as the pool closed returned " + w.outcome.get());
        w.terminatesHavingRunItsTaskOnceIfHanded();
    }

    /**
     * A blocked submitter that gives up from the middle of the queue leaves it, and the others are served in
     * their order (WorkerPool: "Submitters that wait for a worker are served first come, first served"; Pool:
     * a submitter interrupted while blocked gets {@link RejectedExecutionException} and its task does not run).
     * s1, s2 and s3 block in that order behind t0 on a pool of one; s2 is interrupted and rejected; then t0 is
     * let go: the tasks start in the order t0, s1, s3, s2's never (coverage review 10, mutant W-U: a waiter
     * unlinked from the middle left linked from its predecessor; the worker then hands s2's task on and s3
     * waits for ever).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitterThatGivesUpInTheMiddleOfTheQueueLeavesTheOthersInOrder() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> assertTrue(pool.running() <= 1, pool::toString));
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        Thread s1 = start("s1", () -> pool.execute(tasks.quick("s1")));
        until("s1 waits", () -> pool.waiting() == 1);
        AtomicReference<Throwable> s2Outcome = new AtomicReference<>();
        Thread s2 = start("s2", () -> {
            try {
                pool.execute(tasks.quick("s2"));
            } catch (RejectedExecutionException e) {
                s2Outcome.set(e);
            }
        });
        until("s2 waits", () -> pool.waiting() == 2);
        Thread s3 = start("s3", () -> pool.submit(tasks.quick("s3")));
        until("s3 waits", () -> pool.waiting() == 3);
        s2.interrupt();
        join(s2);
        assertInstanceOf(InterruptedException.class, s2Outcome.get() == null ? null : s2Outcome.get().getCause(),
                "s2, interrupted while blocked, was not rejected");
        assertEquals(2, pool.waiting(), pool::toString);
        t0Ends.countDown();
        join(s1, s3);
        tasks.untilStarted(3);
        assertEquals(List.of("t0", "s1", "s3"), tasks.started(), "the order the tasks started in");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "s1", "s3");
    }

    /**
     * An interrupted timed submitter is rejected, not timed out (AbstractPoolExecutor.tryExecute: "@throws
     * RejectedExecutionException caused by InterruptedException if interrupted while blocked"; Pool: "its
     * interrupt flag is set again"). s waits in {@code tryExecute(100 s)} behind t0 on a pool of one; an
     * interrupter interrupts it while a helper lets t0 go, at any moment: s's task was handed t0's worker first
     * ({@code true}, it runs once) or s gets a {@link RejectedExecutionException} caused by
     * {@link InterruptedException} with its interrupt status set, and its task never runs; never {@code false}
     * (coverage review 8, mutant T3: a timed waiter that gives up on an interrupt returning {@code false}).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedTimedSubmitterIsRejected() throws Exception {
        TimedSubmitterBehindT0 w = TimedSubmitterBehindT0.start(refused -> {
            assertInstanceOf(InterruptedException.class, refused.getCause(), "s was rejected for another reason");
            assertTrue(Thread.currentThread().isInterrupted(), "s rejected with its interrupt status clear");
            return "rejected";
        });
        Thread interrupter = start("interrupter", w.s::interrupt);
        Thread ender = start("t0 ender", w.t0Ends::countDown);
        join(w.s, interrupter, ender);
        assertTrue(Set.of("handed", "rejected").contains(w.outcome.get()),
                () -> "tryExecute(100 s) of an interrupted submitter returned " + w.outcome.get());
        assertEquals(0, w.pool.waiting(), w.pool::toString);
        w.pool.release();
        w.terminatesHavingRunItsTaskOnceIfHanded();
    }

    /**
     * The pool's statistics count every submitter that waited once, whatever ended its wait, and every submission
     * once as submitted or rejected (PoolStats: "blockedSubmits: submissions that had to wait for a worker (parked
     * until one came back, the pool closed, the wait timed out or was interrupted), whatever came of the wait";
     * "submitted: submissions handed to a worker"; "rejected: submissions refused: closed pool, overload,
     * interrupted or timed-out waits"). Pool of one held by t0; s1 ({@code execute}), s2 ({@code tryExecute(100 s)})
     * and s3 ({@code execute}) wait; then an interrupt of s3, a {@code release()} and t0's end race. Afterwards:
     * blockedSubmits is 3, submitted is 1 + the accepted ones, rejected the others, and once the pool has
     * terminated every submitted task completed (coverage review 11, mutant ST-C: a wait ended by the pool's
     * closing not counted in blockedSubmits; no Fray test read the statistics before, and no unit test counts
     * such a wait).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theStatisticsCountEveryWaitOnceWhateverEndsIt() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        FrayThreads.Body s1 = () -> {
            try {
                pool.execute(tasks.quick("s1"));
                accepted.incrementAndGet();
            } catch (RejectedExecutionException e) {
                refused.incrementAndGet();
            }
        };
        Thread t1 = start("s1", s1);
        until("s1 waits", () -> pool.waiting() == 1);
        Thread t2 = start("s2", () -> {
            try {
                assertTrue(pool.tryExecute(tasks.quick("s2"), Duration.ofSeconds(100)), "s2 timed out");
                accepted.incrementAndGet();
            } catch (RejectedExecutionException e) {
                refused.incrementAndGet();
            }
        });
        until("s2 waits", () -> pool.waiting() == 2);
        Thread t3 = start("s3", () -> {
            try {
                pool.execute(tasks.quick("s3"));
                accepted.incrementAndGet();
            } catch (RejectedExecutionException e) {
                refused.incrementAndGet();
            }
        });
        until("s3 waits", () -> pool.waiting() == 3);
        Thread interrupter = start("interrupter", t3::interrupt);
        Thread releaser = start("releaser", pool::release);
        Thread ender = start("t0 ender", t0Ends::countDown);
        join(t1, t2, t3, interrupter, releaser, ender);
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(3, accepted.get() + refused.get());
        io.ants4j.pool.PoolStats stats = pool.stats();
        assertEquals(3, stats.blockedSubmits(), () -> "three submitters waited: " + stats);
        assertEquals(1 + accepted.get(), stats.submitted(), () -> accepted + " accepted besides t0: " + stats);
        assertEquals(refused.get(), stats.rejected(), () -> refused + " refused: " + stats);
        assertEquals(stats.submitted(), stats.completed(), () -> "every task handed over completed: " + stats);
        assertEquals(0, stats.failed(), stats::toString);
        assertTrue(stats.blockedTime().toNanos() > 0, stats::toString);
    }

    /**
     * A pool of one whose worker t0 holds until {@link #t0Ends} opens, and a submitter s waiting behind it in
     * {@code tryExecute(100 s)}: its {@link #outcome} is "handed", "false", or what {@code refusal} makes of the
     * {@link RejectedExecutionException} it got.
     */
    private record TimedSubmitterBehindT0(Pool pool, PoolTasks tasks, CountDownLatch t0Ends,
                                          AtomicReference<String> outcome, Thread s) {

        static TimedSubmitterBehindT0 start(java.util.function.Function<RejectedExecutionException, String> refusal) {
            Pool pool = Pool.newPool(1, PoolTasks.options());
            PoolTasks tasks = new PoolTasks(pool::cap);
            CountDownLatch t0Ends = new CountDownLatch(1);
            pool.execute(tasks.holding("t0", t0Ends));
            AtomicReference<String> outcome = new AtomicReference<>();
            Thread s = FrayThreads.start("s", () -> {
                try {
                    outcome.set(pool.tryExecute(tasks.quick("s"), Duration.ofSeconds(100)) ? "handed" : "false");
                } catch (RejectedExecutionException e) {
                    outcome.set(refusal.apply(e));
                }
            });
            until("s waits", () -> pool.waiting() == 1);
            return new TimedSubmitterBehindT0(pool, tasks, t0Ends, outcome, s);
        }

        /** The pool terminates; t0 ran once, and s's task once if it was handed over, else never. */
        void terminatesHavingRunItsTaskOnceIfHanded() throws InterruptedException {
            assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
            if (outcome.get().equals("handed")) {
                tasks.assertEachRanOnce("t0", "s");
            } else {
                tasks.assertEachRanOnce("t0");
            }
        }
    }

    /**
     * An interrupt that loses to the hand-off is kept (Pool: a blocked submitter interrupted is rejected, "its
     * interrupt flag is set again"; one whose task was handed over first returns normally, and the interrupt it
     * took in must not vanish either). s waits in {@code tryExecute(100 s)} behind t0 on a pool of one; an
     * interrupter interrupts it while another thread lets t0 go, at any moment. Once the interrupt has been sent,
     * s's interrupt status is set whichever way its call ended: {@code true} (its task handed t0's worker first) or
     * {@link RejectedExecutionException} caused by {@link InterruptedException}. Coverage review 16, mutant PT-I
     * ({@code PoolCore.awaitTurn} clearing the interrupt it took in when the grant was a hand-off).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedSubmitterWhoseInterruptLostToTheHandOffKeepsIt() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        AtomicBoolean interruptSent = new AtomicBoolean();
        AtomicReference<String> outcome = new AtomicReference<>();
        Thread s = start("s", () -> {
            String o;
            try {
                o = pool.tryExecute(tasks.quick("s"), Duration.ofSeconds(100)) ? "handed" : "false";
            } catch (RejectedExecutionException e) {
                assertInstanceOf(InterruptedException.class, e.getCause(), "s was rejected for another reason");
                o = "rejected";
            }
            until("the interrupt is sent", interruptSent::get);
            outcome.set(Thread.currentThread().isInterrupted() ? o : o + " with its interrupt status clear");
        });
        until("s waits", () -> pool.waiting() == 1);
        Thread interrupter = start("interrupter", () -> {
            s.interrupt();
            interruptSent.set(true);
        });
        Thread ender = start("t0 ender", t0Ends::countDown);
        join(s, interrupter, ender);
        assertTrue(Set.of("handed", "rejected").contains(outcome.get()),
                () -> "tryExecute(100 s) of an interrupted submitter: " + outcome.get());
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        if (outcome.get().equals("handed")) {
            tasks.assertEachRanOnce("t0", "s");
        } else {
            tasks.assertEachRanOnce("t0");
        }
    }

    /**
     * Two neighbours that give up from the middle of the queue, in either order, leave it, and the others are
     * served in their order (WorkerPool: "Submitters that wait for a worker are served first come, first served";
     * a submitter interrupted while blocked, timed or not, is rejected and its task does not run). s1 to s4 block
     * in that order behind t0 on a pool of one; s2 ({@code execute}) and s3 ({@code tryExecute(100 s)}) are
     * interrupted by two threads at once; once both are rejected, t0 is let go: the tasks start in the order t0,
     * s1, s4, and s2's and s3's never. Coverage review 17, mutant W-N ({@code Waiters.unlink} leaving the follower
     * of a waiter it unlinks with no back link, as if it were the head: its own withdrawal then cuts the head off
     * the queue, and s1 waits for ever): survived every other PoolFrayTest, whose one withdrawal from the middle
     * left its follower in place.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoNeighboursGivingUpFromTheMiddleOfTheQueueLeaveTheOthersInOrder() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> assertTrue(pool.running() <= 1, pool::toString));
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        Thread s1 = start("s1", () -> pool.execute(tasks.quick("s1")));
        until("s1 waits", () -> pool.waiting() == 1);
        AtomicReference<Throwable> s2Outcome = new AtomicReference<>();
        Thread s2 = start("s2", () -> {
            try {
                pool.execute(tasks.quick("s2"));
            } catch (RejectedExecutionException e) {
                s2Outcome.set(e);
            }
        });
        until("s2 waits", () -> pool.waiting() == 2);
        AtomicReference<Object> s3Outcome = new AtomicReference<>();
        Thread s3 = start("s3", () -> {
            try {
                s3Outcome.set(pool.tryExecute(tasks.quick("s3"), Duration.ofSeconds(100)));
            } catch (RejectedExecutionException e) {
                s3Outcome.set(e);
            }
        });
        until("s3 waits", () -> pool.waiting() == 3);
        Thread s4 = start("s4", () -> pool.execute(tasks.quick("s4")));
        until("s4 waits", () -> pool.waiting() == 4);
        Thread i2 = start("s2's interrupter", s2::interrupt);
        Thread i3 = start("s3's interrupter", s3::interrupt);
        join(i2, i3, s2, s3);
        assertInstanceOf(InterruptedException.class, s2Outcome.get() == null ? null : s2Outcome.get().getCause(),
                "s2, interrupted while blocked, was not rejected");
        assertInstanceOf(InterruptedException.class,
                s3Outcome.get() instanceof Throwable t ? t.getCause() : s3Outcome.get(),
                "s3, interrupted while blocked in tryExecute, was not rejected");
        assertEquals(2, pool.waiting(), pool::toString);
        t0Ends.countDown();
        join(s1, s4);
        tasks.untilStarted(3);
        assertEquals(List.of("t0", "s1", "s4"), tasks.started(), "the order the tasks started in");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "s1", "s4");
    }

    /**
     * {@code free()} across a tune-down racing the ends of the tasks (WorkerPool.free: "{@code cap() - running()},
     * or {@code 0} while more workers run than a tuned-down capacity allows ... A bounded pool never returns a
     * negative number"): two tasks hold a pool of capacity 2; one thread tunes it down to 1 while another lets the
     * tasks end and a third reads {@code free()}: every reading is between 0 and the capacity, and once the tasks
     * have ended and the pool is tuned down, at most 1. Coverage review 19, mutant P-F: PoolCore.freeLocked without
     * its {@code Math.max(0, ...)} (a tuned-down pool says -1): no other Fray test read free().
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void freeIsNeverNegativeAcrossATuneDown() throws Exception {
        PoolWithFunc<Runnable> pool = PoolWithFunc.newPool(2, Runnable::run, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch end = new CountDownLatch(1);
        pool.invoke(tasks.holding("t1", end));
        pool.invoke(tasks.holding("t2", end));
        tasks.untilStarted(2);
        Thread tuner = start("tuner", () -> pool.tune(1));
        Thread ender = start("ender", end::countDown);
        Thread observer = start("observer", () -> {
            for (int i = 0; i < 3; i++) {
                int free = pool.free();
                assertTrue(free >= 0 && free <= 2, () -> "free() = " + free + ": " + pool);
            }
        });
        join(tuner, ender, observer);
        until("both tasks ended", () -> tasks.active() == 0);
        int free = pool.free();
        assertTrue(free >= 0 && free <= 1, () -> "free() = " + free + " after the tune-down: " + pool);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t1", "t2");
    }

    /**
     * {@code idle()} counts the one worker going from the fast lane back to the idle queue exactly once at every
     * reading (WorkerPool.idle: "each idle worker is counted once. A worker that has just finished a task and spins in
     * the pool's fast lane counts as idle, also while it goes from the lane back to the idle queue"; the class: "A
     * count of a multi-pool is the sum over its sub-pools at one instant (read with every sub-pool's lock held)"): a
     * pool of one runs one quick task, and nothing else is submitted, so its worker, once idle, stays idle; an observer
     * reads {@code idle()} until that worker parks on the idle queue: every reading is at most 1, and once 1 it stays 1.
     * Then the same on a multi-pool of two sub-pools of one. Coverage review 21, mutants I-P ({@code PoolCore.idle}
     * reading the queue and the lane without the pool's lock) and I-M ({@code MultiPoolCore.sum} without the
     * sub-pools' locks): survived every other PoolFrayTest, PoolLifecycleFrayTest, PoolCloseFromTaskFrayTest and
     * FastLaneFrayTest (none compared two readings of {@code idle()}); this test catches both at the first iteration.
     */
    @FrayTest(iterations = 30 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void idleCountsTheWorkerLeavingTheLaneOnceAtEveryReading() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        idleCountsTheWorkerLeavingTheLaneOnce(pool, pool::execute);
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        idleCountsTheWorkerLeavingTheLaneOnce(multi, multi::execute);
    }

    private static void idleCountsTheWorkerLeavingTheLaneOnce(io.ants4j.pool.WorkerPool pool,
                                                               java.util.concurrent.Executor submit) throws Exception {
        PoolTasks tasks = new PoolTasks(pool::cap);
        AtomicReference<Thread> worker = new AtomicReference<>();
        Runnable t = tasks.quick("t");
        submit.execute(() -> {
            worker.set(Thread.currentThread());
            t.run();
        });
        Thread observer = start("observer", () -> {
            AtomicBoolean seen = new AtomicBoolean();
            until("the worker is idle and parked", () -> {
                int idle = pool.idle();
                assertTrue(idle <= 1, () -> "idle() = " + idle + " with one worker alive: " + pool);
                assertTrue(!seen.get() || idle == 1,
                        () -> "idle() = " + idle + " after 1, the one worker idle throughout: " + pool);
                seen.compareAndSet(false, idle == 1);
                Thread w = worker.get();
                return seen.get() && w != null && w.getState() == Thread.State.WAITING;
            });
        });
        join(observer);
        assertEquals(1, pool.idle(), pool::toString);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t");
    }

    /** A throwable no handler in the task catches: an {@code Error} of the test's own. */
    private static final class FunctionError extends Error {
        private static final long serialVersionUID = 1L;

        FunctionError(String message) {
            super(message);
        }
    }

    /**
     * Whatever the function of a {@link PoolWithFunc} throws, an {@code Error} too, goes to the panic handler, and
     * the worker goes on (PoolWithFunc: "Failures: whatever the function throws goes to the panic handler, or is
     * logged at {@code ERROR}; {@code invoke} never sees it and the worker goes on"): a pool of one runs "boom", whose
     * function call throws an {@code Error} once a submitter waits behind it with "next"; the handler gets that very
     * throwable, neither {@code invoke} throws, and "next" runs on the same worker thread. Coverage review 21, mutant
     * E-R ({@code PoolCore.runPayload} catching {@code Exception} instead of {@code Throwable}: the {@code Error} ends
     * the worker's thread, the handler never hears of it, and "next" runs on a new worker): no other Fray test has a
     * task throw an {@code Error}; caught here at the first iteration (Fray reports the worker's uncaught {@code Error}).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aFunctionsErrorGoesToThePanicHandlerAndTheWorkerGoesOn() throws Exception {
        AtomicReference<Throwable> handled = new AtomicReference<>();
        AtomicReference<Thread> boomThread = new AtomicReference<>();
        AtomicReference<Thread> nextThread = new AtomicReference<>();
        AtomicReference<PoolWithFunc<String>> ref = new AtomicReference<>();
        PoolWithFunc<String> pool = PoolWithFunc.newPool(1, arg -> {
            if (arg.equals("boom")) {
                boomThread.set(Thread.currentThread());
                until("next waits", () -> ref.get().waiting() == 1);
                throw new FunctionError("boom fails");
            }
            nextThread.set(Thread.currentThread());
        }, PoolOptions.builder().threadFactory(PoolTasks.PLATFORM_WORKERS).disablePurge(true)
                .panicHandler(t -> assertTrue(handled.compareAndSet(null, t), "the handler called twice")).build());
        ref.set(pool);
        pool.invoke("boom");
        Thread next = start("next", () -> pool.invoke("next"));
        join(next);
        until("next ran", () -> nextThread.get() != null);
        assertInstanceOf(FunctionError.class, handled.get(), "the function's Error did not reach the panic handler");
        assertSame(boomThread.get(), nextThread.get(), "the worker did not go on after the function's Error");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }
}
