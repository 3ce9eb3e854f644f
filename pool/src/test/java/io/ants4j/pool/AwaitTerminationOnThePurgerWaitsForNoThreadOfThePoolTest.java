package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

/**
 * The pool's logger, called on the purger thread when a run of the purger throws (injected as a clock that throws
 * once on the purger thread, as {@code APurgersLoggerThatClosesThePoolDoesNotWaitForItselfTest} does), closes the
 * pool and then asks {@code awaitTermination}: it returns true once the pool has terminated, without waiting for the
 * pool's threads, the purger among them. Another thread asking while the logger has not returned is told false,
 * since the purger is alive; once the logger returns and the purger ends, true.
 *
 * <p>Contract: {@code WorkerPool.awaitTermination}: "Called on a thread of the pool that runs no task ... it waits
 * until the pool has terminated, but not for the pool's threads to end ... so there it may return true while the
 * same call elsewhere still waits". Review 31 showed that a true answer on the purger was not, as the javadoc then
 * said, "at once until reboot()" on every thread; the javadoc now says where it is.
 */
class AwaitTerminationOnThePurgerWaitsForNoThreadOfThePoolTest {

    /** A logger that closes {@code pool} and awaits its termination (once), then waits for the test. */
    private static final class ClosingLogger extends BackgroundFailures.ReportLogger {
        final AtomicReference<WorkerPool> pool = new AtomicReference<>();
        final AtomicBoolean called = new AtomicBoolean();
        final CountDownLatch answered = new CountDownLatch(1);
        final CountDownLatch mayReturn = new CountDownLatch(1);
        final AtomicReference<Object> answer = new AtomicReference<>();

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
            WorkerPool p = pool.get();
            if (p == null || !called.compareAndSet(false, true)) {
                return;
            }
            try {
                p.close(); // the pool failed in its background: shut it down
                answer.set(p.awaitTermination(5, TimeUnit.SECONDS));
            } catch (Throwable e) {
                answer.set(e);
            } finally {
                answered.countDown();
            }
            try {
                mayReturn.await(10, TimeUnit.SECONDS); // the logger goes on with its work (flushes, say)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void onThePurgerItWaitsForTheTerminationAndElsewhereAlsoForThePurger() throws Exception {
        ClosingLogger logger = new ClosingLogger();
        NanoClock failsOnceOnThePurger = BackgroundFailures.failingOnceOn("-purger");
        PoolOptions options = PoolOptions.builder().expiryDuration(Duration.ofMillis(50))
                .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).logger(logger).build();
        Pool pool = Pool.newPool(2, options);
        BackgroundFailures.replaceCore(pool, options, failsOnceOnThePurger);
        logger.pool.set(pool);
        try {
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown); // the first worker: its kind starts purger and ticker
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            assertTrue(logger.answered.await(10, TimeUnit.SECONDS), "the logger was never called on the purger");
            assertTrue(Boolean.TRUE.equals(logger.answer.get()),
                    "awaitTermination on the purger: " + logger.answer.get());

            assertTrue(pool.isTerminated(), "awaitTermination returned true on the purger: " + pool);
            assertFalse(pool.awaitTermination(0, TimeUnit.SECONDS),
                    "on another thread, awaitTermination waits for the purger, whose logger has not returned");
        } finally {
            logger.mayReturn.countDown();
        }
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the purger ended once its logger returned: " + pool);
    }
}
