package io.ants4j.benchmarks.locks;

import io.ants4j.primitives.RWMutex;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Issue 16: a read-mostly shared value, 90% reads and 10% writes, every JMH thread on one
 * read-write lock (run it with {@code -t 2, 8}): our {@link RWMutex} against a non-fair
 * {@link ReentrantReadWriteLock}. A read returns the value under the read lock; a write
 * increments it under the write lock. Score: operations per µs of all threads together.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RWMutexBenchmark {

    private final RWMutex rwMutex = new RWMutex();
    private final ReentrantReadWriteLock reentrantReadWriteLock = new ReentrantReadWriteLock();
    private final CriticalSection.PaddedCounter shared = new CriticalSection.PaddedCounter();

    /** Which operation comes next in this thread: every tenth is a write. */
    @State(Scope.Thread)
    public static class Turn {
        int next;

        boolean write() {
            if (++next == 10) {
                next = 0;
                return true;
            }
            return false;
        }
    }

    @Benchmark
    public long rwMutex(Turn turn) {
        return readMostly(rwMutex, turn);
    }

    @Benchmark
    public long reentrantReadWriteLock(Turn turn) {
        return readMostly(reentrantReadWriteLock, turn);
    }

    private long readMostly(ReadWriteLock rw, Turn turn) {
        if (turn.write()) {
            rw.writeLock().lock();
            try {
                return ++shared.value;
            } finally {
                rw.writeLock().unlock();
            }
        }
        rw.readLock().lock();
        try {
            return shared.value;
        } finally {
            rw.readLock().unlock();
        }
    }
}
