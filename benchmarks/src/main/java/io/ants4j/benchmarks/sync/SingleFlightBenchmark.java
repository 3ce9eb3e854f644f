package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.SingleFlight;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * {@link SingleFlight} against the way JVM engineers hand-roll it, a {@code ConcurrentHashMap} of
 * {@code CompletableFuture}s filled with {@code computeIfAbsent}. Methods are
 * {@code scenario_implementation}.
 *
 * <ul>
 *   <li>{@code contended}: 8 threads call for one key, whose call spins for 1 µs; the time is per caller's
 *       call (most of them join a call another caller runs). Two hand-rolled peers: {@code chmFutures}
 *       removes the key after completing the future, so a caller that finds the completed future takes its
 *       value without a new call (stale by Go's rules, and cheap); {@code chmFuturesRemovedFirst} removes
 *       the key first, as {@code SingleFlight} does, so every caller after completion starts a new call.</li>
 *   <li>{@code uncontended}: 1 thread, a key of its own, a call that returns at once: the cost of
 *       registering and removing the key, against a plain {@code ConcurrentHashMap} {@code put} and
 *       {@code remove} ({@code chmPutRemove}, the floor; the target is within 10% of it).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SingleFlightBenchmark {

    private static final Integer VALUE = 42;
    private static final Callable<Integer> ONE_MICROSECOND = () -> {
        long end = System.nanoTime() + 1_000;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
        return VALUE;
    };
    private static final Callable<Integer> AT_ONCE = () -> VALUE;
    private static final AtomicInteger THREAD_KEYS = new AtomicInteger();

    private final SingleFlight<String, Integer> flight = new SingleFlight<>();
    private final ConcurrentHashMap<String, CompletableFuture<Integer>> futures = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Integer> map = new ConcurrentHashMap<>();

    /** A key of each benchmark thread's own. */
    @State(Scope.Thread)
    public static class ThreadKey {
        final String key = "key-" + THREAD_KEYS.incrementAndGet();
    }

    @Benchmark
    @Threads(8)
    public Integer contended_singleFlight() throws ExecutionException, InterruptedException {
        return flight.run("key", ONE_MICROSECOND).value();
    }

    @Benchmark
    @Threads(8)
    public Integer contended_chmFutures() throws Exception {
        return handRolled("key", ONE_MICROSECOND);
    }

    @Benchmark
    @Threads(8)
    public Integer contended_chmFuturesRemovedFirst() throws Exception {
        return handRolledRemovedFirst("key", ONE_MICROSECOND);
    }

    @Benchmark
    @Threads(1)
    public Integer uncontended_singleFlight(ThreadKey thread) throws ExecutionException, InterruptedException {
        return flight.run(thread.key, AT_ONCE).value();
    }

    @Benchmark
    @Threads(1)
    public Integer uncontended_chmFutures(ThreadKey thread) throws Exception {
        return handRolled(thread.key, AT_ONCE);
    }

    @Benchmark
    @Threads(1)
    public Integer uncontended_chmPutRemove(ThreadKey thread) throws Exception {
        map.put(thread.key, AT_ONCE.call());
        return map.remove(thread.key);
    }

    /** The usual hand-rolled version: the first caller's future goes into the map, the others join it. */
    private Integer handRolled(String key, Callable<Integer> fn) throws Exception {
        CompletableFuture<Integer> mine = new CompletableFuture<>();
        CompletableFuture<Integer> inFlight = futures.computeIfAbsent(key, k -> mine);
        if (inFlight == mine) {
            try {
                mine.complete(fn.call());
            } catch (Exception e) {
                mine.completeExceptionally(e);
            } finally {
                futures.remove(key, mine);
            }
        }
        return inFlight.get();
    }

    /** The hand-rolled version with Go's order: the key leaves the map before the outcome is published. */
    private Integer handRolledRemovedFirst(String key, Callable<Integer> fn) throws Exception {
        CompletableFuture<Integer> mine = new CompletableFuture<>();
        CompletableFuture<Integer> inFlight = futures.computeIfAbsent(key, k -> mine);
        if (inFlight == mine) {
            Integer value;
            try {
                value = fn.call();
            } catch (Exception e) {
                futures.remove(key, mine);
                mine.completeExceptionally(e);
                throw e;
            }
            futures.remove(key, mine);
            mine.complete(value);
        }
        return inFlight.get();
    }
}
