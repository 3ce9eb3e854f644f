package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

/**
 * A run of the purger and a run of the ticker both fail (on a full heap both do; injected as a clock that throws
 * once on each, as {@code APurgersLoggerThatClosesThePoolDoesNotWaitForItselfTest} does), and the pool's logger,
 * called on each of the two threads, closes the pool, as that test's logger does ("the pool failed in its
 * background: shut it down"). A task still runs when they close it.
 *
 * <p>Contracts: {@code WorkerPool.close()} (WorkerPool.java:190) "Releases the pool and waits until it has
 * terminated ... Called on another thread of the pool (see awaitTermination), it waits for every thread of the pool
 * but that one"; {@code awaitTermination} (WorkerPool.java:136) "Called on a thread of the pool that runs no task (by
 * the pool's logger on its purger or ticker ...), it waits for every thread of the pool but that one, which cannot
 * end while it waits".
 *
 * <p>What happens: the close() on the purger joins the ticker, which waits in its own close() for the purger: once
 * the task ends and the pool has terminated, neither close() ever returns, and nobody's awaitTermination succeeds.
 * The logger holds each call until both have begun, the order two failures at the same moment take.
 */
class APurgerAndATickerWhoseLoggerClosesThePoolBothReturnTest {

    private static final class ClosingLogger extends BackgroundFailures.ReportLogger {
        final AtomicReference<WorkerPool> pool = new AtomicReference<>();
        final CountDownLatch entered = new CountDownLatch(2);
        final CountDownLatch returned = new CountDownLatch(2);
        final List<Thread> callers = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> threw = new AtomicReference<>();

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
            WorkerPool p = pool.get();
            if (p == null) {
                return;
            }
            callers.add(Thread.currentThread());
            entered.countDown();
            try {
                entered.await(10, TimeUnit.SECONDS); // both runs have failed before either closes
                p.close();
                returned.countDown();
            } catch (Throwable e) {
                threw.set(e);
            }
        }
    }

    @Test
    void closeFromTheLoggerOnPurgerAndTickerReturnsOnBoth() throws Exception {
        ClosingLogger logger = new ClosingLogger();
        NanoClock failsOnceOnEach = BackgroundFailures.failingOnceOn("-purger", "-ticker");
        PoolOptions options = PoolOptions.builder().expiryDuration(Duration.ofMillis(50))
                .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).logger(logger).build();
        Pool pool = Pool.newPool(2, options);
        BackgroundFailures.replaceCore(pool, options, failsOnceOnEach);
        logger.pool.set(pool);

        CountDownLatch taskMayEnd = new CountDownLatch(1);
        pool.execute(() -> { // the first worker: its kind starts purger and ticker; it runs while they close
            try {
                taskMayEnd.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertTrue(logger.entered.await(10, TimeUnit.SECONDS), "purger and ticker did not both fail: " + pool);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!(waitsForTermination(logger.callers.get(0)) && waitsForTermination(logger.callers.get(1)))) {
                assertTrue(System.nanoTime() - deadline < 0, "the loggers never waited in close(): " + pool);
                Thread.onSpinWait();
            }
        } finally {
            taskMayEnd.countDown();
        }
        boolean returned = logger.returned.await(5, TimeUnit.SECONDS);
        boolean terminated = pool.awaitTermination(1, TimeUnit.SECONDS);
        assertTrue(returned && terminated, "close() from the logger on purger and ticker: "
                + (2 - logger.returned.getCount()) + " of 2 returned (threw " + logger.threw.get() + "); isTerminated()="
                + pool.isTerminated() + ", awaitTermination from another thread: " + terminated + "; " + pool);
    }

    /** Whether {@code t} is parked inside the pool's awaitTermination. */
    private static boolean waitsForTermination(Thread t) {
        Thread.State s = t.getState();
        if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getMethodName().equals("awaitTermination") && e.getClassName().endsWith("PoolCore")) {
                return true;
            }
        }
        return false;
    }
}
