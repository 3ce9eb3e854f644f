package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link ExecutorService} contract, point by point as the JDK's own executors meet it (after the jsr166 TCK's
 * {@code AbstractExecutorServiceTest} and {@code ThreadPoolExecutorTest} and the JDK's {@code CloseTest}), for
 * {@link Pool} and {@link MultiPool} on virtual and on platform workers; plus the points where ants' blocking
 * hand-off differs from a queueing executor, as the javadoc states them.
 */
class ExecutorServiceConformanceTest {

    /** Short enough to keep the suite fast, long enough that a timed call surely has to wait for it. */
    private static final long TIMEOUT_MS = 150;

    /**
     * Bound for a call that must not hang: shorter than {@link TestSupport#WAIT}, after which the tasks that fill
     * a pool give up and would let a hanging call through.
     */
    private static final Duration BOUND = WAIT.dividedBy(2);

    /**
     * One kind of pool under test.
     *
     * @param subPools how many sub-pools a made pool has (a multi-pool's limits hold per sub-pool)
     */
    record Kind(String name, int subPools, BiFunction<Integer, PoolOptions.Builder, ExecutorService> maker) {
        /** Makes a pool with {@code perPool} workers per sub-pool. */
        ExecutorService make(int perPool, PoolOptions.Builder options) {
            return maker.apply(perPool, options);
        }

        ExecutorService make(int perPool) {
            return make(perPool, PoolOptions.builder());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Kind> kinds() {
        BiFunction<Integer, PoolOptions.Builder, ExecutorService> pool = (n, o) -> Pool.newPool(n, o.build());
        BiFunction<Integer, PoolOptions.Builder, ExecutorService> multi =
                (n, o) -> MultiPool.newMultiPool(2, n, LoadBalancing.ROUND_ROBIN, o.build());
        return Stream.of(
                new Kind("Pool/virtual", 1, pool),
                new Kind("Pool/platform", 1, (n, o) -> pool.apply(n, platform(o))),
                new Kind("MultiPool/virtual", 2, multi),
                new Kind("MultiPool/platform", 2, (n, o) -> multi.apply(n, platform(o))));
    }

    private static PoolOptions.Builder platform(PoolOptions.Builder options) {
        return options.threadFactory(Thread.ofPlatform().factory());
    }

    private static WorkerPool counts(ExecutorService es) {
        return (WorkerPool) es;
    }

    private static PoolStats stats(ExecutorService es) {
        return ((WorkerPool) es).stats();
    }

    /** Occupies every worker with a task that waits for the returned gate; returns once all run. */
    private static CountDownLatch fill(ExecutorService es) {
        return TestSupport.occupy(es::execute, counts(es).cap());
    }

    /** Interrupts whatever still runs and waits (bounded) for the pool to terminate. */
    private static void terminate(ExecutorService es) throws InterruptedException {
        es.shutdownNow();
        assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS), es::toString);
    }

