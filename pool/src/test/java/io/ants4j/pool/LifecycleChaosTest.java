package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Kind;
import io.ants4j.pool.PoolKinds.Tested;
import io.ants4j.pool.PoolKinds.Threads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Submitters ({@code execute}/{@code invoke} and their timed forms) racing one thread that releases, reboots,
 * tunes and (for the {@code ExecutorService}s) {@code shutdownNow}s the pool in a random order, for a while;
 * then a last release. Checked: every submission that returned normally ran exactly once and every rejected one
 * never ran; a task never starts interrupted unless a {@code shutdownNow} began after its submission began or
 * the pool was stopping when it began ("no interrupt of an earlier shutdownNow() reaches a task of the reopened
 * pool"); the pool terminates, with its counts back to 0; and the statistics count exactly what the submitters
 * saw (submitted, rejected, completed).
 */
class LifecycleChaosTest {
    private static final int SUBMITTERS = 3;
    private static final int MAX_TASKS = 400_000;
    /**
     * Half the former 1 s: the mutant this test was seen to fail on (a reboot that keeps the stop mark) still fails
     * every Pool run of the interrupt-checking cases at 500 ms, with 33,827 to 227,040 leaked interrupts each.
     */
    private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    @ParameterizedTest(name = "{0} on {1} workers")
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void lifecycleRacingSubmittersKeepsEveryContract(Kind kind, Threads threads) throws Exception {
        run(kind, threads, false);
    }

    /**
     * The same with a task now and then calling {@code close()} on its own pool (which releases it, and waits
     * for the other tasks); the interrupt check is off, since a closing task interrupted by a {@code shutdownNow}
     * calls {@code shutdownNow} itself ({@code close()}'s contract) at a moment the test does not control.
     */
    @ParameterizedTest(name = "{0} on {1} workers")
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void lifecycleRacingSubmittersAndClosingTasksKeepsEveryContract(Kind kind, Threads threads) throws Exception {
        run(kind, threads, true);
    }

    /**
     * The same with a thread factory that fails one call in 20 (throws, returns null, or throws an {@code Error})
     * and a pool that lets one submitter wait at most: the failed and refused submissions are rejected, their
     * tasks never run, and the counts come back all the same.
     */
    @ParameterizedTest(name = "{0} on {1} workers")
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void lifecycleRacingSubmittersWithAFailingFactoryKeepsEveryContract(Kind kind, Threads threads)
            throws Exception {
        ThreadFactory delegate = threads.factory((t, e) -> { });
        ThreadFactory faulty = r -> switch (ThreadLocalRandom.current().nextInt(60)) {
            case 0 -> throw new IllegalStateException("injected factory failure");
            case 1 -> null;
            case 2 -> throw new InjectedError();
            default -> delegate.newThread(r);
        };
        run(kind, PoolOptions.builder().threadFactory(faulty).maxBlockingTasks(1)
                .expiryDuration(Duration.ofMillis(5)).build(), false);
    }

    /** An {@code Error} a factory throws, as the JDK's "unable to create native thread". */
    private static final class InjectedError extends Error {
        InjectedError() {
            super("injected: unable to create a thread", null, false, false);
        }
    }

    private static void run(Kind kind, Threads threads, boolean closeFromTasks) throws Exception {
        run(kind, PoolOptions.builder().threadFactory(threads.factory((t, e) -> { }))
                .expiryDuration(Duration.ofMillis(5)).build(), closeFromTasks);
    }

    private static void run(Kind kind, PoolOptions options, boolean closeFromTasks) throws Exception {
        Tested tested = kind.make(2, options);
        WorkerPool pool = tested.pool();
        AtomicIntegerArray runs = new AtomicIntegerArray(MAX_TASKS);
        AtomicIntegerArray outcome = new AtomicIntegerArray(MAX_TASKS); // 1 accepted, 2 rejected
        AtomicInteger ids = new AtomicInteger();
        AtomicLong shutdowns = new AtomicLong();
        AtomicInteger stopping = new AtomicInteger(); // 1 from before a shutdownNow until its reboot returned
        ConcurrentLinkedQueue<String> leaks = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        long end = System.nanoTime() + RUN_NANOS;

        Thread[] submitters = new Thread[SUBMITTERS];
        for (int s = 0; s < SUBMITTERS; s++) {
            submitters[s] = Thread.ofPlatform().daemon(true).start(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (System.nanoTime() - end < 0) {
                    int id = ids.getAndIncrement();
                    if (id >= MAX_TASKS) {
                        return;
                    }
                    long n0 = shutdowns.get();
                    boolean stop0 = stopping.get() != 0;
                    boolean slow = rnd.nextInt(4) == 0;
                    boolean close = closeFromTasks && rnd.nextInt(500) == 0;
                    Runnable task = () -> {
                        boolean interrupted = Thread.currentThread().isInterrupted();
                        long n1 = shutdowns.get();
                        runs.incrementAndGet(id);
                        if (interrupted && !stop0 && n1 == n0 && !closeFromTasks) {
                            leaks.add("task " + id + " started interrupted; no shutdownNow began since its"
                                    + " submission began (" + n0 + "), and none was under way then");
                        }
                        if (slow) {
                            LockSupport.parkNanos(20_000);
                        }
                        if (close) {
                            pool.close();
                        }
                    };
                    try {
                        boolean ok = false;
                        switch (rnd.nextInt(3)) {
                            case 0 -> ok = tested.trySubmit().test(task, Duration.ZERO);
                            case 1 -> ok = tested.trySubmit().test(task, Duration.ofMillis(1));
                            default -> {
                                tested.submit().accept(task);
                                ok = true;
                            }
                        }
                        outcome.set(id, ok ? 1 : 2);
                    } catch (RejectedExecutionException | InjectedError e) {
                        outcome.set(id, 2);
                    } catch (Throwable t) {
                        outcome.set(id, 2);
                        unexpected.add(t);
                    }
                }
            });
        }

        ExecutorService executor = pool instanceof ExecutorService es ? es : null;
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        int ops = 0;
        while (System.nanoTime() - end < 0) {
            switch (rnd.nextInt(executor == null ? 3 : 4)) {
                case 0 -> pool.release();
                case 1 -> pool.tune(2 + rnd.nextInt(3) * (kind.multi() ? 2 : 1));
                case 3 -> {
                    stopping.set(1);
                    shutdowns.incrementAndGet();
                    executor.shutdownNow();
                }
                default -> { }
            }
            LockSupport.parkNanos(rnd.nextInt(200_000));
            pool.reboot();
            stopping.set(0);
            LockSupport.parkNanos(rnd.nextInt(500_000));
            ops++;
        }
        for (Thread t : submitters) {
            t.join(TimeUnit.SECONDS.toMillis(20));
            assertTrue(!t.isAlive(), "a submitter is stuck: " + pool + "\n" + stack(t));
        }
        pool.release();
        boolean terminated = pool.awaitTermination(10, TimeUnit.SECONDS);
        int n = Math.min(ids.get(), MAX_TASKS);
        int accepted = 0;
        int rejected = 0;
        long ranTotal = 0;
        StringBuilder wrong = new StringBuilder();
        int wrongCount = 0;
        for (int i = 0; i < n; i++) {
            int o = outcome.get(i);
            int r = runs.get(i);
            ranTotal += r;
            if (o == 1) {
                accepted++;
            } else if (o == 2) {
                rejected++;
            }
            if ((o == 1 && r != 1) || (o != 1 && r != 0)) {
                if (wrongCount++ < 10) {
                    wrong.append(" task ").append(i).append(o == 1 ? " accepted" : o == 2 ? " rejected" : " unknown")
                            .append(" ran ").append(r).append(" time(s);");
                }
            }
        }
        PoolStats stats = pool.stats();
        int acceptedCount = accepted;
        int rejectedCount = rejected;
        long ran = ranTotal;
        int wrongs = wrongCount;
        int opsDone = ops;
        List<String> leaked = List.copyOf(leaks);
        assertAll("after " + opsDone + " life-cycle rounds and " + n + " submissions: " + pool,
                () -> assertTrue(unexpected.isEmpty(), "unexpected throwables: " + unexpected),
                () -> assertEquals(0, wrongs, wrongs + " task(s) ran a wrong number of times:" + wrong),
                () -> assertTrue(leaked.isEmpty(), leaked.size() + " interrupt(s) leaked into a later life: "
                        + leaked.subList(0, Math.min(5, leaked.size()))),
                () -> assertTrue(terminated, "terminated after the last release"),
                () -> assertEquals(0, pool.running(), "running() after termination"),
                () -> assertEquals(0, pool.idle(), "idle() after termination"),
                () -> assertEquals(0, pool.waiting(), "waiting() after termination"),
                () -> assertEquals(acceptedCount, stats.submitted(), "stats().submitted()"),
                () -> assertEquals(rejectedCount, stats.rejected(), "stats().rejected()"),
                () -> assertEquals(ran, stats.completed(), "stats().completed()"));
    }

    private static String stack(Thread t) {
        StringBuilder b = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            b.append("  at ").append(e).append('\n');
        }
        return b.toString();
    }
}
