package io.ants4j.pool;

import java.lang.reflect.Field;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.agrona.concurrent.NanoClock;

/**
 * Makes a run of a pool's purger or ticker fail, as an {@code OutOfMemoryError} there would: the pool then reports
 * it to its logger on that thread. For the tests of what a logger may do from there.
 */
final class BackgroundFailures {
    private BackgroundFailures() {
    }

    /**
     * A clock that throws once on each thread whose name ends with one of {@code threadSuffixes} ({@code "-purger"},
     * {@code "-ticker"}), and reads {@link System#nanoTime()} otherwise.
     */
    static NanoClock failingOnceOn(String... threadSuffixes) {
        Set<String> armed = ConcurrentHashMap.newKeySet();
        armed.addAll(Set.of(threadSuffixes));
        return () -> {
            String name = Thread.currentThread().getName();
            for (String suffix : threadSuffixes) {
                if (name.endsWith(suffix) && armed.remove(suffix)) {
                    throw new IllegalStateException("injected: a run of " + name + " fails (as an OutOfMemoryError would)");
                }
            }
            return System.nanoTime();
        };
    }

    /** Puts a core of the same name and options (capacity 2), whose purger and ticker read {@code clock}, under {@code pool}. */
    static void replaceCore(Pool pool, PoolOptions options, NanoClock clock) throws ReflectiveOperationException {
        Field coreField = AbstractWorkerPool.class.getDeclaredField("core");
        coreField.setAccessible(true);
        PoolCore old = (PoolCore) coreField.get(pool);
        Field runnerField = PoolCore.class.getDeclaredField("runner");
        runnerField.setAccessible(true);
        @SuppressWarnings("unchecked")
        Consumer<Object> runner = (Consumer<Object>) runnerField.get(old);
        coreField.set(pool, new PoolCore(pool.name(), 2, options, runner, new SpinningWorkers(), clock));
        old.release();
    }

    /**
     * A logger that acts on what the pool reports with a throwable ({@link #log(Level, ResourceBundle, String,
     * Throwable)}, what a failed run of the purger or ticker is logged with) and ignores the rest.
     */
    abstract static class ReportLogger implements System.Logger {
        @Override
        public String getName() {
            return getClass().getSimpleName();
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        }
    }
}
