package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.TIMEOUT_SECONDS;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.FrayMultiPool;
import io.ants4j.pool.FrayPoolCore;
import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.MultiPoolWithFunc;
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
 * pool terminated.
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
     * {@code MultiPool}: "a maxBlockingTasks limit holds per sub-pool, and so does the order of blocked
     * submitters". Two sub-pools of one worker, {@code maxBlockingTasks(2)}, round robin; each worker held by a
     * task; s1 to s4 come one after another and block, two in each sub-pool (round robin sends s1 and s3 to one,
     * s2 and s4 to the other); s5 finds both sub-pools at their limit and gets {@code PoolOverloadException}
     * (a limit over the whole multi-pool would have refused s3). Freed, each sub-pool serves its waiters in
     * arrival order: s1 before s3, s2 before s4. Every submitter already waits when the workers are freed and
     * none submits afterwards, so the fast lane's documented exception (a submitter of another sub-pool taking
     * a spinning worker before it sees its own sub-pool's new waiter) cannot arise.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void multiPoolLimitsAndOrdersTheWaitersPerSubPool() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().threadFactory(PoolTasks.PLATFORM_WORKERS).disablePurge(true)
                        .maxBlockingTasks(2).build());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch hold = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", hold));
        pool.execute(tasks.holding("t1", hold));
        tasks.untilStarted(2);
        Thread[] s = new Thread[4];
        for (int i = 1; i <= 4; i++) {
            String name = "s" + i;
            s[i - 1] = start(name, () -> pool.execute(tasks.quick(name)));
            int waiters = i;
            until(name + " waits", () -> pool.waiting() == waiters);
        }
        assertTrue(pool.waiting(0) == 2 && pool.waiting(1) == 2, pool::toString);
        assertThrows(PoolOverloadException.class, () -> pool.execute(tasks.quick("s5")),
                "a third waiter in a sub-pool of maxBlockingTasks(2)");
        hold.countDown();
        join(s);
        tasks.untilStarted(6);
        List<String> order = tasks.started();
        assertTrue(order.indexOf("s1") < order.indexOf("s3") && order.indexOf("s2") < order.indexOf("s4"),
                () -> "a sub-pool's waiters not served in arrival order: " + order);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "t1", "s1", "s2", "s3", "s4");
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
     * A {@code MultiPool}'s timed {@code tryExecute} whose sub-pools are full, served as its timeout runs out,
     * loses no slot and runs its task at most once: a multi-pool of 2×1, round robin, t0 holding sub-pool 0 and
     * t1 sub-pool 1; c calls {@code tryExecute} (200 ms, virtual time), which waits on sub-pool 0, and once
     * that has timed out takes its second look on the least-running sub-pool with the time left (none). Once
     * c's timeout has run out, a freer lets t0 end (its worker takes c's task if c still waits on sub-pool 0,
     * racing c's withdrawal, or idles in the shared lane, where the second look's hand-off may find it), or
     * t1 (its worker idles in the shared lane: only the second look can use it), or both, or neither (until c
     * has returned: c must then return {@code false} by its deadline, both looks timed). Invariants: c returns
     * (no look waits past the deadline for a worker), its task ran exactly when {@code tryExecute} returned
     * {@code true}, and once, and never with neither worker freed; no sub-pool ever above its capacity;
     * afterwards no submitter is counted waiting, two more tasks run, and the released multi-pool terminates
     * with no worker counted (a slot lost, counted with no worker, would keep its sub-pool from terminating).
     * Not checked: that two tasks then run at once. A worker freed in the shared lane may take a task sent to
     * the other sub-pool (the class javadoc), and a round-robin {@code tryExecute} chosen for the sub-pool that
     * is busy then waits there, and its second look, on the least-running sub-pool, counts idle workers as
     * running and takes sub-pool 0 on a tie: a first version, a and b by {@code tryExecute} holding each other,
     * saw b time out with the other sub-pool's worker idle.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolsTimedSubmitterServedAsItTimesOutLosesNoSlotAndRunsOnce() throws Exception {
        multiPoolTimedSubmitterServedAsItTimesOut(true, false);
        multiPoolTimedSubmitterServedAsItTimesOut(false, true);
        multiPoolTimedSubmitterServedAsItTimesOut(true, true);
        multiPoolTimedSubmitterServedAsItTimesOut(false, false);
    }

    /**
     * A {@code MultiPool}'s timed {@code tryExecute} gives up within its timeout, its second look included
     * ({@code tryExecute}'s javadoc: it hands the task over "if a worker is or becomes free within
     * {@code timeout}"; {@code tryInvoke}'s: "round robin then looks once more on the least-running one with the
     * time left"): a multi-pool of 2×1, round robin, t0 and t1 holding both sub-pools until c has returned; c
     * calls {@code tryExecute} (200 ms, virtual time), whose first look waits on one sub-pool and times out, and
     * whose second look, on the least-running sub-pool, has no time left. c returns {@code false} before 1.5 times
     * its timeout has passed (virtual time: each clock reading adds 0.1 ms); a second look given the whole timeout
     * again would return after about twice the timeout.
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolsTimedSubmitterGivesUpWithinItsTimeoutSecondLookIncluded() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch tasksEnd = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", tasksEnd));
        pool.execute(tasks.holding("t1", tasksEnd));
        tasks.untilStarted(2);
        long timeout = TimeUnit.MILLISECONDS.toNanos(200);
        AtomicLong elapsed = new AtomicLong();
        AtomicBoolean handed = new AtomicBoolean();
        Thread c = start("c", () -> {
            long start = System.nanoTime();
            handed.set(pool.tryExecute(tasks.quick("c"), Duration.ofNanos(timeout)));
            elapsed.set(System.nanoTime() - start);
        });
        join(c);
        tasksEnd.countDown();
        assertTrue(!handed.get(), "c's task was handed over though no worker freed up");
        assertTrue(elapsed.get() < timeout + timeout / 2,
                () -> "the timed tryExecute returned after " + elapsed.get() + " ns, its timeout " + timeout + " ns");
        assertEquals(0, pool.waiting(), pool::toString);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    private static void multiPoolTimedSubmitterServedAsItTimesOut(boolean freeT0, boolean freeT1) throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch t0Ends = new CountDownLatch(1);
        CountDownLatch t1Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        pool.execute(tasks.holding("t1", t1Ends));
        tasks.untilStarted(2);
        long timeout = TimeUnit.MILLISECONDS.toNanos(200);
        AtomicLong cStart = new AtomicLong();
        AtomicBoolean handed = new AtomicBoolean();
        Thread c = start("c", () -> {
            cStart.set(System.nanoTime()); // its deadline is later
            handed.set(pool.tryExecute(tasks.quick("c"), Duration.ofNanos(timeout)));
        });
        Thread freer = start("freer", () -> {
            until("c's timeout runs out", () -> cStart.get() != 0 && System.nanoTime() - cStart.get() >= timeout);
            if (freeT0) {
                t0Ends.countDown();
            }
            if (freeT1) {
                t1Ends.countDown();
            }
        });
        join(c, freer);
        assertTrue(freeT0 || freeT1 || !handed.get(), "c's task was handed over though no worker freed up");
        assertEquals(0, pool.waiting(), pool::toString);
        t0Ends.countDown();
        t1Ends.countDown();
        tasks.untilStarted(handed.get() ? 3 : 2);
        for (String name : List.of("a", "b")) { // each waits, if it must, for its sub-pool's worker: none lost
            pool.execute(tasks.quick(name));
        }
        tasks.untilStarted(handed.get() ? 5 : 4);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        if (handed.get()) {
            tasks.assertEachRanOnce("t0", "t1", "c", "a", "b");
        } else {
            tasks.assertEachRanOnce("t0", "t1", "a", "b");
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
     * {@link LoadBalancing#LEAST_TASKS} picks "the sub-pool with the fewest running workers at the moment of
     * submission (the first one on a tie)": on a {@link MultiPool} of two sub-pools of one worker, t0 goes to
     * sub-pool 0 (a tie) and holds its worker; x, submitted from another thread while t0 runs, goes to sub-pool 1
     * (fewer running) and runs without waiting for t0. Then a and b submit at once (each sub-pool counts one
     * worker: both pick sub-pool 0, unless sub-pool 1's worker, spinning in the shared fast lane, takes one) while
     * a releaser lets t0 end at any moment; each task runs once, no sub-pool above its capacity, and the released
     * multi-pool terminates.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void leastTasksPicksTheSubPoolWithTheFewestRunningWorkers() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.LEAST_TASKS, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        tasks.untilStarted(1);
        assertTrue(pool.running(0) == 1 && pool.running(1) == 0, () -> "t0 not on the first sub-pool of a tie: " + pool);
        Thread x = start("x", () -> pool.execute(tasks.quick("x")));
        tasks.untilStarted(2);
        join(x);
        assertEquals(1, pool.running(1), () -> "x not on the sub-pool with fewer running workers: " + pool);
        Thread a = start("a", () -> pool.execute(tasks.quick("a")));
        Thread b = start("b", () -> pool.execute(tasks.quick("b")));
        Thread releaser = start("releaser", t0Ends::countDown);
        join(a, b, releaser);
        tasks.untilStarted(4);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        tasks.assertEachRanOnce("t0", "x", "a", "b");
    }

    /**
     * {@link MultiPoolWithFunc}, round robin over two sub-pools of one worker, the function running its argument:
     * t0 holds sub-pool 0's worker; two submitters {@code invoke} two arguments each (those sent to sub-pool 0
     * wait for t0 or take a worker spinning in the shared fast lane), a third tries {@code tryInvoke} with a zero
     * timeout, and a releaser lets t0 end at any moment. Each argument invoked, and the tried one exactly when
     * {@code tryInvoke} returned true, is run once; no sub-pool above its capacity; the released multi-pool
     * terminates with no worker counted.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void multiPoolWithFuncRunsEachArgumentOnce() throws Exception {
        MultiPoolWithFunc<Runnable> pool = MultiPoolWithFunc.newMultiPool(2, 1, Runnable::run,
                LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.invoke(tasks.holding("t0", t0Ends));
        tasks.untilStarted(1);
        Thread a = start("a", () -> {
            pool.invoke(tasks.quick("a1"));
            pool.invoke(tasks.quick("a2"));
        });
        Thread b = start("b", () -> {
            pool.invoke(tasks.quick("b1"));
            pool.invoke(tasks.quick("b2"));
        });
        AtomicBoolean tried = new AtomicBoolean();
        Thread trier = start("trier", () -> tried.set(pool.tryInvoke(tasks.quick("tried"), Duration.ZERO)));
        Thread releaser = start("releaser", t0Ends::countDown);
        join(a, b, trier, releaser);
        List<String> expected = new java.util.ArrayList<>(List.of("t0", "a1", "a2", "b1", "b2"));
        if (tried.get()) {
            expected.add("tried");
        }
        tasks.untilStarted(expected.size());
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        tasks.assertEachRanOnce(expected.toArray(String[]::new));
    }

    /**
     * A multi-pool's transitions are atomic across its sub-pools ({@code WorkerPool}): {@code release},
     * {@code reboot}, {@code shutdownNow} and {@code tune} from four threads, in any order, while a submitter
     * executes two tasks. Afterwards the multi-pool is wholly open or wholly closed: open, it takes a task on
     * each sub-pool (round robin: two in a row, both run, never {@link io.ants4j.pool.PoolClosedException});
     * closed, it terminates. A submitted task either ran once or was refused with {@code PoolClosedException}.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void multiPoolTransitionsAreAtomicAcrossTheSubPools() throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(() -> 2 * 3);
        AtomicInteger refused = new AtomicInteger();
        Thread releaser = start("release", multi::release);
        Thread rebooter = start("reboot", multi::reboot);
        Thread stopper = start("shutdownNow", multi::shutdownNow);
        Thread tuner = start("tune", () -> multi.tune(3));
        Thread submitter = start("submitter", () -> {
            for (String name : List.of("s1", "s2")) {
                try {
                    multi.execute(tasks.quick(name));
                } catch (io.ants4j.pool.PoolClosedException e) {
                    refused.incrementAndGet();
                }
            }
        });
        join(releaser, rebooter, stopper, tuner, submitter);
        tasks.untilStarted(2 - refused.get());
        if (multi.isClosed()) {
            assertTrue(multi.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                    () -> "a closed multi-pool with an open sub-pool: " + multi);
        } else {
            multi.execute(tasks.quick("o1"));
            multi.execute(tasks.quick("o2"));
            tasks.untilStarted(4 - refused.get());
            multi.release();
            assertTrue(multi.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), multi::toString);
        }
    }

    /**
     * Two tunes of a multi-pool at once are serialized as wholes (WorkerPool: "The transitions (release, reboot,
     * tune, ...) are atomic with respect to each other, also across the sub-pools of a multi-pool"; MultiPool:
     * "tune sets each sub-pool's capacity"; {@code Core.tune}: "atomically with respect to the other tunes of this
     * core (so that the {@code PoolTuned} event of each records the capacity before and after that very tune)").
     * On three sub-pools of one worker, tune(2) and tune(3) start together; each returns, through the core, the
     * capacities before and after it (what its {@code PoolTuned} event records). The only outcomes are the two
     * serial orders: tune(2) saw 3 then 6 and tune(3) saw 6 then 9, every sub-pool ending at 3; or tune(3) saw 3
     * then 9 and tune(2) saw 9 then 6, every sub-pool ending at 2. The readings of the other tune's walk make any
     * overlap of the two walks show, not only one whose writes cross (coverage review 21, mutant T-L:
     * {@code MultiPoolCore.tune} without its lifecycle lock; a test that looked only at the final capacities
     * caught it at iteration 807).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoTunesOfAMultiPoolAtOnceAreSerializedAsWholes() throws Exception {
        MultiPool multi = MultiPool.newMultiPool(3, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<int[]> byTwo = new AtomicReference<>();
        AtomicReference<int[]> byThree = new AtomicReference<>();
        Thread two = start("tune(2)", () -> {
            assertTrue(go.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "go");
            byTwo.set(FrayMultiPool.tuneAndReadCapacities(multi, 2));
        });
        Thread three = start("tune(3)", () -> {
            assertTrue(go.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "go");
            byThree.set(FrayMultiPool.tuneAndReadCapacities(multi, 3));
        });
        go.countDown();
        join(two, three);
        String seen = "tune(2) saw " + Arrays.toString(byTwo.get()) + ", tune(3) saw "
                + Arrays.toString(byThree.get()) + ", sub-pools at "
                + Arrays.toString(FrayMultiPool.subPoolCapacities(multi));
        boolean twoFirst = Arrays.equals(byTwo.get(), new int[] {3, 6})
                && Arrays.equals(byThree.get(), new int[] {6, 9})
                && Arrays.equals(FrayMultiPool.subPoolCapacities(multi), new int[] {3, 3, 3});
        boolean threeFirst = Arrays.equals(byThree.get(), new int[] {3, 9})
                && Arrays.equals(byTwo.get(), new int[] {9, 6})
                && Arrays.equals(FrayMultiPool.subPoolCapacities(multi), new int[] {2, 2, 2});
        assertTrue(twoFirst || threeFirst, () -> "not a serial order of the two tunes: " + seen);
        assertEquals(twoFirst ? 9 : 6, multi.cap(), seen);
        multi.release();
        assertTrue(multi.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), multi::toString);
    }
    /**
     * {@code invokeAny} refused while a hand-off waits returns the result in hand ({@code AbstractPoolExecutor}:
     * "@throws RejectedExecutionException {@link PoolClosedException} if the pool is closed ...; unless a task handed
     * over before has completed normally: its result is returned"). A pool of one: the caller's a runs on the only
     * worker until two submitters wait, the caller's hand-off of b and s0 (in either order); a returns "a". The worker
     * then serves the head: b (cancelled unrun, since a won: the call returns "a"), or s0, whose task starts only once
     * a's completion is recorded; as soon as it starts a releaser closes the pool, and b's hand-off, if still waiting,
     * is refused. Either way the call returns "a" (coverage review 14, mutant IA-R, the refusal thrown without its
     * look at the completed tasks: caught at iteration 2, by no other PoolFrayTest: the four other invokeAny tests never close the pool).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInvokeAnyRefusedAfterATaskSucceededReturnsItsResult() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        AtomicBoolean aStarted = new AtomicBoolean();
        AtomicBoolean s0Started = new AtomicBoolean();
        CountDownLatch s0Ends = new CountDownLatch(1);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = start("caller", () -> {
            try {
                outcome.set(pool.invokeAny(List.<java.util.concurrent.Callable<String>>of(() -> {
                    aStarted.set(true);
                    until("b and s0 wait", () -> pool.waiting() == 2);
                    return "a";
                }, () -> "b")));
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        until("a started", aStarted::get);
        Thread s0 = start("s0", () -> pool.execute(() -> {
            s0Started.set(true);
            try {
                assertTrue(s0Ends.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "s0 never released");
            } catch (InterruptedException e) {
                throw new AssertionError("s0 interrupted", e);
            }
        }));
        Thread releaser = start("releaser", () -> {
            until("s0 started", s0Started::get);
            pool.release();
        });
        join(caller, s0, releaser);
        s0Ends.countDown();
        assertEquals("a", outcome.get(), "what invokeAny returned or threw once a task had completed normally");
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /**
     * {@code invokeAny} hands its tasks over only while none has completed normally, and a task whose hand-off
     * was still waiting when one did is cancelled before it starts ({@code AbstractPoolExecutor}'s javadoc): on
     * a pool of one worker, a's hand-off gets the worker and b's waits for it, so b can only start after a
     * returned "a"; b's body never runs, and the call returns "a". When a fails instead, b runs and its result
     * is returned. Another thread's {@code submit} competes for the worker meanwhile.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInvokeAnyTaskWaitingForAWorkerWhenOneSucceededNeverStarts() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        AtomicInteger bRan = new AtomicInteger();
        AtomicBoolean otherRan = new AtomicBoolean();
        Thread other = start("other", () -> pool.submit(() -> otherRan.set(true)));
        Object result = pool.invokeAny(List.<java.util.concurrent.Callable<String>>of(() -> {
            Thread.yield();
            return "a";
        }, () -> {
            bRan.incrementAndGet();
            return "b";
        }));
        assertEquals("a", result);
        join(other);
        Object next = pool.invokeAny(List.<java.util.concurrent.Callable<String>>of(() -> {
            throw new IllegalStateException("a fails");
        }, () -> "b"));
        assertEquals("b", next);
        until("other ran", otherRan::get);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, bRan.get(), "a task handed over after another completed normally started");
    }

    /**
     * The timed {@code invokeAll} never overruns its timeout by waiting for a worker ({@code Pool}'s javadoc):
     * the only worker is held by t0 while a caller invokes two tasks with a 5 ms timeout. With t0 held for good
     * the call returns at its deadline with both futures cancelled and neither task run (one that waited for a
     * worker without bound would never return: the join's bound reports it). Then the same call again while a
     * releaser lets t0 end at any moment: each task either ran once with its future done normally, or its
     * future is cancelled (a task that got no worker never ran; one running at the deadline was cancelled as
     * it ran).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedInvokeAllNeverWaitsForAWorkerPastItsDeadline() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        CountDownLatch t0Ends = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", t0Ends));
        tasks.untilStarted(1);
        invokeAllWithin5Ms(pool, null, true);
        invokeAllWithin5Ms(pool, t0Ends, false);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /** Invokes two counting tasks with a 5 ms timeout from a caller thread, {@code release} opened meanwhile. */
    private static void invokeAllWithin5Ms(Pool pool, CountDownLatch release, boolean noneMayRun)
            throws InterruptedException {
        AtomicInteger[] ran = {new AtomicInteger(), new AtomicInteger()};
        AtomicReference<List<Future<Integer>>> futures = new AtomicReference<>();
        Thread caller = start("caller", () -> futures.set(pool.invokeAll(
                List.<java.util.concurrent.Callable<Integer>>of(() -> ran[0].incrementAndGet(),
                        () -> ran[1].incrementAndGet()), 5, TimeUnit.MILLISECONDS)));
        Thread releaser = start("releaser", () -> {
            if (release != null) {
                release.countDown();
            }
        });
        join(caller, releaser);
        for (int i = 0; i < 2; i++) {
            Future<Integer> f = futures.get().get(i);
            int n = ran[i].get();
            assertTrue(f.isDone(), "invokeAll returned a task not done");
            assertTrue(noneMayRun ? f.isCancelled() && n == 0 : f.isCancelled() ? n <= 1 : n == 1,
                    () -> "a task ran " + n + " times, its future " + f);
        }
    }

    /**
     * The timed {@code invokeAll} cancels the tasks not done when its timeout elapses while it waits for them
     * ({@code invokeAll}'s javadoc: "waits until all are done or the timeout elapses, then cancels the tasks not
     * done"; ExecutorService: "Upon return, tasks that have not completed are cancelled"): on a pool of two, a
     * caller invokes a, which returns at once, and b, which waits until interrupted ({@link #cancelledWaiting}),
     * with a timeout of 20 ms (virtual time). When the call returns, both futures are done and b's is cancelled;
     * b, if it started, was interrupted by the cancellation (it can end no other way within its bound). {@code
     * aTimedInvokeAllNeverWaitsForAWorkerPastItsDeadline} cancels tasks that got no worker, or quick ones at most:
     * none of its tasks is still running at the deadline.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedInvokeAllCancelsTheTaskStillRunningAtItsDeadline() throws Exception {
        Pool pool = Pool.newPool(2, PoolTasks.options());
        AtomicBoolean never = new AtomicBoolean(); // a gate that never opens (cancelledWaiting: not a latch)
        AtomicBoolean bStarted = new AtomicBoolean();
        AtomicBoolean bInterrupted = new AtomicBoolean();
        AtomicBoolean bEnded = new AtomicBoolean();
        AtomicReference<List<Future<String>>> futures = new AtomicReference<>();
        Thread caller = start("caller", () -> futures.set(pool.invokeAll(List.<java.util.concurrent.Callable<String>>of(
                () -> "a",
                () -> {
                    bStarted.set(true);
                    try {
                        bInterrupted.set(cancelledWaiting(never));
                    } finally {
                        bEnded.set(true);
                    }
                    return "b";
                }), 20, TimeUnit.MILLISECONDS)));
        join(caller);
        Future<String> a = futures.get().get(0);
        Future<String> b = futures.get().get(1);
        assertTrue(a.isDone(), () -> "invokeAll returned with a not done: " + a);
        assertTrue(b.isDone() && b.isCancelled(), () -> "invokeAll returned at its deadline with b, which was still"
                + " running or waiting, not cancelled: " + b);
        until("b has ended, if it started", () -> !bStarted.get() || bEnded.get());
        assertTrue(!bStarted.get() || bInterrupted.get(), "b ran past the deadline without being interrupted");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
    }

    /**
     * The untimed {@code invokeAll} raced by {@code release()} ({@code AbstractPoolExecutor}'s javadoc:
     * "RejectedExecutionException ... the tasks not done are cancelled"): on a pool of two workers, t1 waits on a
     * gate, t2 and t3 return at once, so t3's hand-off may wait for t2's worker; a releaser closes the pool at
     * any moment. Either every task was handed over, and once the gate opens the call returns its three futures
     * done, each task run once; or the call throws {@code RejectedExecutionException}, the gate stays shut, and
     * the pool terminates (no task of the call still runs) with t1, if it started, interrupted by its
     * cancellation (it can end no other way before its wait's bound); none ran twice.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInvokeAllRejectedByAReleaseCancelsItsTasks() throws Exception {
        invokeAllRacedBy(Pool::release, RejectedExecutionException.class);
    }

    /**
     * The untimed {@code invokeAll} whose caller is interrupted ({@code AbstractPoolExecutor}'s javadoc:
     * "InterruptedException if interrupted while waiting, for a worker or for the tasks; the tasks not done are
     * cancelled"): the scenario of {@link #anInvokeAllRejectedByAReleaseCancelsItsTasks}, the racer interrupting
     * the caller at any moment (while it hands over, waits for a worker, or waits for t1).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedInvokeAllCancelsItsTasks() throws Exception {
        invokeAllRacedBy(null, InterruptedException.class);
    }

    /**
     * Runs the invokeAll scenario: {@code closer} acts on the pool from a racer thread, or, if null, the racer
     * interrupts the caller; {@code failure} is the exception the call may end with.
     */
    private static void invokeAllRacedBy(java.util.function.Consumer<Pool> closer, Class<? extends Exception> failure)
            throws Exception {
        Pool pool = Pool.newPool(2, PoolTasks.options());
        AtomicBoolean gate = new AtomicBoolean();
        AtomicInteger[] ran = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        AtomicBoolean t1Interrupted = new AtomicBoolean();
        java.util.concurrent.Callable<Integer> t1 = () -> {
            ran[0].incrementAndGet();
            if (cancelledWaiting(gate)) {
                t1Interrupted.set(true);
                throw new InterruptedException();
            }
            return 1;
        };
        java.util.function.IntFunction<java.util.concurrent.Callable<Integer>> quick = i -> () -> {
            ran[i].incrementAndGet();
            Thread.yield();
            return i + 1;
        };
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = start("caller", () -> {
            try {
                outcome.set(pool.invokeAll(List.of(t1, quick.apply(1), quick.apply(2))));
            } catch (InterruptedException | RejectedExecutionException e) {
                outcome.set(e);
            }
        });
        Thread racer = start("racer", () -> {
            if (closer == null) {
                caller.interrupt();
            } else {
                closer.accept(pool);
            }
        });
        join(racer);
        until("the call ended or handed every task over", () -> outcome.get() != null
                || ran[0].get() + ran[1].get() + ran[2].get() == 3);
        if (outcome.get() == null) {
            gate.set(true); // every task was handed over: the call may now return
        }
        join(caller);
        if (outcome.get() instanceof List<?> futures) {
            for (int i = 0; i < 3; i++) {
                Future<?> f = (Future<?>) futures.get(i);
                int n = ran[i].get();
                assertTrue(f.isDone() && (f.isCancelled() ? n <= 1 : n == 1),
                        () -> "invokeAll returned a future " + f + " of a task run " + n + " times");
            }
        } else {
            assertInstanceOf(failure, outcome.get(), "what the call threw");
        }
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        if (!(outcome.get() instanceof List)) { // every task ended: t1 could only by its cancellation
            assertTrue(ran[0].get() == 0 || t1Interrupted.get() || gate.get(),
                    "t1 ran on after the call threw: not cancelled");
        }
        for (int i = 0; i < 3; i++) {
            int n = ran[i].get();
            assertTrue(n <= 1, "a task of the call ran " + n + " times");
        }
    }

    /**
     * {@code invokeAny} "returns the result of a task that completed normally, and cancels the others": on a
     * pool of two workers, both tasks start and wait until both run; then the first to claim the win returns its
     * name, the other waits on a gate that never opens. The call returns the winner's name, and the loser is
     * interrupted by its cancellation (it can end no other way) before the pool terminates.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void invokeAnyCancelsTheTaskStillRunning() throws Exception {
        Pool pool = Pool.newPool(2, PoolTasks.options());
        AtomicBoolean never = new AtomicBoolean();
        AtomicReference<String> winner = new AtomicReference<>();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger loserInterrupted = new AtomicInteger();
        java.util.function.Function<String, java.util.concurrent.Callable<String>> task = name -> () -> {
            started.incrementAndGet();
            until("both tasks run", () -> started.get() == 2);
            if (winner.compareAndSet(null, name)) {
                return name;
            }
            assertTrue(cancelledWaiting(never), "the loser returned from a gate that never opens");
            loserInterrupted.incrementAndGet();
            throw new InterruptedException();
        };
        String result = pool.invokeAny(List.of(task.apply("a"), task.apply("b")));
        assertEquals(winner.get(), result, "the result is not the winner's");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS),
                () -> "the loser still runs: not cancelled, " + pool);
        assertEquals(1, loserInterrupted.get(), "the loser was not interrupted");
    }

    /**
     * The timed {@code invokeAny} never overruns its timeout ({@code AbstractPoolExecutor}: "each waiting, for a
     * worker or for a result, only until the deadline"): on a pool of two workers, a fails at once and b waits
     * until its cancellation interrupts it, so no task completes normally; a caller invokes both with a 100 ms
     * timeout (long enough to hand both over: the call then waits for a result). The call throws {@code TimeoutException} (one that waited for a result without bound would wait
     * for b, which ends only by its cancellation or its wait's bound), b is interrupted by its cancellation, and
     * the pool terminates.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedInvokeAnyNeverWaitsForAResultPastItsDeadline() throws Exception {
        Pool pool = Pool.newPool(2, PoolTasks.options());
        AtomicBoolean never = new AtomicBoolean();
        AtomicInteger bStarted = new AtomicInteger();
        AtomicInteger bInterrupted = new AtomicInteger();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = start("caller", () -> {
            try {
                outcome.set(pool.invokeAny(List.<java.util.concurrent.Callable<String>>of(() -> {
                    throw new IllegalStateException("a fails");
                }, () -> {
                    bStarted.incrementAndGet();
                    if (cancelledWaiting(never)) {
                        bInterrupted.incrementAndGet();
                        throw new InterruptedException();
                    }
                    return "b";
                }), 100, TimeUnit.MILLISECONDS));
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                outcome.set(e);
            }
        });
        join(caller);
        assertInstanceOf(java.util.concurrent.TimeoutException.class, outcome.get(), "what the timed invokeAny ended with");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), () -> "b still runs: not cancelled, " + pool);
        assertEquals(bStarted.get(), bInterrupted.get(), "b ran on past the call without its cancellation's interrupt");
    }

    /**
     * {@link LoadBalancing#ROUND_ROBIN} "retries an overloaded choice once on the least-running sub-pool" (README,
     * {@code MultiPool}): a nonblocking multi-pool of two sub-pools of two workers; a1 and a2 hold both workers of
     * sub-pool A, sub-pool B has one worker, parked idle (b1 and b2 ran on it; every worker but A's is parked
     * before the next submission, so none spins in the shared fast lane). Then round robin sends c to A, racing
     * a releaser that lets a1 and a2 end. Invariant: c is accepted (on A, if a worker of A is free by then, or on
     * B by the retry; never {@code PoolOverloadException}), every task runs once, no sub-pool above its capacity.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void roundRobinRetriesAnOverloadedChoiceOnTheLeastRunningSubPool() throws Exception {
        java.util.Queue<Thread> workers = new java.util.concurrent.ConcurrentLinkedQueue<>();
        MultiPool pool = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN, PoolOptions.builder()
                .threadFactory(recording(workers)).disablePurge(true).nonblocking(true).build());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 2 && pool.running(1) <= 2, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch hold = new CountDownLatch(1);
        Set<Thread> holders = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.function.Function<String, Runnable> holding = name -> {
            Runnable held = tasks.holding(name, hold);
            return () -> {
                holders.add(Thread.currentThread());
                held.run();
            };
        };
        pool.execute(holding.apply("a1"));
        tasks.untilStarted(1);
        int a = pool.running(0) == 1 ? 0 : 1;
        pool.execute(tasks.quick("b1"));
        untilEveryWorkerButTheHoldersIsParked(workers, holders, 2);
        pool.execute(holding.apply("a2"));
        tasks.untilStarted(3);
        pool.execute(tasks.quick("b2"));
        untilEveryWorkerButTheHoldersIsParked(workers, holders, 4);
        assertTrue(pool.running(a) == 2 && pool.running(1 - a) == 1, () -> "not the setup meant: " + pool);
        Thread c = start("c", () -> pool.execute(tasks.quick("c")));
        Thread releaser = start("releaser", hold::countDown);
        join(c, releaser);
        tasks.untilStarted(5);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("a1", "a2", "b1", "b2", "c");
    }

    /** Platform daemon workers, each added to {@code workers} as it is made. */
    private static java.util.concurrent.ThreadFactory recording(java.util.Queue<Thread> workers) {
        return task -> {
            Thread t = Thread.ofPlatform().daemon(true).unstarted(task);
            workers.add(t);
            return t;
        };
    }

    /** Waits until {@code n} tasks started and every worker but those running a held task is parked. */
    private static void untilEveryWorkerButTheHoldersIsParked(java.util.Queue<Thread> workers, Set<Thread> holders,
            int n) {
        until(n + " tasks started and every other worker parked", () -> holders.size() + workers.stream()
                .filter(w -> !holders.contains(w))
                .filter(w -> w.getState() == Thread.State.WAITING || w.getState() == Thread.State.TIMED_WAITING)
                .count() == workers.size());
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
     * Waits for {@code gate} to open, polling; returns true if interrupted meanwhile (a task's cancellation),
     * false if it opened. Not a latch: under Fray 0.9.2 an interrupt can end a {@code CountDownLatch.await} with
     * {@code true} and no exception on a latch never counted down (docs/testing.md, "Limits").
     */
    private static boolean cancelledWaiting(AtomicBoolean gate) {
        for (int i = 0; i < 100_000; i++) {
            if (Thread.interrupted()) {
                return true;
            }
            if (gate.get()) {
                return false;
            }
            Thread.yield();
        }
        throw new AssertionError("a task neither released nor cancelled");
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
     * The timed {@code invokeAny} has one deadline for its waits for a worker and for a result ("TimeoutException
     * if the timeout elapses before any task completes"; a hand-off waits for a worker "only until the deadline as
     * tryExecute does"): on a pool of one, a runs on the only worker until cancelled, b's hand-off waits for a
     * worker until the deadline; then no result can come before it. {@code invokeAny(100 ms)} throws
     * {@code TimeoutException} within 130 ms of virtual time (every other thread in a timed wait; Fray's clock overshoots a
     * deadline by up to some 10 ms), a is
     * cancelled, b never runs, and the pool terminates. Coverage review 16, mutant IAN-D (the wait for a result
     * given the whole timeout again after the hand-offs: 200 ms or more).
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedInvokeAnyWaitsForAWorkerAndForAResultWithinOneDeadline() throws Exception {
        Pool pool = Pool.newPool(1, PoolTasks.options());
        CountDownLatch never = new CountDownLatch(1);
        AtomicInteger aStarted = new AtomicInteger();
        AtomicInteger aInterrupted = new AtomicInteger();
        AtomicInteger bRan = new AtomicInteger();
        AtomicReference<Object> outcome = new AtomicReference<>();
        AtomicLong took = new AtomicLong(-1);
        Thread caller = start("caller", () -> {
            long before = System.nanoTime();
            try {
                outcome.set(pool.invokeAny(List.<java.util.concurrent.Callable<String>>of(() -> {
                    aStarted.incrementAndGet();
                    try {
                        // a timed wait, not a spin: the clock jumps to the caller's deadline. Under Fray an
                        // interrupt may end it with true and no exception (docs/testing.md, Limits)
                        if (!never.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                            return "a, never cancelled"; // not counted as interrupted: the test fails below
                        }
                    } catch (InterruptedException e) {
                        aInterrupted.incrementAndGet();
                        throw e;
                    }
                    aInterrupted.incrementAndGet(); // nobody counts the latch down: only an interrupt ended the wait
                    throw new InterruptedException();
                }, () -> {
                    bRan.incrementAndGet();
                    return "b";
                }), 100, TimeUnit.MILLISECONDS));
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                outcome.set(e);
            }
            took.set(System.nanoTime() - before);
        });
        join(caller); // a timed wait: with every other thread waiting, the clock jumps to the caller's deadline
        assertInstanceOf(java.util.concurrent.TimeoutException.class, outcome.get(), "what the timed invokeAny ended with");
        assertTrue(took.get() < TimeUnit.MILLISECONDS.toNanos(130),
                () -> "invokeAny(100 ms) returned after " + took.get() / 1_000 + " µs");
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), () -> "a still runs: not cancelled, " + pool);
        assertEquals(aStarted.get(), aInterrupted.get(), "a ran on past the call without its cancellation's interrupt");
        assertEquals(0, bRan.get(), "b ran though it got no worker before the deadline");
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
     * {@code MultiPool}: "{@link MultiPool#tune} sets each sub-pool's capacity", and a capacity raised serves the
     * blocked submitters that have waited longest, in every sub-pool. Two sub-pools of one worker, round robin; t0
     * and t1 hold both workers; s1 (sub-pool 0) and s2 (sub-pool 1) block; a tuner raises the capacity to 2 while
     * s3 comes (round robin: sub-pool 0, behind s1, or let in if it comes after the tune). s1 and s2 are let in
     * while t0 and t1 still run, never s3 before s1, and no sub-pool runs more than 2. Coverage review 17, mutant
     * MT-1 ({@code MultiPoolCore.tune} leaving the last sub-pool at its old capacity): survived every PoolFrayTest,
     * whose only multi-pool tune had no blocked submitter.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolsTuneUpLetsInTheLongestWaiterOfEverySubPool() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 2 && pool.running(1) <= 2, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch hold = new CountDownLatch(1);
        pool.execute(tasks.holding("t0", hold));
        pool.execute(tasks.holding("t1", hold));
        tasks.untilStarted(2);
        Thread s1 = start("s1", () -> pool.execute(tasks.holding("s1", hold)));
        until("s1 waits", () -> pool.waiting() == 1);
        Thread s2 = start("s2", () -> pool.execute(tasks.holding("s2", hold)));
        until("s2 waits", () -> pool.waiting() == 2);
        assertTrue(pool.waiting(0) == 1 && pool.waiting(1) == 1, pool::toString);
        Thread tuner = start("tuner", () -> pool.tune(2));
        Thread s3 = start("s3", () -> pool.execute(tasks.quick("s3")));
        join(tuner);
        assertEquals(4, pool.cap(), pool::toString);
        until("s1 and s2 are let in", () -> tasks.started().containsAll(List.of("s1", "s2")));
        assertFalse(tasks.started().contains("s3"), () -> "s3 let in past s1 or above the capacity: "
                + tasks.started() + ", " + pool);
        hold.countDown();
        join(s1, s2, s3);
        tasks.untilStarted(5);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("t0", "t1", "s1", "s2", "s3");
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

    /**
     * Round robin takes the sub-pools strictly in turn, counted from the last reboot ({@link LoadBalancing#ROUND_ROBIN}:
     * "The sub-pools strictly in turn (counted from the last {@code reboot} ...)"): a multi-pool of three sub-pools of
     * one runs s0 (sub-pool 0), is released and rebooted; then c, submitted alone, goes to sub-pool 0 again, and a and b,
     * submitted at once, go one to sub-pool 1 and one to sub-pool 2, so that c, a and b all run together without anyone
     * waiting. Coverage review 21, mutants RR-A (the turn read and written back in two steps, {@code index.get() + 1}
     * then {@code index.set}: two submitters at once can take the same turn, and one waits behind the other's task)
     * and RR-R ({@code reboot} without {@code index.set(-1L)}: the turns go on from before the release): both survived
     * every other Fray test of the pools; this test catches RR-A at iteration 2, RR-R at the first.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void roundRobinTakesTheSubPoolsStrictlyInTurnFromTheLastReboot() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(3, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        pool.execute(tasks.quick("s0"));
        tasks.untilStarted(1);
        assertEquals(1, pool.running(0), () -> "s0 not on sub-pool 0: " + pool);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        pool.reboot();
        CountDownLatch hold = new CountDownLatch(1);
        pool.execute(tasks.holding("c", hold));
        tasks.untilStarted(2);
        assertTrue(pool.running(0) == 1 && pool.running(1) == 0 && pool.running(2) == 0,
                () -> "the first task after the reboot not on sub-pool 0: " + pool);
        Thread a = start("a", () -> pool.execute(tasks.holding("a", hold)));
        Thread b = start("b", () -> pool.execute(tasks.holding("b", hold)));
        join(a, b); // each went to a sub-pool of its own, none waits behind another's task
        tasks.untilStarted(4);
        assertTrue(pool.running(1) == 1 && pool.running(2) == 1,
                () -> "a and b not one on each of the next sub-pools: " + pool);
        hold.countDown();
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("s0", "c", "a", "b");
    }

    /**
     * A multi-pool's reboot is atomic across its sub-pools (WorkerPool: "The transitions ({@code release},
     * {@code reboot}, ...) are atomic with respect to each other, also across the sub-pools of a multi-pool";
     * {@code execute} throws {@code PoolClosedException} only "if the pool is closed"): a released multi-pool of two
     * sub-pools of one is rebooted by one thread while a submitter waits until {@code isClosed()} is false and then
     * executes two tasks, round robin one on each sub-pool: neither is refused, both run. Coverage review 21, mutant
     * RB-O ({@code MultiPoolCore.reboot} marking the multi-pool open before it reopens the sub-pools: a submitter that
     * sees it open is refused by a sub-pool still closed): survived every other Fray test of the pools; caught here at
     * the first iteration.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolSeenOpenAfterARebootTakesATaskOnEverySubPool() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap);
        pool.release();
        Thread rebooter = start("rebooter", pool::reboot);
        Thread submitter = start("submitter", () -> {
            until("the multi-pool shows open", () -> !pool.isClosed());
            for (String name : List.of("s1", "s2")) {
                try {
                    pool.execute(tasks.quick(name));
                } catch (io.ants4j.pool.PoolClosedException e) {
                    throw new AssertionError(name + " refused by a multi-pool that showed open: " + pool, e);
                }
            }
        });
        join(rebooter, submitter);
        tasks.untilStarted(2);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        tasks.assertEachRanOnce("s1", "s2");
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
