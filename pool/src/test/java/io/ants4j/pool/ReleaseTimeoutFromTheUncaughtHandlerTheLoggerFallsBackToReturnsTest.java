package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A task fails, the pool's logger throws, and the pool hands the task's failure to the worker thread's
 * uncaught-exception handler (README "Failures": "a logger that throws hands the failure to the worker thread's
 * uncaught-exception handler once"), set by the pool's {@code threadFactory}. That handler shuts the pool down with
 * {@code releaseTimeout}, as a handler of a dying worker may ({@code CloseFromADyingWorkersUncaughtHandlerReturnsTest}).
 *
 * <p>Contracts: {@code WorkerPool.awaitTermination} (WorkerPool.java:136) "Called on a thread of the pool that runs no
 * task (by the pool's logger on its purger or ticker, or by a worker thread's uncaught-exception handler as its
 * worker ends), it waits for every thread of the pool but that one, which cannot end while it waits", which
 * {@code releaseTimeout} (WorkerPool.java:162) follows ("but the calling thread (see awaitTermination)"). The task
 * has ended; the handler is the same handler the JDK calls as the thread dies, called by the pool, and cannot tell
 * the two apart.
 *
 * <p>What happens: the worker calling the handler is still counted in {@code running()}, so the pool cannot
 * terminate while the handler waits: releaseTimeout waits out its whole timeout and throws {@code TimeoutException}
 * ("1 worker(s) still running") though no task runs; awaitTermination likewise returns false. ({@code close()}
 * from the same place returns: it counts the worker as a closer.)
 */
class ReleaseTimeoutFromTheUncaughtHandlerTheLoggerFallsBackToReturnsTest {

    /** A logger that throws on every failure it is told of. */
    private static final class ThrowingLogger implements System.Logger {
        @Override
        public String getName() {
            return "throwing";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
            throw new IllegalStateException("injected: the logger's sink is gone");
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            throw new IllegalStateException("injected: the logger's sink is gone");
        }
    }

    @Test
    void releaseTimeoutFromTheHandlerReturnsOnceNoTaskRuns() throws Exception {
        AtomicReference<Pool> poolRef = new AtomicReference<>();
        AtomicReference<Object> outcome = new AtomicReference<>();
        CountDownLatch handled = new CountDownLatch(1);
        ThreadFactory platform = Thread.ofPlatform().daemon(true).uncaughtExceptionHandler((t, e) -> {
            try {
                poolRef.get().releaseTimeout(Duration.ofSeconds(2)); // a failure nobody could log: shut down
                outcome.set("returned");
            } catch (Throwable x) {
                outcome.set(x);
            } finally {
                handled.countDown();
            }
        }).factory();
        Pool pool = Pool.newPool(2, PoolOptions.builder().disablePurge(true).threadFactory(platform)
                .logger(new ThrowingLogger()).build());
        poolRef.set(pool);

        pool.execute(() -> {
            throw new IllegalArgumentException("injected: the task fails");
        });
        assertTrue(handled.await(10, TimeUnit.SECONDS), "the handler was never called: " + pool);
        assertTrue("returned".equals(outcome.get()), "releaseTimeout from the uncaught-exception handler the"
                + " pool's throwing logger fell back to: " + outcome.get() + "; isTerminated()=" + pool.isTerminated()
                + ", running()=" + pool.running() + "; " + pool);
    }
}
