package io.ants4j.benchmarks.pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Issue 5, benchmark 4a (JDK peers of {@link PoolTrivialBenchmark}, same shape): one submitter,
 * {@value PoolTrivialBenchmark#TASKS} no-op tasks, wait for all; ns and bytes per task.
 *
 * <ul>
 *   <li>{@code threadPoolExecutor}: {@code Executors.newFixedThreadPool(2)}.</li>
 *   <li>{@code forkJoinCommonPool}: {@code ForkJoinPool.commonPool()} (parallelism = cores - 1).</li>
 *   <li>{@code virtualThreadPerTask}: {@code Executors.newVirtualThreadPerTaskExecutor()}.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(PoolTrivialBenchmark.TASKS)
@Threads(1)
public class ExecutorTrivialBenchmark {

    private static final int TASKS = PoolTrivialBenchmark.TASKS;

    private CountDownLatch latch;
    private final Runnable task = () -> latch.countDown();
    private ExecutorService fixed2;
    private ExecutorService virtualPerTask;

    @Setup(Level.Trial)
    public void setUp() {
        fixed2 = Executors.newFixedThreadPool(2);
        virtualPerTask = Executors.newVirtualThreadPerTaskExecutor();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        Executors2.shutdown(fixed2);
        Executors2.shutdown(virtualPerTask);
    }

    private CountDownLatch arm() {
        CountDownLatch l = new CountDownLatch(TASKS);
        latch = l;
        return l;
    }

    @Benchmark
    public void threadPoolExecutor() throws InterruptedException {
        CountDownLatch l = arm();
        for (int i = 0; i < TASKS; i++) {
            fixed2.execute(task);
        }
        l.await();
    }

    @Benchmark
    public void forkJoinCommonPool() throws InterruptedException {
        CountDownLatch l = arm();
        ForkJoinPool common = ForkJoinPool.commonPool();
        for (int i = 0; i < TASKS; i++) {
            common.execute(task);
        }
        l.await();
    }

    @Benchmark
    public void virtualThreadPerTask() throws InterruptedException {
        CountDownLatch l = arm();
        for (int i = 0; i < TASKS; i++) {
            virtualPerTask.execute(task);
        }
        l.await();
    }
}
