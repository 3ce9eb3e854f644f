package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Kind;
import io.ants4j.pool.PoolKinds.Tested;
import io.ants4j.pool.PoolKinds.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Failure paths of all four pools on virtual and platform workers: thread factories that throw, return
 * {@code null} or run out of memory; panic handlers and loggers that throw; tasks that throw {@code Error}s,
 * overflow the stack or interrupt themselves; {@code shutdownNow} while a worker is being made; and
 * {@code tune}, {@code release} and {@code shutdownNow} arriving in the middle of that. After each: every task
 * ran exactly once or its submitter got an exception, each failure was reported exactly once, the pool lock is
 * free, the fast lane is empty again, {@code running()} returns to 0 and no thread of the pool is alive.
 */
class FailurePathTest {

    /** The kinds that are {@code ExecutorService}s (they have {@code shutdownNow}). */
    static Stream<Arguments> executorKindsAndThreads() {
        return PoolKinds.kindsAndThreads().filter(a -> a.get()[0] == Kind.POOL || a.get()[0] == Kind.MULTI_POOL);
    }

    /** Records the throwables that reach a thread's uncaught-exception handler. */
    static final class Uncaught implements Thread.UncaughtExceptionHandler {
        final List<Throwable> seen = new CopyOnWriteArrayList<>();

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            seen.add(e);
        }
    }

    /**
     * A factory that fails on chosen calls: throws, returns null, throws OutOfMemoryError, or overflows its
     * stack for real.
     */
    static final class FaultyFactory implements ThreadFactory {
        private final ThreadFactory delegate;
        private final Map<Integer, String> faults;
        private final AtomicInteger calls = new AtomicInteger();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        FaultyFactory(ThreadFactory delegate, Map<Integer, String> faults) {
            this.delegate = delegate;
            this.faults = faults;
        }

        @Override
        public Thread newThread(Runnable r) {
            String fault = faults.get(calls.incrementAndGet());
            if ("throw".equals(fault)) {
                throw new IllegalStateException("factory fault");
            }
            if ("null".equals(fault)) {
                return null;
            }
            if ("oom".equals(fault)) {
                throw new OutOfMemoryError("injected: unable to create a thread");
            }
            if ("overflow".equals(fault)) {
                recurse(0);
            }
            Thread t = delegate.newThread(r);
            threads.add(t);
            return t;
        }
    }

    /** Releases the pool, waits for it, and checks that nothing of it is left. */
    private static void assertWindsDownCleanly(Tested t, List<Thread> threads) throws Exception {
        WorkerPool pool = t.pool();
        Probe.assertLockFreeAndNobodyWaits(pool);
        eventually("fast lane empty and every lane token back", () -> Probe.lanesIdle(pool), () -> Probe.describe(pool));
        pool.releaseTimeout(TestSupport.WAIT);
        assertEquals(0, pool.running(), Probe.describe(pool));
        assertFalse(Probe.lockHeld(pool));
        for (Thread th : threads) {
            assertFalse(th.isAlive(), th + " is still alive after releaseTimeout");
        }
    }

    // ---------------------------------------------------------------- thread factory faults

    @ParameterizedTest
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void failingThreadFactoryRejectsOnlyItsOwnSubmission(Kind kind, Threads threads) throws Exception {
        Uncaught uncaught = new Uncaught();
        FaultyFactory factory = new FaultyFactory(threads.factory(uncaught),
                Map.of(2, "throw", 3, "null", 4, "oom", 6, "overflow"));
        final int cap = 8;
        Tested t = kind.make(cap, PoolOptions.builder().threadFactory(factory).disablePurge(true).build());
        CountDownLatch gate = new CountDownLatch(1);
        AtomicIntegerArray runs = new AtomicIntegerArray(cap);
        int rejected = 0;
        for (int i = 0; i < cap; i++) {
            int id = i;
            try {
                t.submit().accept(() -> {
                    runs.incrementAndGet(id);
                    TestSupport.block(gate);
                });
            } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                rejected++;
                runs.addAndGet(id, 100); // must never run as well
            }
        }
        assertEquals(4, rejected, "the four faulty factory calls reject their submissions");
        assertEquals(4, t.pool().stats().rejected(), "each counted, the Errors (OutOfMemoryError, "
                + "StackOverflowError) as well as the RejectedExecutionExceptions");
        assertTrue(t.pool().running() <= cap - rejected, Probe.describe(t.pool()));
        gate.countDown();
        eventually("every accepted task ran once", () -> {
            for (int i = 0; i < cap; i++) {
                if (runs.get(i) == 0) {
                    return false;
                }
            }
            return true;
        });
        for (int i = 0; i < cap; i++) {
            assertTrue(runs.get(i) == 1 || runs.get(i) == 100, "task " + i + ": " + runs.get(i));
        }
        // the first round's workers end their tasks: each back on its sub-pool's idle queue, none in the lane
        // (one still there could take a task of another sub-pool and leave that one's submitter a worker short)
        eventually("every worker idle", () -> Probe.idle(t.pool()) == t.pool().running() && Probe.lanesIdle(t.pool()),
                () -> Probe.describe(t.pool()));
        // the lost slots are back: a full pool's worth of tasks runs at once, none waiting for a slot (a task
        // that waits for one would wait until another's block below gives up)
        CountDownLatch all = new CountDownLatch(cap);
        CountDownLatch gate2 = new CountDownLatch(1);
        for (int i = 0; i < cap; i++) {
            assertTrue(t.trySubmit().test(() -> {
                all.countDown();
                TestSupport.block(gate2);
            }, Duration.ZERO), "task " + i + " of a full pool's worth found no free worker: "
                    + Probe.describe(t.pool()));
        }
        await(all);
        gate2.countDown();
        assertWindsDownCleanly(t, factory.threads);
        assertEquals(List.of(), uncaught.seen);
    }

    // ---------------------------------------------------------------- throwing tasks, handlers, loggers

    /** How a test's failure reporting misbehaves. */
    enum Reporting {
        /** A handler that rethrows the task's own throwable ("rethrow Errors"). */
        RETHROWING_HANDLER,
        /** A handler that throws a throwable of its own. */
        THROWING_HANDLER,
        /** No handler, and the logger throws. */
        THROWING_LOGGER,
        /** Both the handler and the logger throw. */
        THROWING_HANDLER_AND_LOGGER
    }

    static Stream<Arguments> kindsThreadsAndReporting() {
        List<Arguments> args = new ArrayList<>();
        for (Kind k : Kind.values()) {
            for (Threads t : Threads.values()) {
                for (Reporting r : Reporting.values()) {
                    args.add(Arguments.of(k, t, r));
                }
            }
        }
        return args.stream();
    }

    static final class TaskError extends Error {
        TaskError(String message) {
            super(message);
        }
    }

    private static int recurse(int n) {
        return n == Integer.MIN_VALUE ? 0 : 1 + recurse(n + 1);
    }

    @ParameterizedTest
    @MethodSource("kindsThreadsAndReporting")
    void throwingTasksHandlersAndLoggersLoseNothing(Kind kind, Threads threads, Reporting reporting)
            throws Exception {
        Uncaught uncaught = new Uncaught();
        FaultyFactory factory = new FaultyFactory(threads.factory(uncaught), Map.of());
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        PoolOptions.Builder b = PoolOptions.builder().threadFactory(factory).disablePurge(true);
        RecordingLogger logger = new RecordingLogger(
                reporting == Reporting.THROWING_LOGGER || reporting == Reporting.THROWING_HANDLER_AND_LOGGER);
        b.logger(logger);
        if (reporting != Reporting.THROWING_LOGGER) {
            b.panicHandler(e -> {
                handled.add(e);
                if (reporting == Reporting.RETHROWING_HANDLER) {
                    if (e instanceof Error err) {
                        throw err;
                    }
                    throw (RuntimeException) e;
                }
                throw new IllegalArgumentException("handler fault");
            });
        }
        final int cap = 2;
        Tested t = kind.make(cap, b.build());
        final int n = 200;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicInteger sawInterrupt = new AtomicInteger();
        CountDownLatch finished = new CountDownLatch(n);
        int failing = 0;
        for (int i = 0; i < n; i++) {
            int id = i;
            int mode = i % 5;
            if (mode == 1 || mode == 2 || mode == 3) {
                failing++;
            }
            t.submit().accept(() -> {
                runs.incrementAndGet(id);
                if (Thread.currentThread().isInterrupted()) {
                    sawInterrupt.incrementAndGet();
                }
                finished.countDown();
                switch (mode) {
                    case 1 -> throw new IllegalStateException("task " + id);
                    case 2 -> throw new TaskError("task " + id);
                    case 3 -> recurse(0); // a real StackOverflowError
                    case 4 -> Thread.currentThread().interrupt();
                    default -> { }
                }
            });
        }
        await(finished);
        final int failures = failing;
        eventually("every failure reported", () -> (reporting == Reporting.THROWING_LOGGER
                ? logger.thrown.size() : handled.size()) >= failures
                && (reporting == Reporting.RETHROWING_HANDLER || reporting == Reporting.THROWING_HANDLER
                        ? logger.thrown.size() : uncaught.seen.size()) >= failures,
                () -> Probe.describe(t.pool()) + " handled=" + handled.size() + " logged=" + logger.thrown.size()
                        + " uncaught=" + uncaught.seen.size());
        eventually("stats count every task", () -> {
            PoolStats s = t.pool().stats();
            return s.completed() + s.failed() == n;
        }, () -> t.pool().stats().toString());
        for (int i = 0; i < n; i++) {
            assertEquals(1, runs.get(i), "task " + i + " runs");
        }
        assertEquals(0, sawInterrupt.get(), "an interrupt a task set on itself reached a later task");
        assertEquals(failures, t.pool().stats().failed());
        assertTrue(factory.threads.size() <= cap, factory.threads.size() + " worker threads for capacity " + cap
                + ": workers died");
        switch (reporting) {
            case RETHROWING_HANDLER -> {
                assertEquals(failures, handled.size());
                assertEquals(failures, logger.thrown.size(), "the handler's throw is logged once");
                assertEquals(identities(handled), identities(logger.thrown));
                assertEquals(List.of(), uncaught.seen);
            }
            case THROWING_HANDLER -> {
                assertEquals(failures, handled.size());
                assertEquals(failures, logger.thrown.size());
                List<Throwable> suppressed = new ArrayList<>();
                for (Throwable logged : logger.thrown) {
                    assertInstanceOf(TaskFailures.HandlerFailure.class, logged);
                    assertEquals("handler fault", logged.getCause().getMessage());
                    assertEquals(0, logged.getCause().getSuppressed().length, "the handler's throwable was changed");
                    suppressed.add(logged.getSuppressed()[0]);
                }
                assertEquals(identities(handled), identities(suppressed));
                assertEquals(List.of(), uncaught.seen);
            }
            case THROWING_LOGGER -> {
                assertEquals(failures, logger.thrown.size());
                assertEquals(failures, uncaught.seen.size(), "a failure the logger cannot take goes to the "
                        + "uncaught-exception handler once");
            }
            case THROWING_HANDLER_AND_LOGGER -> {
                assertEquals(failures, handled.size());
                assertEquals(failures, logger.thrown.size());
                assertEquals(failures, uncaught.seen.size());
            }
        }
        assertWindsDownCleanly(t, factory.threads);
    }

    /** The throwables of {@code list} by identity, each once. */
    private static java.util.Set<Throwable> identities(List<Throwable> list) {
        java.util.Set<Throwable> set = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        set.addAll(list);
        assertEquals(list.size(), set.size(), "a throwable was reported twice");
        return set;
    }

    /**
     * shutdownNow while a task's worker is still being made: the task runs after shutdownNow returned, so it
     * must start interrupted.
     */
    @ParameterizedTest
    @MethodSource("executorKindsAndThreads")
    void shutdownNowInterruptsATaskWhoseWorkerIsStillStarting(Kind kind, Threads threads) throws Exception {
        CountDownLatch inFactory = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        ThreadFactory base = threads.factory(new Uncaught());
        ThreadFactory slow = r -> {
            inFactory.countDown();
            TestSupport.block(proceed);
            return base.newThread(r);
        };
        Tested t = kind.make(2, PoolOptions.builder().threadFactory(slow).disablePurge(true).build());
        java.util.concurrent.CompletableFuture<Boolean> interrupted = new java.util.concurrent.CompletableFuture<>();
        Thread submitter = Thread.ofPlatform().start(() -> t.submit().accept(
                () -> interrupted.complete(Thread.currentThread().isInterrupted())));
        await(inFactory);
        ((java.util.concurrent.ExecutorService) t.pool()).shutdownNow();
        proceed.countDown();
        assertTrue(interrupted.get(TestSupport.WAIT.toMillis(), TimeUnit.MILLISECONDS),
                "the task started after shutdownNow without its interrupt");
        submitter.join(TestSupport.WAIT.toMillis());
        t.pool().releaseTimeout(TestSupport.WAIT);
    }

    // ---------------------------------------------------------------- life cycle in the middle of failures

    @ParameterizedTest
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void tuneReleaseAndShutdownNowAmidFailures(Kind kind, Threads threads) throws Exception {
        Uncaught uncaught = new Uncaught();
        FaultyFactory factory = new FaultyFactory(threads.factory(uncaught), Map.of(3, "throw", 7, "oom",
                11, "null"));
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        Tested t = kind.make(4, PoolOptions.builder().threadFactory(factory).disablePurge(true)
                .panicHandler(e -> {
                    handled.add(e);
                    throw (RuntimeException) e;
                }).logger(new RecordingLogger()).build());
        final int n = 2_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        int[] accepted = {0};
        Map<Integer, Boolean> rejected = new ConcurrentHashMap<>();
        CountDownLatch halfway = new CountDownLatch(1);
        Thread submitter = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < n; i++) {
                if (i == n / 2) {
                    halfway.countDown();
                }
                int id = i;
                try {
                    t.submit().accept(() -> {
                        runs.incrementAndGet(id);
                        if (id % 3 == 0) {
                            throw new IllegalStateException("task " + id);
                        }
                    });
                    accepted[0]++;
                } catch (RuntimeException | OutOfMemoryError e) {
                    rejected.put(id, Boolean.TRUE);
                }
            }
        });
        await(halfway);
        t.pool().tune(1);
        t.pool().tune(6);
        t.pool().tune(2);
        if (kind.ordinal() % 2 == 0) {
            t.pool().release();
        } else if (t.pool() instanceof java.util.concurrent.ExecutorService es) {
            es.shutdownNow();
        } else {
            t.pool().release();
        }
        submitter.join(TestSupport.WAIT.toMillis());
        assertFalse(submitter.isAlive(), "the submitter hangs: " + Probe.describe(t.pool()));
        t.pool().releaseTimeout(TestSupport.WAIT);
        int ranOnce = 0;
        for (int i = 0; i < n; i++) {
            int r = runs.get(i);
            if (rejected.containsKey(i)) {
                assertEquals(0, r, "rejected task " + i + " ran");
            } else {
                assertEquals(1, r, "accepted task " + i + " ran " + r + " times");
                ranOnce++;
            }
        }
        assertEquals(accepted[0], ranOnce);
        assertEquals(0, t.pool().running());
        assertFalse(Probe.lockHeld(t.pool()));
        eventually("fast lane empty", () -> Probe.lanesIdle(t.pool()), () -> Probe.describe(t.pool()));
        for (Thread th : factory.threads) {
            assertFalse(th.isAlive(), th + " is still alive");
        }
        assertEquals(List.of(), uncaught.seen);
    }
}
