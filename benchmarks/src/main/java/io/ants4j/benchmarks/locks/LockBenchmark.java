package io.ants4j.benchmarks.locks;

import io.ants4j.primitives.Mutex;
import io.ants4j.primitives.SpinLock;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Control;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Issues 5 and 16, benchmark 1: lock + unlock of one shared lock by every JMH thread (run it with
 * {@code -t 1, 2, 4, 8}), with an empty critical section, one that increments a shared
 * {@code long}, or a long one (the increment and about 1 µs of work).
 *
 * <p>Contenders: our {@link SpinLock} and {@link Mutex}, {@link AntsPlainSpinLock} (ants' spin lock
 * without backoff), {@link ReentrantLock} (non-fair, the default), {@code synchronized}, the write
 * lock of {@link StampedLock} and a {@code Semaphore(1)}. The same comparison on 1,000 virtual
 * threads is {@link VirtualThreadLockBenchmark}.
 *
 * <p>Besides throughput (ops/µs, all threads together) every method reports fairness through the
 * {@link Fairness} aux counters: {@code fairMinOps} and {@code fairMaxOps} are the per-thread
 * throughput of the slowest and of the fastest thread in each iteration; their ratio shows
 * whether a lock wins by letting one thread hog it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LockBenchmark {

    /** The critical section: {@code empty}, {@code increment} or {@code long} (see {@link CriticalSection}). */
    @Param({"empty", "increment", "long"})
    public String section;

    private CriticalSection criticalSection;

    private final SpinLock spinLock = new SpinLock();
    private final Mutex mutex = new Mutex();
    private final AntsPlainSpinLock antsPlainSpinLock = new AntsPlainSpinLock();
    private final ReentrantLock reentrantLock = new ReentrantLock();
    private final Object monitor = new Object();
    private final StampedLock stampedLock = new StampedLock();
    private final Semaphore semaphore = new Semaphore(1);

    @Setup(Level.Trial)
    public void setUp() {
        criticalSection = new CriticalSection(section);
    }

    @Benchmark
    public void spinLock(Fairness f, Control c) {
        spinLock.lock();
        try {
            criticalSection.run();
        } finally {
            spinLock.unlock();
        }
        f.count(c);
    }

    @Benchmark
    public void mutex(Fairness f, Control c) {
        mutex.lock();
        try {
            criticalSection.run();
        } finally {
            mutex.unlock();
        }
        f.count(c);
    }

    @Benchmark
    public void antsPlainSpinLock(Fairness f, Control c) {
        antsPlainSpinLock.lock();
        try {
            criticalSection.run();
        } finally {
            antsPlainSpinLock.unlock();
        }
        f.count(c);
    }

    @Benchmark
    public void reentrantLock(Fairness f, Control c) {
        reentrantLock.lock();
        try {
            criticalSection.run();
        } finally {
            reentrantLock.unlock();
        }
        f.count(c);
    }

    @Benchmark
    public void synchronizedBlock(Fairness f, Control c) {
        synchronized (monitor) {
            criticalSection.run();
        }
        f.count(c);
    }

    @Benchmark
    public void stampedLock(Fairness f, Control c) {
        long stamp = stampedLock.writeLock();
        try {
            criticalSection.run();
        } finally {
            stampedLock.unlockWrite(stamp);
        }
        f.count(c);
    }

    @Benchmark
    public void semaphore(Fairness f, Control c) {
        semaphore.acquireUninterruptibly();
        try {
            criticalSection.run();
        } finally {
            semaphore.release();
        }
        f.count(c);
    }

    /** Every thread's {@link Fairness}, so that thread 0 can compare them after each iteration. */
    @State(Scope.Benchmark)
    public static class Threads {
        Fairness[] all;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            all = new Fairness[params.getThreads()];
        }
    }

    /**
     * Per-thread operation counts, counted only between the start and the end of measurement.
     * After each iteration, thread 0 publishes the smallest and the largest count of all threads
     * as its aux counters and the other threads publish 0: JMH sums aux counters over threads and
     * divides by the iteration time, so the result is the per-thread throughput of the slowest
     * ({@code fairMinOps}) and the fastest ({@code fairMaxOps}) thread.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Fairness {
        /** Slowest thread's operations this iteration (thread 0 only, else 0). */
        public long fairMinOps;
        /** Fastest thread's operations this iteration (thread 0 only, else 0). */
        public long fairMaxOps;

        private long ops;
        private int index;
        private Threads threads;

        @Setup(Level.Trial)
        public void register(Threads all, ThreadParams params) {
            threads = all;
            index = params.getThreadIndex();
            all.all[index] = this;
        }

        @Setup(Level.Iteration)
        public void reset() {
            ops = 0;
            fairMinOps = 0;
            fairMaxOps = 0;
        }

        void count(Control c) {
            if (c.startMeasurement && !c.stopMeasurement) {
                ops++;
            }
        }

        /** Runs after JMH's pre-tear-down barrier: every thread has stopped counting. */
        @TearDown(Level.Iteration)
        public void publish() {
            if (index != 0) {
                return;
            }
            long min = Long.MAX_VALUE;
            long max = 0;
            for (Fairness f : threads.all) {
                if (f == null) {
                    continue;
                }
                min = Math.min(min, f.ops);
                max = Math.max(max, f.ops);
            }
            fairMinOps = min == Long.MAX_VALUE ? 0 : min;
            fairMaxOps = max;
        }
    }
}
