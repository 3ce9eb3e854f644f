package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@code MultiPool.shutdownNow()} runs user code while it holds the multi-pool's life-cycle lock and a
 * sub-pool's stop lock: the pool's logger, told that interrupting a task threw (closing the interruptible channel
 * the task blocks on can throw; {@code shutdownNow}'s javadoc says the failure is logged at {@code ERROR}). Both
 * locks are reentrant, so a logger that reboots the pool (say, a supervisor hooked to pool errors) reboots it in
 * the middle of the {@code shutdownNow}: the rest of the walk then closes the other sub-pool, and the multi-pool
 * is left open with a closed sub-pool. {@code WorkerPool}: "The transitions ... are atomic with respect to each
 * other, also across the sub-pools of a multi-pool."
 */
class RebootFromShutdownNowLoggerTest {

    /** A channel whose close, as an interrupt of the thread blocked on it performs it, throws. */
    private static final class FailingCloseChannel extends AbstractInterruptibleChannel {
        final CountDownLatch blocked = new CountDownLatch(1);

        @Override
        protected void implCloseChannel() {
            throw new IllegalStateException("injected: closing the channel of an interrupted thread");
        }

        void blockUntil(CountDownLatch release) {
            begin();
            try {
                blocked.countDown();
                // polls: an interrupt whose channel close throws sets the status but does not unpark the thread
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!release.await(1, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
                    if (Thread.currentThread().isInterrupted()) {
                        break;
                    }
                }
            } catch (InterruptedException e) {
                // interrupted by shutdownNow
            } finally {
                try {
                    end(false);
                } catch (Exception ignored) {
                    // ClosedByInterruptException
                }
            }
        }
    }

    /** A logger that runs {@code onError} the first time it logs at {@code ERROR}. */
    private static final class RebootingLogger implements System.Logger {
        final AtomicReference<Runnable> onError = new AtomicReference<>();

        @Override
        public String getName() {
            return "rebooting";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            error(level);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            error(level);
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier, Throwable thrown) {
            error(level);
        }

        private void error(Level level) {
            Runnable r = level == Level.ERROR ? onError.getAndSet(null) : null;
            if (r != null) {
                r.run();
            }
        }
    }

    @Test
    void aLoggerThatRebootsDuringShutdownNowLeavesNoOpenMultiPoolWithAClosedSubPool() throws Exception {
        RebootingLogger logger = new RebootingLogger();
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondRuns = new CountDownLatch(1);
        try {
            multi.execute(() -> channel.blockUntil(release)); // sub-pool 0
            TestSupport.await(channel.blocked);
            multi.execute(() -> { // sub-pool 1
                secondRuns.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // interrupted by shutdownNow
                }
            });
            TestSupport.await(secondRuns);
            assertTrue(multi.running(0) == 1 && multi.running(1) == 1, multi::toString);
            AtomicReference<Throwable> refused = new AtomicReference<>();
            logger.onError.set(() -> rebootRefused(multi, refused));
            multi.shutdownNow();
            assertTrue(logger.onError.get() == null, "the logger was not called");
            assertTrue(refused.get() instanceof IllegalStateException,
                    () -> "the logger's reboot was not refused with IllegalStateException but " + refused.get());
            String state = multi.isClosed() + ", sub-pools closed: " + Probe.cores(multi).get(0).isClosed() + ", "
                    + Probe.cores(multi).get(1).isClosed();
            if (!multi.isClosed()) { // the reboot counts: the multi-pool is open, so each sub-pool must be
                for (int i = 0; i < 2; i++) { // round robin from sub-pool 0 again after the reboot
                    try {
                        multi.execute(() -> { });
                    } catch (PoolClosedException e) {
                        fail("an open multi-pool (isClosed() false) refused task " + i
                                + " with PoolClosedException; closed: " + state);
                    }
                }
            }
        } finally {
            release.countDown();
            multi.release();
            assertTrue(multi.awaitTermination(10, TimeUnit.SECONDS), multi::toString);
        }
    }

    /**
     * The same for a {@link Pool}: its logger, told by {@code shutdownNow} that an interrupt threw, cannot reboot
     * the pool halfway through the walk (which would go on to interrupt the reopened pool's workers); the pool stays
     * closed and terminates.
     */
    @Test
    void aLoggerCannotRebootAPoolDuringItsShutdownNow() throws Exception {
        RebootingLogger logger = new RebootingLogger();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> channel.blockUntil(release));
            TestSupport.await(channel.blocked);
            AtomicReference<Throwable> refused = new AtomicReference<>();
            logger.onError.set(() -> rebootRefused(pool, refused));
            pool.shutdownNow();
            assertTrue(logger.onError.get() == null, "the logger was not called");
            assertTrue(refused.get() instanceof IllegalStateException,
                    () -> "the logger's reboot was not refused with IllegalStateException but " + refused.get());
            assertTrue(pool.isClosed(), pool::toString);
        } finally {
            release.countDown();
            pool.release();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool::toString);
        }
    }

    /** Reboots {@code pool}, keeping what it threw, if anything. */
    private static void rebootRefused(WorkerPool pool, AtomicReference<Throwable> refused) {
        try {
            pool.reboot();
        } catch (Throwable t) {
            refused.set(t);
        }
    }
}
