package io.ants4j.benchmarks.locks;

import io.ants4j.primitives.Mutex;
import io.ants4j.primitives.SpinLock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
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

/**
 * Issue 16: the lock comparison of {@link LockBenchmark} on virtual threads. Each invocation
 * starts {@value #THREADS} virtual threads that each lock and unlock one shared lock
 * {@value #OPS_PER_THREAD} times, and waits for all of them; the score is lock + unlock
 * operations per µs of all threads together (starting the threads is included, about 1 ms an
 * invocation). {@code synchronized} pins the carrier while a virtual thread blocks on it (JDK 21–23).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class VirtualThreadLockBenchmark {

    static final int THREADS = 1_000;
    static final int OPS_PER_THREAD = 1_000;

    /** The critical section: {@code empty}, {@code increment} or {@code long} (see {@link CriticalSection}). */
    @Param({"empty", "increment", "long"})
    public String section;

    private CriticalSection criticalSection;

    private final SpinLock spinLock = new SpinLock();
    private final Mutex mutex = new Mutex();
    private final ReentrantLock reentrantLock = new ReentrantLock();
    private final Object monitor = new Object();

    @Setup(Level.Trial)
    public void setUp() {
        criticalSection = new CriticalSection(section);
    }

    @Benchmark
    @OperationsPerInvocation(THREADS * OPS_PER_THREAD)
    public void spinLock() throws InterruptedException {
        run(spinLock);
    }

    @Benchmark
    @OperationsPerInvocation(THREADS * OPS_PER_THREAD)
    public void mutex() throws InterruptedException {
        run(mutex);
    }

    @Benchmark
    @OperationsPerInvocation(THREADS * OPS_PER_THREAD)
    public void reentrantLock() throws InterruptedException {
        run(reentrantLock);
    }

    @Benchmark
    @OperationsPerInvocation(THREADS * OPS_PER_THREAD)
    public void synchronizedBlock() throws InterruptedException {
        runAll(() -> {
            for (int i = 0; i < OPS_PER_THREAD; i++) {
                synchronized (monitor) {
                    criticalSection.run();
                }
            }
        });
    }

    private void run(Lock lock) throws InterruptedException {
        runAll(() -> {
            for (int i = 0; i < OPS_PER_THREAD; i++) {
                lock.lock();
                try {
                    criticalSection.run();
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    private static void runAll(Runnable body) throws InterruptedException {
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            threads[t] = Thread.ofVirtual().start(body);
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
