package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.WaitGroup;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Issue 5, benchmark 2b: a fork-join of {@value #TASKS} empty tasks, counted with a
 * {@link WaitGroup}, a {@link CountDownLatch} or a {@link Phaser}: ns per fork-join.
 *
 * <ul>
 *   <li>{@code inline_*}: the caller arms the counter, runs the 8 tasks itself, then awaits. This
 *       is the pure bookkeeping cost (a latch is allocated per fork-join, the group and the
 *       phaser are reused, which is how each is used).</li>
 *   <li>{@code handed_*}: the 8 tasks go to a fixed pool of 2 platform worker threads and the
 *       caller awaits them: the cost of waking and being woken.</li>
 * </ul>
 * One submitter thread ({@code @Threads(1)}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class ForkJoinBenchmark {

    static final int TASKS = 8;

    private final WaitGroup group = new WaitGroup();
    private final Phaser phaser = new Phaser(1);
    private CountDownLatch latch;

    private final Runnable groupDone = group::done;
    private final Runnable phaserDone = phaser::arriveAndDeregister;
    private final Runnable latchDone = () -> latch.countDown();

    private ExecutorService workers;

    @Setup(Level.Trial)
    public void setUp() {
        workers = Executors.newFixedThreadPool(2);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        workers.shutdown();
        if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("workers did not stop");
        }
    }

    @Benchmark
    public void inline_waitGroup() throws InterruptedException {
        group.add(TASKS);
        for (int i = 0; i < TASKS; i++) {
            group.done();
        }
        group.await();
    }

    @Benchmark
    public void inline_countDownLatch() throws InterruptedException {
        CountDownLatch l = new CountDownLatch(TASKS);
        for (int i = 0; i < TASKS; i++) {
            l.countDown();
        }
        l.await();
    }

    @Benchmark
    public void inline_phaser() {
        phaser.bulkRegister(TASKS);
        for (int i = 0; i < TASKS; i++) {
            phaser.arriveAndDeregister();
        }
        phaser.arriveAndAwaitAdvance();
    }

    @Benchmark
    public void handed_waitGroup() throws InterruptedException {
        group.add(TASKS);
        for (int i = 0; i < TASKS; i++) {
            workers.execute(groupDone);
        }
        group.await();
    }

    @Benchmark
    public void handed_countDownLatch() throws InterruptedException {
        CountDownLatch l = new CountDownLatch(TASKS);
        latch = l;
        for (int i = 0; i < TASKS; i++) {
            workers.execute(latchDone);
        }
        l.await();
    }

    @Benchmark
    public void handed_phaser() {
        phaser.bulkRegister(TASKS);
        for (int i = 0; i < TASKS; i++) {
            workers.execute(phaserDone);
        }
        phaser.arriveAndAwaitAdvance();
    }
}
