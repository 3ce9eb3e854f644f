package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.ShutdownNowLoggerFixtures.ErrorHook;
import io.ants4j.pool.ShutdownNowLoggerFixtures.FailingCloseChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A multi-pool's logger, called by {@code shutdownNow()} when an interrupt throws, that tunes the pool, while
 * another thread tunes it too.
 *
 * <p>Contracts: README "Life cycle" (README.md:329): "The pool's logger, called by shutdownNow() when an interrupt throws, runs
 * halfway through that call: from there, reboot(), close(), awaitTermination and releaseTimeout on the same pool
 * throw IllegalStateException ..., and shutdownNow() goes on" (tune is not among the refused calls, and
 * ShutdownNowLoggerOtherCallsTest: the refusal "refuses nothing else"); WorkerPool: "The transitions (release,
 * reboot, tune, and shutdownNow where there is one) are atomic with respect to each other", never a deadlock.
 *
 * <p>What happens: AbstractWorkerPool.tune takes its tuneLock, then MultiPoolCore.tune the multi-pool's lifecycle
 * lock; shutdownNow holds lifecycle while it calls the logger, whose tune() then waits for tuneLock, held by the other
 * tuner waiting for lifecycle: a lock-order deadlock; shutdownNow and both tunes never return.
 */
class ATuneFromAMultiPoolsShutdownNowLoggerDoesNotDeadlockTest {

    @Test
    void tuneFromTheLoggerInsideShutdownNowWhileAnotherThreadTunesReturns() throws Exception {
        ErrorHook logger = new ErrorHook();
        MultiPool multi = MultiPool.newMultiPool(1, 2, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        multi.execute(() -> channel.blockUntil(release));
        TestSupport.await(channel.blocked);

        CountDownLatch inLogger = new CountDownLatch(1);
        CountDownLatch otherTunerBlocked = new CountDownLatch(1);
        AtomicReference<Throwable> loggerFailed = new AtomicReference<>();
        logger.onError.set(() -> {
            inLogger.countDown();
            try {
                otherTunerBlocked.await(10, TimeUnit.SECONDS);
                multi.tune(3); // e.g. a logger that lowers the load when tasks cannot be interrupted
            } catch (Throwable t) {
                loggerFailed.set(t);
            }
        });
        Thread stopper = Thread.ofPlatform().daemon(true).start(multi::shutdownNow);
        assertTrue(inLogger.await(10, TimeUnit.SECONDS), "the logger was not called");

        Thread tuner = Thread.ofPlatform().daemon(true).start(() -> multi.tune(4));
        TestSupport.eventually("the other tuner waits for the multi-pool's transition",
                () -> tuner.getState() == Thread.State.WAITING,
                () -> "tuner " + tuner.getState() + " at " + frame(tuner) + ", stopper " + stopper.getState() + " at "
                        + frame(stopper) + ", logger calls " + logger.calls);
        otherTunerBlocked.countDown();

        stopper.join(TimeUnit.SECONDS.toMillis(5));
        tuner.join(TimeUnit.SECONDS.toMillis(1));
        boolean stopperDone = !stopper.isAlive();
        boolean tunerDone = !tuner.isAlive();
        release.countDown();
        assertTrue(stopperDone && tunerDone, "shutdownNow() returned: " + stopperDone + ", the other thread's tune(4)"
                + " returned: " + tunerDone + " (logger's tune failed: " + loggerFailed.get() + "); stopper at "
                + frame(stopper) + ", tuner at " + frame(tuner) + "; cap() " + multi.cap());
    }

    private static String frame(Thread t) {
        StackTraceElement[] st = t.getStackTrace();
        for (StackTraceElement e : st) {
            if (e.getClassName().startsWith("io.ants4j")) {
                return e.toString();
            }
        }
        return st.length == 0 ? "(ended)" : st[0].toString();
    }
}
