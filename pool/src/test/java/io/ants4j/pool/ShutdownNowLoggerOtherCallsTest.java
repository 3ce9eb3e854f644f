package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.ShutdownNowLoggerFixtures.ErrorHook;
import io.ants4j.pool.ShutdownNowLoggerFixtures.FailingCloseChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The refusal of {@code close()}, {@code awaitTermination} and {@code releaseTimeout} from inside a pool's own
 * {@code shutdownNow} (WorkerPool javadoc: "if called from inside a shutdownNow of this pool on the same thread")
 * refuses nothing else: the same calls on another pool from that logger, on this pool from another thread while the
 * logger runs, and on this pool from the same thread once {@code shutdownNow} has returned, wait as always.
 * {@link CloseFromShutdownNowLoggerTest} tests only the refusal.
 */
class ShutdownNowLoggerOtherCallsTest {

    @Test
    void theLoggerClosesAnotherPoolAndAnotherThreadWaitsForThisOneWhileTheLoggerRuns() throws Exception {
        ErrorHook logger = new ErrorHook();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).build());
        Pool other = Pool.newPool(1);
        CountDownLatch otherRan = new CountDownLatch(1);
        other.execute(otherRan::countDown);
        TestSupport.await(otherRan);
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        pool.execute(() -> channel.blockUntil(release));
        TestSupport.await(channel.blocked);
        CountDownLatch inLogger = new CountDownLatch(1);
        CountDownLatch leaveLogger = new CountDownLatch(1);
        AtomicReference<Throwable> loggerFailed = new AtomicReference<>();
        AtomicBoolean otherTerminated = new AtomicBoolean();
        logger.onError.set(() -> {
            try {
                other.close(); // another pool: waits, and returns once it has terminated
                otherTerminated.set(other.isTerminated());
                inLogger.countDown();
                leaveLogger.await(10, TimeUnit.SECONDS);
            } catch (Throwable t) {
                loggerFailed.set(t);
                inLogger.countDown();
            }
        });
        AtomicReference<Throwable> shutdownNowFailed = new AtomicReference<>();
        Thread stopper = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                pool.shutdownNow();
            } catch (Throwable t) {
                shutdownNowFailed.set(t);
            }
        });
        assertTrue(inLogger.await(10, TimeUnit.SECONDS), "the logger was not called: " + pool);
        // another thread, while the logger runs inside shutdownNow: waits, is not refused (the interrupted task
        // ends by itself, so the pool terminates while the logger still holds shutdownNow up)
        AtomicReference<Object> awaited = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                awaited.set(pool.awaitTermination(10, TimeUnit.SECONDS));
            } catch (Throwable t) {
                awaited.set(t);
            }
        });
        waiter.join(TimeUnit.SECONDS.toMillis(15));
        boolean stopperInLogger = stopper.isAlive();
        leaveLogger.countDown();
        stopper.join(TimeUnit.SECONDS.toMillis(10));
        release.countDown();
        Object awaitedOutcome = awaited.get();
        // the thread that ran shutdownNow, after it returned: close() waits as always
        AtomicReference<Throwable> closeAfter = new AtomicReference<>();
        try {
            pool.close();
        } catch (Throwable t) {
            closeAfter.set(t);
        }
        assertAll(
                () -> assertNull(loggerFailed.get(), "what the logger's close() of another pool threw"),
                () -> assertTrue(otherTerminated.get(), "the other pool after the logger closed it: " + other),
                () -> assertTrue(!stopper.isAlive() && shutdownNowFailed.get() == null,
                        "shutdownNow returned normally: alive=" + stopper.isAlive() + ", threw " + shutdownNowFailed.get()),
                () -> assertTrue(stopperInLogger, "shutdownNow was still in its logger while the other thread waited"),
                () -> assertTrue(Boolean.TRUE.equals(awaitedOutcome), "awaitTermination from another thread while the"
                        + " logger ran: " + awaitedOutcome + "; " + pool),
                () -> assertTrue(channel.interrupted.get(), "the task was interrupted"),
                () -> assertNull(closeAfter.get(), "close() on the same thread after shutdownNow returned"),
                () -> assertTrue(pool.isTerminated(), pool::toString));
    }
}
