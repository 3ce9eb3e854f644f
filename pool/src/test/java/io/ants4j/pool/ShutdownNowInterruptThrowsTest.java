package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code Thread.interrupt()} can throw (what closing the interruptible channel the thread is blocked on
 * throws, other than an {@code IOException}; the TaskGroup javadoc says so and TaskGroup copes). The pools'
 * {@code shutdownNow} and {@code close} must still interrupt every running task, close every sub-pool, and wait.
 */
class ShutdownNowInterruptThrowsTest {

    /** A channel whose close, as an interrupt of the thread blocked on it performs it, throws. */
    private static final class FailingCloseChannel extends AbstractInterruptibleChannel {
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch closeTried = new CountDownLatch(1);

        @Override
        protected void implCloseChannel() {
            closeTried.countDown();
            throw new IllegalStateException("injected: closing the channel of an interrupted thread");
        }

        /** Blocks "in I/O" until an interrupt has tried to close the channel, or {@code release} opens. */
        void blockingRead(CountDownLatch interrupted, CountDownLatch release) {
            begin();
            try {
                blocked.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                boolean seen = false;
                while (closeTried.getCount() > 0 && release.getCount() > 0 && System.nanoTime() < deadline) {
                    try {
                        closeTried.await(1, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        if (!seen) {
                            seen = true;
                            interrupted.countDown();
                        }
                    }
                }
                if (!seen && Thread.interrupted()) {
                    interrupted.countDown();
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

    /** A task that waits, interruptibly, until interrupted or released. */
    private static Runnable plainWait(CountDownLatch running, CountDownLatch interrupted, CountDownLatch release) {
        return () -> {
            running.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
        };
    }

    @Test
    void poolShutdownNowInterruptsEveryRunningTaskWhenOneInterruptThrows() throws Exception {
        RecordingLogger logger = new RecordingLogger();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel a = new FailingCloseChannel();
        FailingCloseChannel b = new FailingCloseChannel();
        CountDownLatch interrupted = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> a.blockingRead(interrupted, release));
            pool.execute(() -> b.blockingRead(interrupted, release));
            TestSupport.await(a.blocked);
            TestSupport.await(b.blocked);
            Throwable thrown = null;
            try {
                pool.shutdownNow();
            } catch (RuntimeException | Error e) {
                thrown = e;
            }
            assertTrue(interrupted.await(5, TimeUnit.SECONDS),
                    "shutdownNow \"interrupts the running tasks\": " + interrupted.getCount()
                            + " of 2 tasks never interrupted; shutdownNow threw " + thrown);
            assertNull(thrown, "shutdownNow \"returns normally\" when an interrupt throws");
            assertTrue(logger.thrown.stream().anyMatch(t -> t instanceof IllegalStateException)
                    && logger.levels.contains(System.Logger.Level.ERROR),
                    "the interrupt's failure is logged at ERROR: " + logger.thrown);
        } finally {
            release.countDown();
            pool.release();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void multiPoolShutdownNowClosesEverySubPoolWhenAnInterruptThrows() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN);
        FailingCloseChannel a = new FailingCloseChannel();
        CountDownLatch interrupted = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondRunning = new CountDownLatch(1);
        try {
            pool.execute(() -> a.blockingRead(interrupted, release)); // sub-pool 0
            TestSupport.await(a.blocked);
            pool.execute(plainWait(secondRunning, interrupted, release)); // sub-pool 1
            TestSupport.await(secondRunning);
            assertEquals(1, pool.running(0));
            assertEquals(1, pool.running(1));
            Throwable thrown = null;
            try {
                pool.shutdownNow();
            } catch (RuntimeException | Error e) {
                thrown = e;
            }
            boolean allInterrupted = interrupted.await(5, TimeUnit.SECONDS);
            release.countDown();
            boolean terminated = pool.awaitTermination(5, TimeUnit.SECONDS);
            assertTrue(allInterrupted && terminated,
                    "shutdownNow: every running task interrupted " + allInterrupted + ", terminated once the tasks"
                            + " ended " + terminated + " (" + pool + "; shutdownNow threw " + thrown + ")");
        } finally {
            release.countDown();
            pool.release();
            pool.shutdownNow();
        }
    }

    @Test
    void closeWhenInterruptedWaitsForTerminationAlsoWhenInterruptingATaskThrows() throws Exception {
        Pool pool = Pool.newPool(1);
        FailingCloseChannel a = new FailingCloseChannel();
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> terminatedOnReturn = new AtomicReference<>();
        AtomicReference<Boolean> interruptStatusOnReturn = new AtomicReference<>();
        try {
            pool.execute(() -> a.blockingRead(interrupted, release));
            TestSupport.await(a.blocked);
            Thread closer = Thread.ofPlatform().start(() -> {
                Thread.currentThread().interrupt();
                try {
                    pool.close();
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    terminatedOnReturn.set(pool.isTerminated());
                    interruptStatusOnReturn.set(Thread.currentThread().isInterrupted());
                }
            });
            closer.join(TimeUnit.SECONDS.toMillis(10));
            assertTrue(!closer.isAlive(), "close() still waiting");
            assertNull(thrown.get(), "close() threw instead of waiting for termination; terminated when it threw: "
                    + terminatedOnReturn.get());
            assertTrue(terminatedOnReturn.get(), "close() returned before the pool terminated");
            assertTrue(interruptStatusOnReturn.get(), "close() returned without the interrupt status");
        } finally {
            release.countDown();
            pool.release();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * With a logger that throws too, the interrupt's failure is dropped: the caller of {@code shutdownNow} did not
     * terminate, so its uncaught-exception handler ("invoked when a Thread abruptly terminates") is not told.
     */
    @Test
    void aThrowingLoggerDoesNotReportTheInterruptFailureAsTheCallersDeath() throws Exception {
        RecordingLogger logger = new RecordingLogger(true);
        Pool pool = Pool.newPool(1, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        List<Throwable> reportedAsUncaught = new CopyOnWriteArrayList<>();
        List<Throwable> thrownByShutdownNow = new CopyOnWriteArrayList<>();
        try {
            pool.execute(() -> channel.blockingRead(new CountDownLatch(1), release));
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
