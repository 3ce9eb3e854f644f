package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.TaskGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A fan-out of {@code tasks} small tasks, at most {@value #LIMIT} at once, each in a virtual thread,
 * and the wait for all their results: µs per fan-out.
 *
 * <ul>
 *   <li>{@code taskGroup}: {@code TaskGroup.create(8)}, {@code go} per task, then {@code await}
 *       (the group is made per fan-out, as it is used).</li>
 *   <li>{@code invokeAll}: {@code invokeAll} on a virtual-thread-per-task executor, each task
 *       bounded by a {@link Semaphore} of {@value #LIMIT} permits.</li>
 *   <li>{@code allOf}: {@code CompletableFuture.supplyAsync} per task on that executor, the same
 *       semaphore, then {@code allOf(...).join()}.</li>
 * </ul>
 * A task burns {@value #WORK} JMH CPU tokens (a few hundred ns) and returns a number. One submitter:
 * the JMH thread itself ({@code submitter=platform}) or, as in a Go port where the caller is a
 * goroutine, a virtual thread the JMH thread starts and joins per fan-out ({@code submitter=virtual},
 * which adds that start and join to every contender alike).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
public class TaskGroupBenchmark {

    static final int LIMIT = 8;
    static final int WORK = 100;

    @Param({"8", "1000"})
    public int tasks;

    /** Who submits: {@code platform} (the JMH thread) or {@code virtual} (a virtual thread per fan-out). */
    @Param({"platform", "virtual"})
    public String submitter;

    private ExecutorService virtualThreads;
    private final Semaphore permits = new Semaphore(LIMIT);
    private final Callable<Integer> work = () -> {
        Blackhole.consumeCPU(WORK);
        return 1;
    };
    private final Callable<Integer> boundedWork = () -> {
        permits.acquire();
        try {
            return work.call();
        } finally {
            permits.release();
        }
    };
    private List<Callable<Integer>> boundedTasks;

    @Setup(Level.Trial)
    public void setUp() {
        virtualThreads = Executors.newVirtualThreadPerTaskExecutor();
        boundedTasks = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            boundedTasks.add(boundedWork);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        virtualThreads.close();
    }

    @Benchmark
    public int taskGroup() throws Exception {
        return submit(this::taskGroupFanOut);
    }

    @Benchmark
    public int invokeAll() throws Exception {
        return submit(this::invokeAllFanOut);
    }

    @Benchmark
    public int allOf() throws Exception {
        return submit(this::allOfFanOut);
    }

    /** Runs {@code fanOut} in the JMH thread or in a virtual thread of its own, as {@link #submitter} says. */
    private int submit(Callable<Integer> fanOut) throws Exception {
        if (submitter.equals("platform")) {
            return fanOut.call();
        }
        FutureTask<Integer> run = new FutureTask<>(fanOut);
        Thread.startVirtualThread(run);
        return run.get();
    }

    private int taskGroupFanOut() throws InterruptedException, ExecutionException {
        try (TaskGroup<Integer> group = TaskGroup.create(LIMIT)) {
            for (int i = 0; i < tasks; i++) {
                group.go(work);
            }
            return sum(group.await());
        }
    }

    private int invokeAllFanOut() throws InterruptedException, ExecutionException {
        int sum = 0;
        for (Future<Integer> f : virtualThreads.invokeAll(boundedTasks)) {
            sum += f.get();
        }
        return sum;
    }

    private int allOfFanOut() {
        @SuppressWarnings("unchecked")
        CompletableFuture<Integer>[] futures = new CompletableFuture[tasks];
        for (int i = 0; i < tasks; i++) {
            futures[i] = CompletableFuture.supplyAsync(this::boundedWorkUnchecked, virtualThreads);
        }
        CompletableFuture.allOf(futures).join();
        int sum = 0;
        for (CompletableFuture<Integer> f : futures) {
            sum += f.join();
        }
        return sum;
    }

    private Integer boundedWorkUnchecked() {
        try {
            return boundedWork.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int sum(List<Integer> results) {
        int sum = 0;
        for (int x : results) {
            sum += x;
        }
        return sum;
    }
}
