package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.WeightedSemaphore;
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

/**
 * Issue 16: {@code acquire(1)} + {@code release(1)} of one shared semaphore by every JMH thread
 * (run it with {@code -t 1, 2, 4, 8}), with {@code permits} permits: 1 makes it a lock that
 * is handed from thread to thread once two contend, 4 lets up to four in at once.
 *
 * <p>Contenders: our {@link WeightedSemaphore} (strict FIFO), the JDK's {@link Semaphore} in fair
 * mode (also FIFO, the peer of the target) and, for reference, in its default non-fair mode,
 * which lets a thread barge ahead of the queue. Throughput of all threads together.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WeightedSemaphoreBenchmark {

    /** The semaphores' size. */
    @Param({"1", "4"})
    public int permits;

    private WeightedSemaphore weighted;
    private Semaphore fair;
    private Semaphore nonFair;

    @Setup(Level.Trial)
    public void setUp() {
        weighted = new WeightedSemaphore(permits);
        fair = new Semaphore(permits, true);
        nonFair = new Semaphore(permits, false);
    }

    @Benchmark
    public void weightedSemaphore() throws InterruptedException {
        weighted.acquire(1);
        weighted.release(1);
    }

    @Benchmark
    public void semaphoreFair() throws InterruptedException {
        fair.acquire();
        fair.release();
    }

    @Benchmark
    public void semaphoreNonFair() throws InterruptedException {
        nonFair.acquire();
        nonFair.release();
    }
}
