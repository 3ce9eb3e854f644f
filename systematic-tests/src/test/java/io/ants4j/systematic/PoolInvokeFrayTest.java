package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.TIMEOUT_SECONDS;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.Pool;
import java.util.List;
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
 * {@code invokeAll} and {@code invokeAny} of the pools ({@link Pool} as an {@code ExecutorService}): timed forms
 * that wait for a worker and for results within one deadline, the cancellation of tasks still running or
 * waiting for a worker when the call ends (its deadline, an interrupt, a release, another task's success); as
 * {@link PoolFrayTest} (platform workers, no purger or ticker, the random scheduler).
 */
@ExtendWith(FrayTestExtension.class)
class PoolInvokeFrayTest {
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
}
