package io.ants4j.benchmarks.sync;

import io.ants4j.primitives.Once;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Issue 5, benchmark 3a: the fast path of {@link Once} after its action has run, against the
 * two ways a JVM engineer writes lazy one-time initialisation. Methods are
 * {@code scenario_implementation}.
 *
 * <ul>
 *   <li>{@code run}: {@code once.run(action)} vs a volatile boolean flag checked before a slow
 *       path ({@code volatileFlag}), and {@code Once.func(action).run()}.</li>
 *   <li>{@code value}: {@code Once.value(supplier).get()} vs a holder with a volatile field
 *       ({@code volatileHolder}: the cost floor, one volatile read) and double-checked locking. A
 *       control, {@code volatileHolderAsSupplier}, calls the same holder through a
 *       {@code Supplier} field, as {@code Once.value} is called: the JIT then guards the inlined
 *       call with a class check, which a field of the holder's own final class does not need.</li>
 * </ul>
 * The target is {@code Once} within 10% of the volatile read. All objects are shared by all
 * JMH threads, as a lazily initialised singleton is.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OnceBenchmark {

    private static final Runnable NOOP = () -> { };

    private final Once once = new Once();
    private final Runnable onceFunc = Once.func(NOOP);
    private final Supplier<Object> onceValue = Once.value(Object::new);
    private final VolatileFlag flag = new VolatileFlag();
    private final VolatileHolder holder = new VolatileHolder();
    private final Supplier<Object> holderAsSupplier = new VolatileHolder();
    private final DoubleCheckedLocking dcl = new DoubleCheckedLocking();

    @Setup(Level.Trial)
    public void setUp() {
        once.run(NOOP);
        onceFunc.run();
        onceValue.get();
        flag.run(NOOP);
        holder.get();
        holderAsSupplier.get();
        dcl.get();
    }

    @Benchmark
    public void run_once() {
        once.run(NOOP);
    }

    @Benchmark
    public void run_onceFunc() {
        onceFunc.run();
    }

    @Benchmark
    public void run_volatileFlag() {
        flag.run(NOOP);
    }

    @Benchmark
    public Object value_onceValue() {
        return onceValue.get();
    }

    @Benchmark
    public Object value_volatileHolder() {
        return holder.get();
    }

    @Benchmark
    public Object value_volatileHolderAsSupplier() {
        return holderAsSupplier.get();
    }

    @Benchmark
    public Object value_doubleCheckedLocking() {
        return dcl.get();
    }

    /** A volatile "done" flag; the slow path is a plain lock (not measured). */
    static final class VolatileFlag {
        private volatile boolean done;

        void run(Runnable action) {
            if (!done) {
                slow(action);
            }
        }

        private synchronized void slow(Runnable action) {
            if (!done) {
                try {
                    action.run();
                } finally {
                    done = true;
                }
            }
        }
    }

    /** The floor: the value is read with one volatile load. */
    static final class VolatileHolder implements Supplier<Object> {
        private volatile Object value;

        @Override
        public Object get() {
            Object v = value;
            if (v == null) {
                v = init();
            }
            return v;
        }

        private synchronized Object init() {
            Object v = value;
            if (v == null) {
                value = v = new Object();
            }
            return v;
        }
    }

    /** The textbook double-checked locking idiom (Effective Java, item 83). */
    static final class DoubleCheckedLocking {
        private volatile Object value;

        Object get() {
            Object result = value;
            if (result == null) {
                synchronized (this) {
                    result = value;
                    if (result == null) {
                        value = result = new Object();
                    }
                }
            }
            return result;
        }
    }
}
