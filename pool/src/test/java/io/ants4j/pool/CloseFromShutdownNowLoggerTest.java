package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code shutdownNow()} calls the pool's logger when interrupting a task throws (closing the interruptible channel
 * the task blocks on can), while its walk over the workers, or a multi-pool's over its sub-pools, is half done. A
 * logger that then waits for the pool to terminate ({@code close()}, {@code awaitTermination},
 * {@code releaseTimeout}; a supervisor hooked to pool errors, like one that reboots the pool) would wait for the
 * tasks the walk has not interrupted yet (in a multi-pool, for the sub-pools it has not closed yet), while the
 * walk waits for the logger: {@code close()} never returned. Such a call throws {@link IllegalStateException},
 * as {@code reboot()} from there does, and {@code shutdownNow} goes on: it interrupts every task, returns
 * normally (its javadoc: "An interrupt that throws ... does not stop the others: it is logged ... and this call
 * returns normally"), and the pool terminates.
 */
class CloseFromShutdownNowLoggerTest {

    /** A channel whose close, as an interrupt of the thread blocked on it performs it, throws. */
    static final class FailingCloseChannel extends AbstractInterruptibleChannel {
        final CountDownLatch blocked = new CountDownLatch(1);
        final AtomicBoolean interrupted = new AtomicBoolean();

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
                        interrupted.set(true);
                        break;
                    }
                }
            } catch (InterruptedException e) {
                interrupted.set(true);
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
    static final class ErrorHook implements System.Logger {
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

    /** A call that waits for the pool to terminate, as a logger may make it. */
    enum Wait {
        CLOSE {
            @Override
            void on(WorkerPool pool) {
                pool.close();
            }
        },
        AWAIT_TERMINATION {
            @Override
            void on(WorkerPool pool) throws InterruptedException {
                pool.awaitTermination(2, TimeUnit.SECONDS);
            }
        },
        RELEASE_TIMEOUT {
            @Override
            void on(WorkerPool pool) throws Exception {
                pool.releaseTimeout(Duration.ofSeconds(2));
            }
        };

        abstract void on(WorkerPool pool) throws Exception;
    }

    /** Makes {@code logger} run {@code wait} on {@code pool} at its first error, keeping what that threw. */
    private static AtomicReference<Throwable> waitOnError(ErrorHook logger, Wait wait, WorkerPool pool) {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        logger.onError.set(() -> {
            try {
                wait.on(pool);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        return thrown;
    }

    /** Runs {@code pool.shutdownNow()} on a thread of its own, keeping what it threw. */
    private static Thread shutdownNowOn(Runnable shutdownNow, AtomicReference<Throwable> thrown) {
        return Thread.ofPlatform().daemon(true).start(() -> {
            try {
                shutdownNow.run();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
    }

    @ParameterizedTest
    @EnumSource(Wait.class)
    void aLoggerWaitingForTheMultiPoolDuringShutdownNowIsRefusedAndEveryTaskIsInterrupted(Wait wait)
            throws Exception {
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
        AtomicReference<Throwable> waitFailed = waitOnError(logger, wait, multi);
        AtomicReference<Throwable> shutdownNowFailed = new AtomicReference<>();
        Thread stopper = shutdownNowOn(multi::shutdownNow, shutdownNowFailed);
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
        boolean terminated = multi.awaitTermination(10, TimeUnit.SECONDS);
        release.countDown();
        assertAll(
                () -> assertTrue(returned, "shutdownNow() whose logger called " + wait + " did not return within"
                        + " 10 s; multi closed: " + state + "; " + wait + " threw: " + waitFailed.get()),
                () -> assertNull(shutdownNowFailed.get(), "what shutdownNow() threw"),
                () -> assertTrue(waitFailed.get() instanceof IllegalStateException, wait + " from the logger"
                        + " threw " + waitFailed.get() + ", not IllegalStateException"),
                () -> assertTrue(channel.interrupted.get(), "the task of sub-pool 0 was interrupted"),
                () -> assertTrue(secondInterrupted.get(), "the task of sub-pool 1 was interrupted"),
                () -> assertTrue(terminated, multi::toString));
    }

    /**
     * The same for a {@link Pool} whose two tasks both block on such channels: the interrupt of whichever the walk
     * reaches first throws, and the logger's wait would wait for the other task, which only the rest of the walk
     * interrupts.
     */
    @ParameterizedTest
    @EnumSource(Wait.class)
    void aLoggerWaitingForThePoolDuringShutdownNowIsRefusedAndEveryTaskIsInterrupted(Wait wait) throws Exception {
        ErrorHook logger = new ErrorHook();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel first = new FailingCloseChannel();
        FailingCloseChannel second = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> first.blockUntil(release));
        pool.execute(() -> second.blockUntil(release));
        TestSupport.await(first.blocked);
        TestSupport.await(second.blocked);
        AtomicReference<Throwable> waitFailed = waitOnError(logger, wait, pool);
        AtomicReference<Throwable> shutdownNowFailed = new AtomicReference<>();
        Thread stopper = shutdownNowOn(pool::shutdownNow, shutdownNowFailed);
        stopper.join(TimeUnit.SECONDS.toMillis(10));
        boolean returned = !stopper.isAlive();
        String state = pool.toString();
        if (!returned) { // unstick it: the other task ends, the logger's wait returns, the walk goes on
            release.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(10));
        }
        boolean terminated = pool.awaitTermination(10, TimeUnit.SECONDS); // interrupted tasks end by themselves
        boolean firstInterrupted = first.interrupted.get();
        boolean secondInterrupted = second.interrupted.get();
        release.countDown();
        assertAll(
                () -> assertTrue(returned, "shutdownNow() whose logger called " + wait + " did not return within"
                        + " 10 s: " + state + "; " + wait + " threw: " + waitFailed.get()),
                () -> assertNull(shutdownNowFailed.get(), "what shutdownNow() threw"),
                () -> assertTrue(waitFailed.get() instanceof IllegalStateException, wait + " from the logger"
                        + " threw " + waitFailed.get() + ", not IllegalStateException"),
                () -> assertTrue(firstInterrupted && secondInterrupted, "both tasks interrupted by shutdownNow: "
                        + firstInterrupted + ", " + secondInterrupted),
                () -> assertTrue(terminated, pool::toString));
    }
}
