package io.ants4j.benchmarks.pool;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolWithFunc;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Issue 5, benchmark 4b: ants' {@code BenchmarkParallelAntsPoolThroughput}: every JMH thread
 * (run with {@code -t 1, 2, 4, 8}) submits no-op tasks to one shared executor; tasks per µs.
 *
 * <p>Unlike ants' Go version each submitter waits for its own batch of {@value #BATCH} tasks before
 * the next one (a per-thread latch): without it the unbounded JDK executors would queue millions
 * of tasks per second and measure the garbage collector. {@code capacity} of our pools: ants'
 * {@code PoolCap}, 50,000 ({@code MultiPool}: 10 × 5,000).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@OperationsPerInvocation(ParallelSubmitBenchmark.BATCH)
public class ParallelSubmitBenchmark {

    public static final int BATCH = 1_000;

    /** One submitter's batch latch and its reused task. */
    @State(Scope.Thread)
    public static class Submitter {
        CountDownLatch latch;
        final Runnable task = () -> latch.countDown();

        CountDownLatch arm() {
            CountDownLatch l = new CountDownLatch(BATCH);
            latch = l;
            return l;
        }
    }

    /** Our pools, capacity {@code capacity}; only the one under test is created in its fork. */
    @State(Scope.Benchmark)
    public static class Ours {
        @Param({"50000"})
        public int capacity;

        Pool pool;
        PoolWithFunc<CountDownLatch> poolWithFunc;
        MultiPool multiPool;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            String method = params.getBenchmark();
            if (method.endsWith(".pool")) {
                pool = Pool.newPool(capacity);
            } else if (method.endsWith(".poolWithFunc")) {
                poolWithFunc = PoolWithFunc.newPool(capacity, CountDownLatch::countDown);
            } else if (method.endsWith(".multiPool")) {
                multiPool = MultiPool.newMultiPool(10, capacity / 10, LoadBalancing.ROUND_ROBIN);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Executors2.release(pool);
            Executors2.release(poolWithFunc);
            Executors2.release(multiPool);
        }
    }

    /** The JDK peers; only the one under test is created in its fork. */
    @State(Scope.Benchmark)
    public static class Jdk {
        ExecutorService fixed2;
        ExecutorService virtualPerTask;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            String method = params.getBenchmark();
            if (method.endsWith(".threadPoolExecutor")) {
                fixed2 = Executors.newFixedThreadPool(2);
            } else if (method.endsWith(".virtualThreadPerTask")) {
                virtualPerTask = Executors.newVirtualThreadPerTaskExecutor();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Executors2.shutdown(fixed2);
            Executors2.shutdown(virtualPerTask);
        }
    }

    @Benchmark
    public void pool(Ours e, Submitter s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < BATCH; i++) {
            e.pool.execute(s.task);
        }
        l.await();
    }

    @Benchmark
    public void poolWithFunc(Ours e, Submitter s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < BATCH; i++) {
            e.poolWithFunc.invoke(l);
        }
        l.await();
    }

    @Benchmark
    public void multiPool(Ours e, Submitter s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < BATCH; i++) {
            e.multiPool.execute(s.task);
        }
        l.await();
    }

    @Benchmark
    public void threadPoolExecutor(Jdk e, Submitter s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < BATCH; i++) {
            e.fixed2.execute(s.task);
        }
        l.await();
    }

    @Benchmark
    public void forkJoinCommonPool(Submitter s) throws InterruptedException {
        CountDownLatch l = s.arm();
        ForkJoinPool common = ForkJoinPool.commonPool();
        for (int i = 0; i < BATCH; i++) {
            common.execute(s.task);
        }
        l.await();
    }

    @Benchmark
    public void virtualThreadPerTask(Jdk e, Submitter s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < BATCH; i++) {
            e.virtualPerTask.execute(s.task);
        }
        l.await();
    }
}
