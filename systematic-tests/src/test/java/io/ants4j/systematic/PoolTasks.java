package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * The tasks of the pool's Fray tests, and what they saw: each named task records when it starts (the order),
 * counts how often it ran (exactly once is the claim), and checks, while it runs, that no more tasks run at
 * once than the pool's capacity allows. A task yields once while it counts itself running, a scheduling point
 * at which Fray may start another one beside it.
 */
final class PoolTasks {
    /** The pools' worker threads: platform ones (Fray hangs on virtual threads), daemons, named {@code w<k>}. */
    static final ThreadFactory PLATFORM_WORKERS = Thread.ofPlatform().daemon(true).name("w", 1).factory();

    /**
     * Options of a pool under Fray: platform workers and no purger or ticker thread (the tests that explore
     * expiry drive the purger themselves on a hand-moved clock, {@code io.ants4j.pool.FrayPoolCore}).
     */
    static PoolOptions options() {
        return PoolOptions.builder().threadFactory(PLATFORM_WORKERS).disablePurge(true).build();
    }

    private final IntSupplier capacity;
    private final Runnable check;
    private final AtomicInteger active = new AtomicInteger();
    private final ConcurrentLinkedQueue<String> started = new ConcurrentLinkedQueue<>();
    /** A permit for each task started, for {@link #awaitStarted}, which counts those it took in {@link #awaited}. */
    private final Semaphore starts = new Semaphore(0);
    private int awaited;
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    /** Tasks of a pool whose capacity is {@code capacity} (read as each task starts: a tune may change it). */
    PoolTasks(IntSupplier capacity) {
        this(capacity, () -> { });
    }

    /** Tasks that also run {@code check} (an assertion about the pool's counts) as each starts. */
    PoolTasks(IntSupplier capacity, Runnable check) {
        this.capacity = capacity;
        this.check = check;
    }

    /** A task named {@code name} that returns at once. */
    Runnable quick(String name) {
        return () -> run(name, null);
    }

    /** A task named {@code name} that returns once {@code until} opens (within the bound of every wait). */
    Runnable holding(String name, CountDownLatch until) {
        return () -> run(name, until);
    }

    private void run(String name, CountDownLatch until) {
        int now = active.incrementAndGet();
        try {
            int cap = capacity.getAsInt();
            if (now > cap) {
                failed(name + " runs with " + (now - 1) + " others: above the capacity " + cap);
            }
            try {
                check.run();
            } catch (AssertionError e) {
                failed(name + ": " + e.getMessage());
            }
            runs.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet(); // counted before it shows as started
            started.add(name);
            starts.release();
            if (until == null) {
                Thread.yield();
            } else if (!until.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                failed(name + " never released");
            }
        } catch (InterruptedException e) {
            failed(name + " interrupted");
        } finally {
            active.decrementAndGet();
        }
    }

    /**
     * Records a task's failure and throws it: a throwable of a task goes to the pool's failure handling, not to the
     * test, so {@link #assertEachRanOnce} reports what was recorded.
     */
    private void failed(String failure) {
        failures.add(failure);
        throw new AssertionError(failure);
    }

    /** The tasks running now. */
    int active() {
        return active.get();
    }

    /** The names of the tasks started so far, in the order they started. */
    List<String> started() {
        return List.copyOf(started);
    }

    /** Waits until {@code n} tasks have started, polling (each poll yields). */
    void untilStarted(int n) {
        FrayThreads.until(n + " tasks started", () -> started.size() >= n);
    }

    /**
     * Waits until {@code n} tasks have started, blocked (bounded): for a scheduler that runs a pending yield before
     * any other step (POS), under which a polling wait may keep the tasks it waits for from running. Called by one
     * thread, with {@code n} never less than before.
     */
    void awaitStarted(int n) throws InterruptedException {
        assertTrue(starts.tryAcquire(n - awaited, FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                () -> n + " tasks never started: " + started);
        awaited = n;
    }

    /**
     * Checks that exactly the tasks {@code names} ran, each once: none lost, none run twice, no other; and that
     * none failed (above the capacity, its check, interrupted, or never released). Called once the pool has
     * terminated, so that no task can still start.
     */
    void assertEachRanOnce(String... names) {
        Map<String, Integer> expected = new java.util.TreeMap<>();
        for (String n : names) {
            expected.put(n, 1);
        }
        Map<String, Integer> actual = new java.util.TreeMap<>();
        runs.forEach((k, v) -> actual.put(k, v.get()));
        assertEquals(expected, actual, "how often each task ran");
        assertTrue(failures.isEmpty(), () -> "tasks failed: " + failures);
    }
}
