package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
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

/**
 * Issue 5, benchmark 3b: Go's {@code benchmarkCond} ({@code cond_test.go}): {@code waiters + 1}
 * parties meet in rounds; each arrives under the lock, the last one broadcasts and the others
 * wait. ns per round. The JMH thread is one party, {@code waiters} platform threads are the
 * others.
 *
 * <ul>
 *   <li>{@code condReentrantLock}: our {@link Cond} over a {@link ReentrantLock}
 *       (isolates Cond vs Condition: same lock).</li>
 *   <li>{@code condSpinLock}: our {@link Cond} over our {@link SpinLock}.</li>
 *   <li>{@code condition}: {@link ReentrantLock#newCondition()}, the JDK peer.</li>
 * </ul>
 * Waits re-check a generation number: Go's {@code Wait} has no spurious wake-ups, Java's
 * {@code Condition} may have them; the loop keeps the benchmark correct for both.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class CondBenchmark {

    /** What the benchmark needs of a lock and its condition. */
    interface Ops {
        void lock();

        void unlock();

        void await() throws InterruptedException;

        void broadcast();
    }

    /** Go's benchmark with {@code waiters} helper parties plus the JMH thread. */
    @State(Scope.Benchmark)
    public abstract static class Rounds {
        @Param({"1", "2", "4", "8", "16", "32"})
        public int waiters;

        private Ops ops;
        private int parties;
        private int arrived;
        private int generation;
        private boolean stop;
        private final List<Thread> helpers = new ArrayList<>();

        abstract Ops ops();

        @Setup(Level.Trial)
        public void start() {
            ops = ops();
            parties = waiters + 1;
            for (int i = 0; i < waiters; i++) {
                Thread t = Thread.ofPlatform().daemon().name("cond-waiter-" + i).start(() -> {
                    try {
                        while (round()) {
                            // keep meeting the others
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                helpers.add(t);
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            ops.lock();
            try {
                stop = true;
                ops.broadcast();
            } finally {
                ops.unlock();
            }
            for (Thread t : helpers) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                if (t.isAlive()) {
                    throw new IllegalStateException(t.getName() + " did not stop");
                }
            }
        }

        /** One party's arrival in a round; false once stopped. */
        final boolean round() throws InterruptedException {
            ops.lock();
            try {
                if (stop) {
                    return false;
                }
                int g = generation;
                if (++arrived == parties) {
                    arrived = 0;
                    generation = g + 1;
                    ops.broadcast();
                } else {
                    while (generation == g && !stop) {
                        ops.await();
                    }
                }
                return !stop;
            } finally {
                ops.unlock();
            }
        }
    }

    @State(Scope.Benchmark)
    public static class OursOverReentrantLock extends Rounds {
        @Override
        Ops ops() {
            return condOps(new ReentrantLock());
        }
    }

    @State(Scope.Benchmark)
    public static class OursOverSpinLock extends Rounds {
        @Override
        Ops ops() {
            return condOps(new SpinLock());
        }
    }

    @State(Scope.Benchmark)
    public static class JdkCondition extends Rounds {
        @Override
        Ops ops() {
            ReentrantLock lock = new ReentrantLock();
            Condition condition = lock.newCondition();
            return new Ops() {
                @Override
                public void lock() {
                    lock.lock();
                }

                @Override
                public void unlock() {
                    lock.unlock();
                }

                @Override
                public void await() throws InterruptedException {
                    condition.await();
                }

                @Override
                public void broadcast() {
                    condition.signalAll();
                }
            };
        }
    }

    static Ops condOps(Lock lock) {
        Cond cond = new Cond(lock);
        return new Ops() {
            @Override
            public void lock() {
                lock.lock();
            }

            @Override
            public void unlock() {
                lock.unlock();
            }

            @Override
            public void await() throws InterruptedException {
                cond.await();
            }

            @Override
            public void broadcast() {
                cond.broadcast();
            }
        };
    }

    @Benchmark
    public boolean condReentrantLock(OursOverReentrantLock s) throws InterruptedException {
        return s.round();
    }

    @Benchmark
    public boolean condSpinLock(OursOverSpinLock s) throws InterruptedException {
        return s.round();
    }

    @Benchmark
    public boolean condition(JdkCondition s) throws InterruptedException {
        return s.round();
    }
}
