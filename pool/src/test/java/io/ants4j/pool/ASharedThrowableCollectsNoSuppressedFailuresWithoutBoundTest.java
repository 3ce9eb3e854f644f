package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ResourceBundle;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Contracts: Pool's javadoc, "Failures: whatever a task throws goes to the panic handler, or is logged at
 * {@code ERROR}; ... the worker goes on"; README "Failures": "A throwing thread factory, handler or logger rejects
 * or reports only what it touched"; and the rule the project applied to TaskGroup (CHANGELOG, review 37: a
 * throwable instance shared by many tasks "collected ... more in each, without bound"; now "no task's throwable is
 * changed").
 *
 * <p>TaskFailures attaches, with {@code addSuppressed}, the task's throwable to what a throwing panic handler threw,
 * and what a throwing logger threw to the task's throwable. A throwable instance that is thrown again and again (a
 * preallocated exception, a handler or logger that rethrows one constant) so collects one more suppressed throwable
 * per task failure, for the life of the JVM: memory grows without bound, and the instance the user's code owns is
 * changed by the pool. Review 40.
 */
class ASharedThrowableCollectsNoSuppressedFailuresWithoutBoundTest {

    private static final int FAILURES = 500;

    /** Runs {@code FAILURES} failing tasks one after the other; {@code reported} is released once per report. */
    private static void runFailingTasks(Pool pool, RuntimeException thrownByEachTask, Semaphore reported)
            throws Exception {
        for (int i = 0; i < FAILURES; i++) {
            RuntimeException t = thrownByEachTask != null ? thrownByEachTask : new RuntimeException("task " + i);
            pool.execute(() -> {
                throw t;
            });
            assertTrue(reported.tryAcquire(10, TimeUnit.SECONDS), "failure " + i + " not reported");
        }
    }

    @Test
    void aPanicHandlerThatThrowsOneConstantCollectsNoTaskFailures() throws Exception {
        IllegalStateException handlerConstant = new IllegalStateException("handler fault (one instance)");
        Semaphore reported = new Semaphore(0);
        PoolOptions options = PoolOptions.builder()
                .panicHandler(t -> {
                    reported.release();
                    throw handlerConstant;
                })
                .logger(new SilentLogger())
                .build();
        try (Pool pool = Pool.newPool(1, options)) {
            runFailingTasks(pool, null, reported);
        }
        int n = handlerConstant.getSuppressed().length;
        assertTrue(n < 16, "the handler's one exception instance now carries " + n
                + " suppressed task failures, one per failure, without bound");
    }

    @Test
    void aTasksSharedThrowableCollectsNoLoggerFailures() throws Exception {
        RuntimeException taskConstant = new RuntimeException("task fault (one instance)");
        Semaphore reported = new Semaphore(0);
        PoolOptions options = PoolOptions.builder()
                .logger(new ThrowingLogger())
                .threadFactory(Thread.ofVirtual().uncaughtExceptionHandler((th, e) -> reported.release()).factory())
                .build();
        try (Pool pool = Pool.newPool(1, options)) {
            runFailingTasks(pool, taskConstant, reported);
        }
        int n = taskConstant.getSuppressed().length;
        assertTrue(n < 16, "the task's one exception instance now carries " + n
                + " suppressed logger failures, one per failure, without bound");
    }

    /** Logs nothing. */
    private static class SilentLogger implements System.Logger {
        @Override
        public String getName() {
            return "silent";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        }
    }

    /** Throws a new exception for every record. */
    private static final class ThrowingLogger extends SilentLogger {
        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            throw new IllegalStateException("logger fault");
        }
    }
}
