package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.TIMEOUT_SECONDS;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.recording;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilEveryWorkerButTheHoldersIsParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.FrayMultiPool;
import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.MultiPoolWithFunc;
import io.ants4j.pool.PoolOptions;
import io.ants4j.pool.PoolOverloadException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
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
 * The blocking contracts of {@link MultiPool} and {@link MultiPoolWithFunc} across their sub-pools: the choice
 * of a sub-pool (round robin from the last reboot, its retry of an overloaded choice, least tasks), waiters
 * limited and ordered per sub-pool, timed submitters, tune and the transitions of all sub-pools as one; as
 * {@link PoolFrayTest} (platform workers, no purger or ticker, the random scheduler), whose tests of one pool
 * these are the multi-pool neighbours of.
 */
@ExtendWith(FrayTestExtension.class)
class MultiPoolFrayTest {
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
     * {@link MultiPoolWithFunc#tryInvoke} waits for a worker: "Runs the pool's function on {@code arg} if a worker
     * is or becomes free within {@code timeout}". A multi-pool of 2×1, round robin, t0 and t1 holding both
     * sub-pools; c calls {@code tryInvoke} with the bound of every wait ({@link FrayThreads#TIMEOUT_SECONDS}), and a
     * freer lets t0 and t1 end once c waits (or has returned), the workers then racing c's wake-up. c returns
     * {@code true} and its argument runs once; no sub-pool above its capacity; the released multi-pool terminates
     * with no worker counted. Coverage review 24, mutant MPF-M3
     * ({@code AbstractFuncPool.tryInvoke} handing {@code trySubmitPayload} a zero timeout): survived every other
     * test of this class, of {@code PoolFrayTest} and of {@code PoolCloseFromTaskFrayTest} (their only
     * {@code tryInvoke} has {@link Duration#ZERO}), and this one failed at its first iteration.
     */
    @FrayTest(iterations = 30 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aMultiPoolWithFuncsTryInvokeWaitsForAWorkerWithinItsTimeout() throws Exception {
        MultiPoolWithFunc<Runnable> pool = MultiPoolWithFunc.newMultiPool(2, 1, Runnable::run,
                LoadBalancing.ROUND_ROBIN, PoolTasks.options());
        PoolTasks tasks = new PoolTasks(pool::cap, () -> {
            assertTrue(pool.running(0) <= 1 && pool.running(1) <= 1, () -> "a sub-pool above its capacity: " + pool);
        });
        CountDownLatch tasksEnd = new CountDownLatch(1);
        pool.invoke(tasks.holding("t0", tasksEnd));
        pool.invoke(tasks.holding("t1", tasksEnd));
        tasks.untilStarted(2);
        AtomicBoolean handed = new AtomicBoolean();
        AtomicBoolean returned = new AtomicBoolean();
        Thread c = start("c", () -> {
            handed.set(pool.tryInvoke(tasks.quick("c"), Duration.ofSeconds(TIMEOUT_SECONDS)));
            returned.set(true);
        });
        Thread freer = start("freer", () -> {
            until("c waits or returns", () -> pool.waiting() == 1 || returned.get());
            tasksEnd.countDown();
        });
        join(c, freer);
        assertTrue(handed.get(),
                () -> "tryInvoke returned false though both workers freed up within its timeout: " + pool);
        tasks.untilStarted(3);
        pool.release();
        assertTrue(pool.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS), pool::toString);
        assertEquals(0, pool.running(), pool::toString);
        tasks.assertEachRanOnce("t0", "t1", "c");
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
}
