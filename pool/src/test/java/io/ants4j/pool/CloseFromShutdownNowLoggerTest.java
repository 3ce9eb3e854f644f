package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@code MultiPool.shutdownNow()} calls the pool's logger when interrupting a task throws (closing the
 * interruptible channel the task blocks on can), while its walk over the sub-pools is half done: sub-pool 0 is
 * closed, sub-pool 1 still open. A logger that closes the pool (a supervisor hooked to pool errors, like the one
 * that reboots it, which the pool refuses with {@code IllegalStateException}) then waits in {@code close()} for a
 * termination that cannot come: the sub-pool the walk has not reached stays open while the walk waits for the
 * logger. {@code shutdownNow}'s javadoc: "An interrupt that throws ... does not stop the others: it is logged
 * ... and this call returns normally"; here it never returns, and the task of sub-pool 1 is never interrupted.
 */
class CloseFromShutdownNowLoggerTest {

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
    private static final class ErrorHook implements System.Logger {
        final AtomicReference<Runnable> onError = new AtomicReference<>();

        @Override
        public String getName() {
            return "error-hook";
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
    void aLoggerThatClosesTheMultiPoolDuringShutdownNowLetsShutdownNowReturn() throws Exception {
        ErrorHook logger = new ErrorHook();
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondRuns = new CountDownLatch(1);
        AtomicBoolean secondInterrupted = new AtomicBoolean();
        multi.execute(() -> channel.blockUntil(release)); // sub-pool 0
        TestSupport.await(channel.blocked);
        multi.execute(() -> { // sub-pool 1: ends when interrupted
            secondRuns.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                secondInterrupted.set(true);
            }
        });
        TestSupport.await(secondRuns);
        AtomicReference<Throwable> closeFailed = new AtomicReference<>();
        logger.onError.set(() -> {
            try {
                multi.close();
            } catch (Throwable t) {
                closeFailed.set(t);
            }
        });
        Thread stopper = Thread.ofPlatform().daemon(true).start(multi::shutdownNow);
        stopper.join(TimeUnit.SECONDS.toMillis(10));
        boolean returned = !stopper.isAlive();
        String state = multi.isClosed() + ", sub-pools closed: " + Probe.cores(multi).get(0).isClosed() + ", "
                + Probe.cores(multi).get(1).isClosed() + ", running: " + multi.running(0) + ", "
                + multi.running(1) + ", task of sub-pool 1 interrupted: " + secondInterrupted.get();
        if (!returned) { // unstick it: close the sub-pool the walk did not reach and let its task end
            Probe.cores(multi).get(1).release();
            release.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(10));
        }
        release.countDown();
        assertTrue(returned, "shutdownNow() whose logger called close() did not return within 10 s; multi closed: "
                + state + "; close() threw: " + closeFailed.get());
        assertTrue(multi.awaitTermination(10, TimeUnit.SECONDS), multi::toString);
    }

    /**
     * The same for a {@link Pool} whose two tasks both block on such channels: the interrupt of whichever the walk
     * reaches first throws, the logger closes the pool, and {@code close()} waits for the other task, which only
     * the rest of the walk would interrupt.
     */
    @Test
    void aLoggerThatClosesThePoolDuringShutdownNowLetsShutdownNowReturn() throws Exception {
        ErrorHook logger = new ErrorHook();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel first = new FailingCloseChannel();
        FailingCloseChannel second = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> first.blockUntil(release));
        pool.execute(() -> second.blockUntil(release));
        TestSupport.await(first.blocked);
        TestSupport.await(second.blocked);
        AtomicReference<Throwable> closeFailed = new AtomicReference<>();
        logger.onError.set(() -> {
            try {
                pool.close();
            } catch (Throwable t) {
                closeFailed.set(t);
            }
        });
        Thread stopper = Thread.ofPlatform().daemon(true).start(pool::shutdownNow);
        stopper.join(TimeUnit.SECONDS.toMillis(10));
        boolean returned = !stopper.isAlive();
        String state = pool.toString();
        release.countDown(); // unsticks it if it hangs: the other task ends, close() returns, the walk goes on
        stopper.join(TimeUnit.SECONDS.toMillis(10));
        assertTrue(returned, "shutdownNow() whose logger called close() did not return within 10 s: " + state
                + "; close() threw: " + closeFailed.get());
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool::toString);
    }
}
