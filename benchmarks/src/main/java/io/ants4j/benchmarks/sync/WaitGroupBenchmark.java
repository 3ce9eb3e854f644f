package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.WaitGroup;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Issue 5, benchmark 2a: Go's own {@code sync.WaitGroup} benchmarks ({@code waitgroup_test.go}),
 * each against the JDK types that express the same thing. Run with {@code -t 1, 2, 4, 8}: every
 * JMH thread plays one goroutine of Go's {@code b.RunParallel}. Methods are named
 * {@code scenario_implementation}.
 *
 * <ul>
 *   <li>{@code uncontended}: each thread its own group: add(1), done(), await().
 *       CountDownLatch cannot be re-armed, so it is a new {@code CountDownLatch(1)} per operation;
 *       Phaser: register, arriveAndDeregister, arriveAndAwaitAdvance on a per-thread phaser.</li>
 *   <li>{@code addDone}, {@code addDoneWork}: one shared group, add(1) then done() (with 100
 *       tokens of local work between them). CountDownLatch has no add: Phaser only.</li>
 *   <li>{@code wait}, {@code waitWork}: await() on a shared group whose count is zero.</li>
 *   <li>{@code actuallyWait}: a new group per operation, add(1), a new virtual thread calls
 *       done(), the caller awaits it (Go starts a goroutine).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WaitGroupBenchmark {

    /** Go's {@code localWork = 100} loop of multiply/divide; JMH's calibrated CPU burner here. */
    static final int LOCAL_WORK = 100;

    private final WaitGroup sharedGroup = new WaitGroup();
    /** One permanent party keeps the phaser from terminating when the others deregister. */
    private final Phaser sharedPhaser = new Phaser(1);
    private final CountDownLatch openLatch = new CountDownLatch(0);

    /** Per-thread objects for the uncontended case, each allocated by its own thread. */
    @State(Scope.Thread)
    public static class Local {
        final WaitGroup group = new WaitGroup();
        final Phaser phaser = new Phaser(1);
    }

    // ---- uncontended: add(1), done(), await() on a group of one's own

    @Benchmark
    public void uncontended_waitGroup(Local l) throws InterruptedException {
        l.group.add(1);
        l.group.done();
        l.group.await();
    }

    @Benchmark
    public void uncontended_countDownLatch() throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        latch.countDown();
        latch.await();
    }

    @Benchmark
    public void uncontended_phaser(Local l) {
        l.phaser.register();
        l.phaser.arriveAndDeregister();
        l.phaser.arriveAndAwaitAdvance();
    }

    // ---- addDone: add(1), done() on one shared group

    @Benchmark
    public void addDone_waitGroup() {
        sharedGroup.add(1);
        sharedGroup.done();
    }

    @Benchmark
    public void addDone_phaser() {
        sharedPhaser.register();
        sharedPhaser.arriveAndDeregister();
    }

    @Benchmark
    public void addDoneWork_waitGroup() {
        sharedGroup.add(1);
        Blackhole.consumeCPU(LOCAL_WORK);
        sharedGroup.done();
    }

    @Benchmark
    public void addDoneWork_phaser() {
        sharedPhaser.register();
        Blackhole.consumeCPU(LOCAL_WORK);
        sharedPhaser.arriveAndDeregister();
    }

    // ---- wait: await() on a shared group with nothing outstanding

    @Benchmark
    public void wait_waitGroup() throws InterruptedException {
        sharedGroup.await();
    }

    @Benchmark
    public void wait_countDownLatch() throws InterruptedException {
        openLatch.await();
    }

    @Benchmark
    public void waitWork_waitGroup() throws InterruptedException {
        sharedGroup.await();
        Blackhole.consumeCPU(LOCAL_WORK);
    }

    @Benchmark
    public void waitWork_countDownLatch() throws InterruptedException {
        openLatch.await();
        Blackhole.consumeCPU(LOCAL_WORK);
    }

    // ---- actuallyWait: a new group, a new (virtual) thread calls done(), await it

    @Benchmark
    public void actuallyWait_waitGroup() throws InterruptedException {
        WaitGroup group = new WaitGroup();
        group.add(1);
        Thread.startVirtualThread(group::done);
        group.await();
    }

    @Benchmark
    public void actuallyWait_countDownLatch() throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        Thread.startVirtualThread(latch::countDown);
        latch.await();
    }

    @Benchmark
    public void actuallyWait_phaser() {
        Phaser phaser = new Phaser(2);
        Thread.startVirtualThread(phaser::arriveAndDeregister);
        phaser.arriveAndAwaitAdvance();
    }
}