    /** Runs {@code body} on a platform thread, so a test can interrupt it; returns the started thread. */
    private static Thread caller(Executable body, AtomicReference<Throwable> thrown) {
        return Thread.ofPlatform().start(() -> {
            try {
                body.execute();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
    }

    private static void join(Thread t) throws InterruptedException {
        assertTrue(t.join(WAIT), t + " still alive");
    }

    private static Callable<String> failing(String message) {
        return () -> {
            throw new IllegalStateException(message);
        };
    }

    /** A task that waits for {@code gate} and counts down {@code interrupted} if interrupted meanwhile. */
    private static Callable<String> blocker(CountDownLatch started, CountDownLatch gate, CountDownLatch interrupted) {
        return () -> {
            started.countDown();
            try {
                if (!gate.await(WAIT.toMillis(), MILLISECONDS)) {
                    throw new IllegalStateException("test gate never opened");
                }
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return "blocker";
        };
    }

    // ------------------------------------------------------------------------------------------ invokeAll

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void invokeAllRejectsNullArguments(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        try {
            assertThrows(NullPointerException.class, () -> es.invokeAll(null));
            assertThrows(NullPointerException.class, () -> es.invokeAll(null, 1, TimeUnit.SECONDS));
            assertThrows(NullPointerException.class, () -> es.invokeAll(List.of(() -> 1), 1, null));
            List<Callable<String>> withNull = Arrays.asList(() -> "a", null);
            assertThrows(NullPointerException.class, () -> es.invokeAll(withNull));
            assertThrows(NullPointerException.class, () -> es.invokeAll(withNull, 1, TimeUnit.SECONDS));
            assertEquals(List.of(), es.invokeAll(List.<Callable<String>>of()));
            assertEquals(List.of(), es.invokeAll(List.<Callable<String>>of(), 1, TimeUnit.SECONDS));
        } finally {
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void invokeAllReturnsEveryOutcomeInOrder(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        try {
            List<Callable<String>> tasks = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                int id = i;
                tasks.add(id % 3 == 1 ? failing("task " + id) : () -> "task " + id);
            }
            for (boolean timed : new boolean[] {false, true}) {
                List<Future<String>> futures = timed
                        ? es.invokeAll(tasks, WAIT.toMillis(), MILLISECONDS)
                        : es.invokeAll(tasks);
                assertEquals(tasks.size(), futures.size());
                for (int i = 0; i < futures.size(); i++) {
                    Future<String> f = futures.get(i);
                    assertTrue(f.isDone());
                    if (i % 3 == 1) {
                        assertEquals(Future.State.FAILED, f.state());
                        ExecutionException ee = assertThrows(ExecutionException.class, f::get);
                        assertEquals("task " + i, ee.getCause().getMessage());
                    } else {
                        assertEquals("task " + i, f.resultNow());
                    }
                }
            }
        } finally {
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedInvokeAllCancelsWhatIsNotDoneAtTheTimeout(Kind kind) throws Exception {
        ExecutorService es = kind.make(3);
        CountDownLatch gate = new CountDownLatch(1);
        try {
            for (long timeout = TIMEOUT_MS; ; timeout *= 2) {
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch interrupted = new CountDownLatch(1);
                List<Callable<String>> tasks = List.of(() -> "0", blocker(started, gate, interrupted), () -> "2");
                long start = System.nanoTime();
                List<Future<String>> futures = es.invokeAll(tasks, timeout, MILLISECONDS);
                long elapsed = NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue(elapsed >= timeout, "returned after " + elapsed + " ms");
                assertEquals(3, futures.size());
                futures.forEach(f -> assertTrue(f.isDone()));
                assertEquals(Future.State.CANCELLED, futures.get(1).state());
                if (started.getCount() == 0 // else the blocker was cancelled before it ran
                        && futures.get(0).state() == Future.State.SUCCESS
                        && futures.get(2).state() == Future.State.SUCCESS) {
                    await(interrupted); // cancel(true) interrupts the running blocker
                    assertEquals("0", futures.get(0).resultNow());
                    assertEquals("2", futures.get(2).resultNow());
                    break;
                }
                assertTrue(timeout < WAIT.toMillis(), "the tasks never ran in time");
            }
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /** The defect of the inherited form: it calls {@code execute}, which waits for a worker without bound. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedInvokeAllOnAFullPoolReturnsAtTheTimeout(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = fill(es);
        AtomicInteger ran = new AtomicInteger();
        try {
            List<Callable<Integer>> tasks = List.of(ran::incrementAndGet, ran::incrementAndGet);
            long start = System.nanoTime();
            List<Future<Integer>> futures = assertTimeoutPreemptively(BOUND,
                    () -> es.invokeAll(tasks, TIMEOUT_MS, MILLISECONDS));
            assertTrue(NANOSECONDS.toMillis(System.nanoTime() - start) >= TIMEOUT_MS);
            for (Future<Integer> f : futures) {
                assertEquals(Future.State.CANCELLED, f.state());
            }
            gate.countDown();
            es.shutdown();
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertEquals(0, ran.get(), "a task cancelled before it reached a worker never runs");
            assertEquals(1, stats(es).rejected(), "the hand-off that timed out counts as one rejection");
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedInvokeAllWithANonPositiveTimeoutRunsNothing(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        AtomicInteger ran = new AtomicInteger();
        try {
            List<Callable<Integer>> tasks = List.of(ran::incrementAndGet);
            List<Future<Integer>> futures = es.invokeAll(tasks, 0, MILLISECONDS);
            assertEquals(Future.State.CANCELLED, futures.get(0).state());
            assertEquals(0, ran.get());
        } finally {
            terminate(es);
        }
    }

    // ------------------------------------------------------------------------------------------ invokeAny

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void invokeAnyRejectsNullAndEmptyArguments(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        try {
            assertThrows(NullPointerException.class, () -> es.invokeAny(null));
            assertThrows(NullPointerException.class, () -> es.invokeAny(null, 1, TimeUnit.SECONDS));
            assertThrows(NullPointerException.class, () -> es.invokeAny(List.of(() -> 1), 1, null));
            List<Callable<String>> withNull = Arrays.asList(() -> "a", null);
            assertThrows(NullPointerException.class, () -> es.invokeAny(withNull));
            assertThrows(NullPointerException.class, () -> es.invokeAny(withNull, 1, TimeUnit.SECONDS));
            assertThrows(IllegalArgumentException.class, () -> es.invokeAny(List.<Callable<String>>of()));
            assertThrows(IllegalArgumentException.class,
                    () -> es.invokeAny(List.<Callable<String>>of(), 1, TimeUnit.SECONDS));
        } finally {
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void invokeAnyReturnsASuccessAndCancelsTheRest(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        try {
            for (boolean timed : new boolean[] {false, true}) {
                CountDownLatch gate = new CountDownLatch(1);
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch interrupted = new CountDownLatch(1);
                List<Callable<String>> tasks = List.of(blocker(started, gate, interrupted), failing("x"),
                        () -> {
                            await(started); // the blocker runs before the success can end the call
                            return "ok";
                        });
                assertEquals("ok", timed ? es.invokeAny(tasks, WAIT.toMillis(), MILLISECONDS) : es.invokeAny(tasks));
                await(interrupted);
                gate.countDown();
            }
        } finally {
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void invokeAnyThrowsExecutionExceptionWhenEveryTaskFails(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        try {
            List<Callable<String>> tasks = List.of(failing("a"), failing("b"), failing("c"));
            ExecutionException ee = assertThrows(ExecutionException.class, () -> es.invokeAny(tasks));
            assertInstanceOf(IllegalStateException.class, ee.getCause());
            ee = assertThrows(ExecutionException.class, () -> es.invokeAny(tasks, WAIT.toMillis(), MILLISECONDS));
            assertInstanceOf(IllegalStateException.class, ee.getCause());
        } finally {
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedInvokeAnyTimesOutAndCancelsTheRunningTasks(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        try {
            List<Callable<String>> tasks = List.of(blocker(started, gate, interrupted),
                    blocker(started, gate, interrupted));
            long start = System.nanoTime();
            assertThrows(TimeoutException.class, () -> es.invokeAny(tasks, TIMEOUT_MS, MILLISECONDS));
            assertTrue(NANOSECONDS.toMillis(System.nanoTime() - start) >= TIMEOUT_MS);
            // cancel(true) interrupted every task that had begun to run; the others never will
            eventually("every started task is interrupted", () -> interrupted.getCount() == started.getCount());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /**
     * The defect of the inherited form: it calls {@code execute}, which waits for a worker without bound, so
     * {@code invokeAny(tasks, 10, SECONDS)} on a full pool never returned (a JDK fixed pool throws
     * {@code TimeoutException}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedInvokeAnyOnAFullPoolTimesOut(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = fill(es);
        AtomicInteger ran = new AtomicInteger();
        try {
            List<Callable<Integer>> tasks = List.of(ran::incrementAndGet, ran::incrementAndGet);
            long start = System.nanoTime();
            assertTimeoutPreemptively(BOUND, () -> assertThrows(TimeoutException.class,
                    () -> es.invokeAny(tasks, TIMEOUT_MS, MILLISECONDS)));
            assertTrue(NANOSECONDS.toMillis(System.nanoTime() - start) >= TIMEOUT_MS);
            gate.countDown();
            es.shutdown();
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertEquals(0, ran.get(), "a task that never reached a worker never runs");
            assertEquals(1, stats(es).rejected(), "the hand-off that timed out counts as one rejection");
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void timedInvokeAnyOnAFullPoolRunsOnceAWorkerFrees(Kind kind) throws Exception {
        ExecutorService es = kind.make(1);
        CountDownLatch gate = fill(es);
        AtomicReference<Integer> result = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            Thread t = caller(() -> result.set(es.invokeAny(List.of(() -> 42), WAIT.toMillis(), MILLISECONDS)),
                    thrown);
            eventually("invokeAny waits for a worker", () -> counts(es).waiting() == 1);
            gate.countDown();
            join(t);
            assertNull(thrown.get());
            assertEquals(42, result.get());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    // ------------------------------------------------------------------------------------------ blocking hand-off

    /** Where a JDK executor queues the task, ants' blocks the submitter until a worker is free. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void executeOnAFullPoolBlocksTheSubmitterInsteadOfQueueing(Kind kind) throws Exception {
        ExecutorService es = kind.make(1);
        CountDownLatch gate = fill(es);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            Thread t = caller(() -> es.execute(ran::countDown), thrown);
            eventually("the submitter waits", () -> counts(es).waiting() == 1);
            assertTrue(t.isAlive(), "execute has not returned");
            assertEquals(1, ran.getCount());
            gate.countDown();
            join(t);
            await(ran);
            assertNull(thrown.get());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void interruptedBlockedSubmitterIsRejectedAndKeepsItsInterruptStatus(Kind kind) throws Exception {
        ExecutorService es = kind.make(1);
        CountDownLatch gate = fill(es);
        AtomicBoolean ran = new AtomicBoolean();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            Thread t = caller(() -> {
                try {
                    es.submit(() -> ran.set(true));
                } finally {
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                }
            }, thrown);
            eventually("the submitter waits", () -> counts(es).waiting() == 1);
            t.interrupt();
            join(t);
            assertInstanceOf(RejectedExecutionException.class, thrown.get());
            assertInstanceOf(InterruptedException.class, thrown.get().getCause());
            assertTrue(stillInterrupted.get());
            gate.countDown();
            es.shutdown();
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertFalse(ran.get());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /**
     * {@code invokeAll} and {@code invokeAny} wait for a worker like {@code execute}; interrupted there, they
     * throw {@link InterruptedException} as their contract says (the inherited forms let {@code execute}'s
     * {@link RejectedExecutionException} through) and cancel their tasks.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void bulkCallsInterruptedWhileWaitingForAWorkerThrowInterruptedException(Kind kind) throws Exception {
        ExecutorService es = kind.make(1);
        CountDownLatch gate = fill(es);
        AtomicInteger ran = new AtomicInteger();
        List<Callable<Integer>> tasks = List.of(ran::incrementAndGet);
        List<Executable> calls = List.of(
                () -> es.invokeAll(tasks),
                () -> es.invokeAll(tasks, WAIT.toMillis(), MILLISECONDS),
                () -> es.invokeAny(tasks),
                () -> es.invokeAny(tasks, WAIT.toMillis(), MILLISECONDS));
        try {
            for (Executable call : calls) {
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                AtomicBoolean stillInterrupted = new AtomicBoolean(true);
                Thread t = caller(() -> {
                    try {
                        call.execute();
                    } finally {
                        stillInterrupted.set(Thread.currentThread().isInterrupted());
                    }
                }, thrown);
                eventually("the caller waits for a worker", () -> counts(es).waiting() == 1);
                t.interrupt();
                join(t);
                assertInstanceOf(InterruptedException.class, thrown.get());
                assertFalse(stillInterrupted.get(), "InterruptedException clears the interrupt status");
            }
            gate.countDown();
            es.shutdown();
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertEquals(0, ran.get());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void invokeAnyInterruptedWhileTasksRunCancelsThem(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(2);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            List<Callable<String>> tasks = List.of(blocker(started, gate, interrupted),
                    blocker(started, gate, interrupted));
            Thread t = caller(() -> es.invokeAny(tasks), thrown);
            await(started);
            t.interrupt();
            join(t);
            assertInstanceOf(InterruptedException.class, thrown.get());
            await(interrupted);
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /** The timed forms wait for a worker as {@link Pool#tryExecute} does: also in a nonblocking pool. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void nonblockingPoolRejectsExecuteButTimedFormsWaitForAWorker(Kind kind) throws Exception {
        ExecutorService es = kind.make(1, PoolOptions.builder().nonblocking(true));
        CountDownLatch gate = fill(es);
        List<Callable<Integer>> tasks = List.of(() -> 1);
        try {
            assertThrows(PoolOverloadException.class, () -> es.execute(() -> { }));
            assertThrows(PoolOverloadException.class, () -> es.submit(() -> 1));
            assertThrows(PoolOverloadException.class, () -> es.invokeAll(tasks));
            assertThrows(PoolOverloadException.class, () -> es.invokeAny(tasks));
            assertThrows(TimeoutException.class, () -> es.invokeAny(tasks, TIMEOUT_MS, MILLISECONDS));
            List<Future<Integer>> futures = es.invokeAll(tasks, TIMEOUT_MS, MILLISECONDS);
            assertEquals(Future.State.CANCELLED, futures.get(0).state());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /** With {@code maxBlockingTasks} submitters already waiting, every form rejects as {@code execute} does. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void maxBlockingTasksRejectsEveryFormOnceTheLimitWaits(Kind kind) throws Exception {
        ExecutorService es = kind.make(1, PoolOptions.builder().maxBlockingTasks(1));
        CountDownLatch gate = fill(es);
        List<Thread> waiters = new ArrayList<>();
        List<Callable<Integer>> tasks = List.of(() -> 1);
        try {
            for (int i = 0; i < kind.subPools(); i++) { // one waiter per sub-pool: the limit holds per sub-pool
                waiters.add(caller(() -> es.execute(() -> { }), new AtomicReference<>()));
                int n = i + 1;
                eventually(n + " submitter(s) wait", () -> counts(es).waiting() == n);
            }
            assertThrows(PoolOverloadException.class, () -> es.execute(() -> { }));
            assertThrows(PoolOverloadException.class, () -> es.invokeAll(tasks));
            assertThrows(PoolOverloadException.class, () -> es.invokeAny(tasks));
            assertTimeoutPreemptively(BOUND, () -> {
                assertThrows(PoolOverloadException.class, () -> es.invokeAll(tasks, 1, TimeUnit.DAYS));
                assertThrows(PoolOverloadException.class, () -> es.invokeAny(tasks, 1, TimeUnit.DAYS));
            });
            gate.countDown();
            for (Thread t : waiters) {
                join(t);
            }
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    // ------------------------------------------------------------------------------------------ futures

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void submittedFuturesReportTheirState(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        try {
            Future<String> running = es.submit(blocker(started, gate, new CountDownLatch(1)));
            await(started);
            assertEquals(Future.State.RUNNING, running.state());
            assertFalse(running.isDone());
            assertThrows(IllegalStateException.class, running::resultNow);
            assertThrows(IllegalStateException.class, running::exceptionNow);
            assertThrows(TimeoutException.class, () -> running.get(1, MILLISECONDS));
            gate.countDown();
            assertEquals("blocker", running.get(WAIT.toMillis(), MILLISECONDS));
            assertEquals(Future.State.SUCCESS, running.state());
            assertEquals("blocker", running.resultNow());
            assertThrows(IllegalStateException.class, running::exceptionNow);

            Future<String> failed = es.submit(failing("boom"));
            ExecutionException ee = assertThrows(ExecutionException.class,
                    () -> failed.get(WAIT.toMillis(), MILLISECONDS));
            assertEquals("boom", ee.getCause().getMessage());
            assertEquals(Future.State.FAILED, failed.state());
            assertEquals("boom", failed.exceptionNow().getMessage());
            assertThrows(IllegalStateException.class, failed::resultNow);

            assertNull(es.submit(() -> { }).get(WAIT.toMillis(), MILLISECONDS));
            assertEquals("given", es.submit(() -> { }, "given").get(WAIT.toMillis(), MILLISECONDS));
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void cancelTrueInterruptsARunningTaskAndCancelFalseDoesNot(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch notInterrupted = new CountDownLatch(1);
        AtomicBoolean wronglyInterrupted = new AtomicBoolean();
        try {
            Future<String> hard = es.submit(blocker(started, gate, interrupted));
            Future<?> soft = es.submit(() -> {
                started.countDown();
                block(gate);
                wronglyInterrupted.set(Thread.currentThread().isInterrupted());
                notInterrupted.countDown();
            });
            await(started);
            assertTrue(hard.cancel(true));
            await(interrupted);
            assertTrue(soft.cancel(false));
            for (Future<?> f : List.of(hard, soft)) {
                assertEquals(Future.State.CANCELLED, f.state());
                assertTrue(f.isCancelled());
                assertTrue(f.isDone());
                assertThrows(CancellationException.class, f::get);
                assertThrows(IllegalStateException.class, f::exceptionNow);
                assertFalse(f.cancel(true), "a done future cannot be cancelled again");
            }
            gate.countDown();
            await(notInterrupted);
            assertFalse(wronglyInterrupted.get());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    // ------------------------------------------------------------------------------------------ shutdown

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownLetsTasksFinishAndRejectsNewOnes(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        try {
            Future<String> f = es.submit(blocker(started, gate, new CountDownLatch(1)));
            await(started);
            assertFalse(es.isShutdown());
            assertFalse(es.isTerminated());
            assertFalse(es.awaitTermination(1, MILLISECONDS), "an open pool does not terminate");
            es.shutdown();
            assertTrue(es.isShutdown());
            assertFalse(es.isTerminated());
            assertFalse(es.awaitTermination(1, MILLISECONDS));
            assertThrows(PoolClosedException.class, () -> es.execute(() -> { }));
            assertThrows(RejectedExecutionException.class, () -> es.submit(() -> 1));
            assertThrows(RejectedExecutionException.class, () -> es.invokeAll(List.of(() -> 1)));
            assertThrows(RejectedExecutionException.class,
                    () -> es.invokeAll(List.of(() -> 1), WAIT.toMillis(), MILLISECONDS));
            assertThrows(RejectedExecutionException.class, () -> es.invokeAny(List.of(() -> 1)));
            assertThrows(RejectedExecutionException.class,
                    () -> es.invokeAny(List.of(() -> 1), WAIT.toMillis(), MILLISECONDS));
            gate.countDown();
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertTrue(es.isTerminated());
            assertEquals("blocker", f.resultNow());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /** A JDK executor would run a queued task after {@code shutdown}; ants' rejects the blocked submitter. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownRejectsSubmittersBlockedOnAFullPool(Kind kind) throws Exception {
        ExecutorService es = kind.make(1);
        CountDownLatch gate = fill(es);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            Thread t = caller(() -> es.execute(() -> { }), thrown);
            eventually("the submitter waits", () -> counts(es).waiting() == 1);
            es.shutdown();
            join(t);
            assertInstanceOf(PoolClosedException.class, thrown.get());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void shutdownNowInterruptsRunningTasksAndReturnsNoQueuedTask(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        int n = counts(es).cap();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(n);
        CountDownLatch interrupted = new CountDownLatch(n);
        try {
            for (int i = 0; i < n; i++) {
                es.submit(blocker(started, gate, interrupted));
            }
            await(started);
            assertEquals(List.of(), es.shutdownNow(), "tasks are never queued");
            assertTrue(es.isShutdown());
            await(interrupted);
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertTrue(es.isTerminated());
            assertEquals(List.of(), es.shutdownNow());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    // ------------------------------------------------------------------------------------------ close

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void closeWaitsForRunningTasks(Kind kind) throws Exception {
        ExecutorService es = kind.make(2);
        int n = counts(es).cap();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(n);
        AtomicInteger done = new AtomicInteger();
        AtomicBoolean closed = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try {
            for (int i = 0; i < n; i++) {
                es.execute(() -> {
                    started.countDown();
                    block(gate);
                    done.incrementAndGet();
                });
            }
            await(started);
            Thread t = caller(() -> {
                es.close();
                closed.set(true);
            }, thrown);
            eventually("close shuts the pool down", es::isShutdown);
            assertFalse(closed.get(), "close returned while tasks still ran");
            gate.countDown();
            join(t);
            assertNull(thrown.get());
            assertTrue(closed.get());
            assertEquals(n, done.get(), "every task completed before close returned");
            assertTrue(es.isTerminated());
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void closeIsIdempotentAndWorksAfterShutdown(Kind kind) throws Exception {
        for (int variant = 0; variant < 3; variant++) {
            ExecutorService es = kind.make(2);
            AtomicInteger ran = new AtomicInteger();
            es.execute(ran::incrementAndGet);
            switch (variant) {
                case 1 -> es.shutdown();
                case 2 -> es.shutdownNow();
                default -> { }
            }
            assertTimeoutPreemptively(BOUND, () -> {
                es.close();
                es.close();
            });
            assertTrue(es.isShutdown());
            assertTrue(es.isTerminated());
            assertEquals(1, ran.get());
        }
    }

    /** As the JDK's default {@code close}: an interrupt while waiting calls {@code shutdownNow} once. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void interruptedCloseCallsShutdownNowAndKeepsTheInterruptStatus(Kind kind) throws Exception {
        for (boolean interruptFirst : new boolean[] {false, true}) {
            ExecutorService es = kind.make(2);
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            try {
                es.submit(blocker(started, gate, interrupted));
                await(started);
                Thread t = caller(() -> {
                    if (interruptFirst) {
                        Thread.currentThread().interrupt();
                    }
                    es.close();
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                }, thrown);
                if (!interruptFirst) {
                    eventually("close shuts the pool down", es::isShutdown);
                    t.interrupt();
                }
                join(t);
                assertNull(thrown.get());
                await(interrupted);
                assertTrue(stillInterrupted.get(), "close keeps the interrupt status");
                assertTrue(es.isTerminated());
            } finally {
                gate.countDown();
                terminate(es);
            }
        }
    }

    /**
     * A task that closes its own pool cannot wait for itself: close shuts the pool down, waits for every other
     * task (on a multi-pool: in its own sub-pool and in the others), and returns; the pool terminates when the
     * closing task returns. The inherited close waited for the closing task itself, forever.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void closeFromInsideATaskWaitsForEveryOtherTaskThenReturns(Kind kind) throws Exception {
        ExecutorService es = kind.make(3);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        AtomicInteger othersDone = new AtomicInteger();
        try {
            for (int i = 0; i < 2; i++) { // on a round-robin multi-pool: one in each sub-pool
                es.execute(() -> {
                    started.countDown();
                    block(gate);
                    othersDone.incrementAndGet();
                });
            }
            await(started);
            Future<Integer> closer = es.submit(() -> {
                es.close();
                return othersDone.get();
            });
            eventually("close shuts the pool down", es::isShutdown);
            assertFalse(closer.isDone(), "close returned while other tasks still ran");
            gate.countDown();
            assertEquals(2, closer.get(WAIT.toMillis(), MILLISECONDS), "close returned before the other tasks ended");
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
            assertTrue(es.isTerminated());
            assertTimeoutPreemptively(BOUND, es::close);
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    /**
     * Two tasks that close their own pool at the same time do not wait for each other (each would wait for the
     * other to end, for ever): each waits for every task that is not itself closing the pool, then returns. On a
     * round-robin multi-pool the two closers run in different sub-pools.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void twoTasksClosingTheirOwnPoolWaitForTheOthersButNotForEachOther(Kind kind) throws Exception {
        ExecutorService es = kind.make(3);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch closersRunning = new CountDownLatch(2);
        AtomicInteger othersDone = new AtomicInteger();
        try {
            es.execute(() -> {
                started.countDown();
                block(gate);
                othersDone.incrementAndGet();
            });
            await(started);
            List<Future<Integer>> closers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                closers.add(es.submit(() -> {
                    closersRunning.countDown();
                    await(closersRunning);
                    es.close();
                    return othersDone.get();
                }));
            }
            eventually("close shuts the pool down", es::isShutdown);
            for (Future<Integer> closer : closers) {
                assertFalse(closer.isDone(), "close returned while another task still ran");
            }
            gate.countDown();
            for (Future<Integer> closer : closers) {
                assertEquals(1, closer.get(BOUND.toMillis(), MILLISECONDS),
                        "close returned before the other task ended");
            }
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
        } finally {
            gate.countDown();
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void closeFromInsideTheOnlyTaskReturnsAtOnce(Kind kind) throws Exception {
        ExecutorService es = kind.make(1);
        try {
            Future<Boolean> closer = es.submit(() -> {
                es.close();
                return es.isShutdown();
            });
            assertTrue(closer.get(WAIT.toMillis(), MILLISECONDS));
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
        } finally {
            terminate(es);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void interruptedCloseFromInsideATaskInterruptsTheOthersAndKeepsTheInterruptStatus(Kind kind)
            throws Exception {
        ExecutorService es = kind.make(2);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        try {
            es.submit(blocker(started, gate, interrupted));
            await(started);
            Future<?> closer = es.submit(() -> {
                es.close();
                stillInterrupted.set(Thread.currentThread().isInterrupted());
                closed.countDown();
            });
            eventually("close shuts the pool down", es::isShutdown);
            closer.cancel(true); // interrupts the closing task
            await(interrupted);
            await(closed);
            assertTrue(stillInterrupted.get());
            assertTrue(es.awaitTermination(WAIT.toMillis(), MILLISECONDS));
        } finally {
            gate.countDown();
            terminate(es);
        }
    }
}
