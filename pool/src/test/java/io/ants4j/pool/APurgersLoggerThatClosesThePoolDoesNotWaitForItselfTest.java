package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pool's logger, called on the purger thread when a run of the purger throws (on a real heap, an
 * {@code OutOfMemoryError} growing its list of stale workers; injected here as a clock that throws once on the
 * purger thread, as {@code ExpiryTest} does), that closes the pool from there.
 *
 * <p>Contracts: {@code WorkerPool.close()} (WorkerPool.java:188) "Releases the pool and waits until it has
 * terminated, as ExecutorService.close() does ... Returns at once on a terminated pool"; {@code releaseTimeout}
 * (WorkerPool.java:160) "waits until every worker thread and the pool's background threads ... have ended";
 * README "Failures": the purger's failures go to the logger, and the library refuses (IllegalStateException)
 * the one other self-wait a logger can start (from shutdownNow), instead of hanging.
 *
 * <p>What happens: close() releases the pool, which records the purger thread (the caller itself) among the
 * threads awaitTermination joins, then awaitTermination joins the current thread: close() never returns (it
 * waits a day, then again), and since the purger thread never ends, no other thread's awaitTermination or
 * releaseTimeout ever succeeds either, though no task runs.
 */
class APurgersLoggerThatClosesThePoolDoesNotWaitForItselfTest {

    /** A logger that closes {@code pool} (once) when it is told of a failure, and records how that went. */
    private static final class ClosingLogger extends BackgroundFailures.ReportLogger {
        final AtomicReference<WorkerPool> pool = new AtomicReference<>();
        final AtomicBoolean called = new AtomicBoolean();
        final CountDownLatch closeCalled = new CountDownLatch(1);
        final CountDownLatch closeReturned = new CountDownLatch(1);
        final AtomicReference<Throwable> closeThrew = new AtomicReference<>();

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
            WorkerPool p = pool.get();
            if (p == null || !called.compareAndSet(false, true)) {
                return;
            }
            closeCalled.countDown();
            try {
                p.close(); // the pool failed in its background: shut it down
            } catch (Throwable e) {
                closeThrew.set(e);
            } finally {
                closeReturned.countDown();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-purger", "-ticker"})
    void closeFromABackgroundThreadsLoggerReturnsAndThePoolTerminates(String thread) throws Exception {
        ClosingLogger logger = new ClosingLogger();
        NanoClock failsOnceOnThePurger = BackgroundFailures.failingOnceOn(thread);
        PoolOptions options = PoolOptions.builder().expiryDuration(Duration.ofMillis(50))
                .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).logger(logger).build();
        Pool pool = Pool.newPool(2, options);
        BackgroundFailures.replaceCore(pool, options, failsOnceOnThePurger);
        logger.pool.set(pool);

        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown); // the first worker: its kind starts purger and ticker
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertTrue(logger.closeCalled.await(10, TimeUnit.SECONDS), "the logger was never called on the " + thread);

        boolean returned = logger.closeReturned.await(5, TimeUnit.SECONDS);
        boolean terminated = pool.awaitTermination(2, TimeUnit.SECONDS);
        String others = TestSupport.releaseTimeoutOutcome(pool);
        assertTrue(returned && terminated,
                "close() called by the pool's logger on the " + thread + " thread returned: " + returned
                        + " (threw " + logger.closeThrew.get() + "); isTerminated()=" + pool.isTerminated()
                        + ", running()=" + pool.running() + ", awaitTermination from another thread: " + terminated
                        + "; " + others + "; " + pool);
    }

    /** The same from the purger of a multi-pool's sub-pool: its close() waits for the purger that calls it. */
    @Test
    void closeFromASubPoolsPurgersLoggerReturnsAndTheMultiPoolTerminates() throws Exception {
        ClosingLogger logger = new ClosingLogger();
        NanoClock failsOnceOnThePurger = BackgroundFailures.failingOnceOn("-purger");
        PoolOptions options = PoolOptions.builder().expiryDuration(Duration.ofMillis(50))
                .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).logger(logger).build();
        MultiPool multi = MultiPool.newMultiPool(1, 2, LoadBalancing.ROUND_ROBIN, options);
        MultiPoolCore core = (MultiPoolCore) multi.core;
        Field poolsField = MultiPoolCore.class.getDeclaredField("pools");
        poolsField.setAccessible(true);
        PoolCore[] pools = (PoolCore[]) poolsField.get(core);
        Field laneField = MultiPoolCore.class.getDeclaredField("lane");
        laneField.setAccessible(true);
        Field runnerField = PoolCore.class.getDeclaredField("runner");
        runnerField.setAccessible(true);
        @SuppressWarnings("unchecked")
        Consumer<Object> runner = (Consumer<Object>) runnerField.get(pools[0]);
        PoolCore old = pools[0];
        pools[0] = new PoolCore(multi.name() + "-0", 2, options, runner, (SpinningWorkers) laneField.get(core),
                failsOnceOnThePurger);
        old.release();
        logger.pool.set(multi);

        CountDownLatch ran = new CountDownLatch(1);
        multi.execute(ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertTrue(logger.closeCalled.await(10, TimeUnit.SECONDS), "the sub-pool's purger never logged");
        boolean returned = logger.closeReturned.await(5, TimeUnit.SECONDS);
        boolean terminated = multi.awaitTermination(2, TimeUnit.SECONDS);
        assertTrue(returned && terminated,
                "close() called by the logger on a sub-pool's purger thread returned: " + returned
                        + " (threw " + logger.closeThrew.get() + "); isTerminated()=" + multi.isTerminated()
                        + ", awaitTermination from another thread: " + terminated + "; " + multi);
    }
}
