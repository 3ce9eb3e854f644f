package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 10: {@code shutdownNow} when interrupting a task throws and the pool's logger throws too. The public
 * contract (AbstractPoolExecutor#shutdownNow) says the failure is logged with the pool's logger and the call
 * returns normally; {@link Thread.UncaughtExceptionHandler} is "invoked when a Thread abruptly terminates due to
 * an uncaught exception". The thread calling {@code shutdownNow} does not terminate, so its handler must not be
 * told it died (the default handler prints {@code Exception in thread "..."} for a thread that goes on).
 */
class ShutdownNowFailingLoggerTest {

    /** A channel whose close, as an interrupt of the thread blocked on it performs it, throws. */
    private static final class FailingCloseChannel extends AbstractInterruptibleChannel {
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch closeTried = new CountDownLatch(1);

        @Override
        protected void implCloseChannel() {
            closeTried.countDown();
            throw new IllegalStateException("injected: closing the channel of an interrupted thread");
        }

        void blockingRead(CountDownLatch release) {
            begin();
            try {
                blocked.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (closeTried.getCount() > 0 && release.getCount() > 0 && System.nanoTime() < deadline) {
                    try {
                        closeTried.await(1, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        // keep blocking until the close was tried
                    }
                }
            } finally {
                try {
                    end(false);
                } catch (Exception ignored) {
                    // ClosedByInterruptException
                }
            }
        }
    }

    @Test
    void aThrowingLoggerDoesNotReportTheInterruptFailureAsTheCallersDeath() throws Exception {
        RecordingLogger logger = new RecordingLogger(true);
        Pool pool = Pool.newPool(1, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        List<Throwable> reportedAsUncaught = new CopyOnWriteArrayList<>();
        List<Throwable> thrownByShutdownNow = new CopyOnWriteArrayList<>();
        try {
            pool.execute(() -> channel.blockingRead(release));
            TestSupport.await(channel.blocked);
            Thread caller = Thread.ofPlatform().unstarted(() -> {
                try {
                    pool.shutdownNow();
                } catch (Throwable t) {
                    thrownByShutdownNow.add(t);
                }
            });
            caller.setUncaughtExceptionHandler((t, e) -> reportedAsUncaught.add(e));
            caller.start();
            caller.join(TimeUnit.SECONDS.toMillis(10));
            assertFalse(caller.isAlive(), "shutdownNow still running");
            assertTrue(channel.closeTried.await(5, TimeUnit.SECONDS), "the interrupt never tried the close");
            assertEquals(List.of(), thrownByShutdownNow, "shutdownNow \"returns normally\"");
            assertEquals(List.of(), reportedAsUncaught,
                    "the caller of shutdownNow did not terminate, yet its uncaught-exception handler was given"
                            + " the interrupt's failure (logger records: " + logger.thrown + ")");
        } finally {
            release.countDown();
            pool.release();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }
}
