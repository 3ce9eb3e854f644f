package io.ants4j.benchmarks.pool;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolWithFunc;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * Issue 5, benchmark 4a (ours): one submitter hands {@value #TASKS} no-op tasks to the pool and
 * waits until all have run. The score is ns per task ({@code @OperationsPerInvocation}); with
 * {@code -prof gc}, {@code gc.alloc.rate.norm} is bytes per task. The JDK peers are in
 * {@link ExecutorTrivialBenchmark}, same shape.
 *
 * <p>Every task counts down one {@link CountDownLatch} (one per batch, allocated once per 100,000
 * tasks); {@code Pool} and {@code MultiPool} get one reused {@code Runnable},
 * {@code PoolWithFunc} gets the latch itself as the argument: nothing is allocated per task by
 * the benchmark, so B/op is the pool's own.
 *
 * <p>{@code capacity}: 50,000 is ants' {@code PoolCap}; 2 matches the peer
 * {@code ThreadPoolExecutor(2)}. {@code MultiPool} splits it into up to 10 pools (ants' benchmark:
 * 10 × PoolCap/10), round robin.
 *
 * <p>With {@code -jvmArgsAppend -Dants4j.bench.jfr=on}, a JFR recording with every {@code ants4j.*} event
 * enabled (the blocked-submit threshold at 0, the statistics every second) runs for the whole trial: issue 15's
 * cost of the pool's events, enabled against a run without the property (events disabled). A system property
 * rather than a {@code @Param}, so that the rows of a normal run keep the parameters the report groups by.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(PoolTrivialBenchmark.TASKS)
@Threads(1)
public class PoolTrivialBenchmark {

    public static final int TASKS = 100_000;

    /** What every state shares: capacity, the batch latch, and the JFR recording if asked for. */
    @State(Scope.Benchmark)
    public abstract static class Batch {
        @Param({"50000", "2"})
        public int capacity;

        Recording recording;

        @Setup(Level.Trial)
        public void startRecording() {
            String jfr = System.getProperty("ants4j.bench.jfr", "off");
            if (jfr.equals("on")) {
                recording = new Recording();
                recording.enable("ants4j.SubmitBlocked").withThreshold(Duration.ZERO);
                for (String event : new String[] {"ants4j.SubmitRejected", "ants4j.TaskFailed", "ants4j.PoolTuned",
                        "ants4j.PoolReleased"}) {
                    recording.enable(event);
                }
                recording.enable("ants4j.PoolStatistics").withPeriod(Duration.ofSeconds(1));
                recording.setToDisk(false);
                recording.start();
            } else if (!jfr.equals("off")) {
                throw new IllegalArgumentException("ants4j.bench.jfr must be off or on: " + jfr);
            }
        }

        @TearDown(Level.Trial)
        public void stopRecording() {
            if (recording != null) {
                recording.close();
            }
        }

        CountDownLatch latch;
        final Runnable task = () -> latch.countDown();

        CountDownLatch arm() {
            CountDownLatch l = new CountDownLatch(TASKS);
            latch = l;
            return l;
        }
    }

    @State(Scope.Benchmark)
    public static class PoolState extends Batch {
        Pool pool;

        @Setup(Level.Trial)
        public void setUp() {
            pool = Pool.newPool(capacity);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Executors2.release(pool);
        }
    }

    @State(Scope.Benchmark)
    public static class FuncState extends Batch {
        PoolWithFunc<CountDownLatch> pool;

        @Setup(Level.Trial)
        public void setUp() {
            pool = PoolWithFunc.newPool(capacity, CountDownLatch::countDown);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Executors2.release(pool);
        }
    }

    @State(Scope.Benchmark)
    public static class MultiState extends Batch {
        MultiPool pool;

        @Setup(Level.Trial)
        public void setUp() {
            int pools = Math.min(10, capacity);
            pool = MultiPool.newMultiPool(pools, capacity / pools, LoadBalancing.ROUND_ROBIN);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            Executors2.release(pool);
        }
    }

    @Benchmark
    public void pool(PoolState s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < TASKS; i++) {
            s.pool.execute(s.task);
        }
        l.await();
    }

    @Benchmark
    public void poolWithFunc(FuncState s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < TASKS; i++) {
            s.pool.invoke(l);
        }
        l.await();
    }

    @Benchmark
    public void multiPool(MultiState s) throws InterruptedException {
        CountDownLatch l = s.arm();
        for (int i = 0; i < TASKS; i++) {
            s.pool.execute(s.task);
        }
        l.await();
    }
}
