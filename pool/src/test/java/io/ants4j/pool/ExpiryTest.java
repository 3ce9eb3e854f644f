package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When the purger retires an idle worker: never before the worker has been idle for the expiry less the
 * ticker's period (the most a stamp from the cached clock may lag), also when the ticker could not run for a
 * long while. The deterministic tests drive the ticker and purger by hand against a clock they move.
 */
class ExpiryTest {
    private static final Duration EXPIRY = Duration.ofSeconds(1);
    /** The ticker's period for that expiry: a tenth of it. */
    private static final long TICK = EXPIRY.toNanos() / 10;
    private static final long T0 = 1_000_000_000L;

    /** A clock moved by hand. */
    private static final class HandClock implements NanoClock {
        volatile long now = T0;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    /** A pool with one worker, no background threads, and the ticker and purger on {@code time}. */
    private static PoolCore pool(HandClock time, boolean preAlloc) {
        return new PoolCore("expiry", 1, PoolOptions.builder().expiryDuration(EXPIRY).disablePurge(true)
                .preAlloc(preAlloc).build(), task -> ((Runnable) task).run(), new SpinningWorkers(), time);
    }

    private static void purge(PoolCore core) {
        core.purgeStaleWorkers(new ArrayList<>());
    }

    /**
     * The worker is busy while the clock moves 5 s on and nothing ticks (every carrier held by CPU-bound tasks),
     * then goes idle stamped from the stale clock; then the ticker or the purger runs first.
     */
    @ParameterizedTest(name = "preAlloc={0}, tickerFirst={1}")
    @CsvSource({"false, false", "false, true", "true, false", "true, true"})
    void aWorkerIdleAfterTheClockStoodStillLivesOutItsExpiry(boolean preAlloc, boolean tickerFirst) {
        HandClock time = new HandClock();
        PoolCore core = pool(time, preAlloc);
        CountDownLatch go = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) () -> block(go), false, 0L));
        long idleAt = T0 + Duration.ofSeconds(5).toNanos();
        time.now = idleAt;
        go.countDown();
        eventually("the worker back on the idle queue", () -> core.queued() == 1, core::toString);
        if (tickerFirst) {
            core.tick();
        }
        purge(core);
        assertEquals(1, core.running(), "retired at once though idle for no time");
        time.now = idleAt + EXPIRY.toNanos() - TICK - 1;
        core.tick();
        purge(core);
        assertEquals(1, core.running(), "retired before idle for the expiry less a tick");
        time.now = idleAt + EXPIRY.toNanos();
        purge(core);
        assertEquals(0, core.running(), "idle for the expiry: retired");
        core.release();
    }

    /** A ticker on time changes no stamp: a worker is retired once idle for exactly the expiry. */
    @Test
    void onTimeTicksKeepTheStamps() {
        HandClock time = new HandClock();
        PoolCore core = pool(time, false);
        assertTrue(core.dispatch((Runnable) () -> { }, false, 0L));
        eventually("the worker back on the idle queue", () -> core.queued() == 1, core::toString);
        for (long t = T0 + TICK; t - T0 < EXPIRY.toNanos(); t += TICK) {
            time.now = t;
            core.tick();
            purge(core);
            assertEquals(1, core.running(), "idle for less than the expiry");
        }
        time.now = T0 + EXPIRY.toNanos();
        purge(core);
        assertEquals(0, core.running(), "idle for the expiry: retired");
        core.release();
    }

    /**
     * The same as the first test on real threads: while CPU-bound tasks hold every carrier thread for longer
     * than the expiry, neither the ticker nor the purger (virtual threads, like the workers) runs. A bounded
     * test: it can only fail if a worker is retired too early, whatever the machine's load.
     */
    @Test
    void workersIdleAfterTheCarriersWereSaturatedLiveOutTheirExpiry() throws Exception {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        Duration expiry = Duration.ofMillis(300);
        long tick = expiry.toNanos() / 10;
        Pool pool = Pool.newPool(carriers, PoolOptions.builder().expiryDuration(expiry).build());
        CountDownLatch started = new CountDownLatch(carriers);
        long burstEnd = System.nanoTime() + 3 * expiry.toNanos();
        for (int i = 0; i < carriers; i++) {
            pool.execute(() -> {
                started.countDown();
                while (System.nanoTime() - burstEnd < 0) { // holds its carrier: a spinning virtual thread never yields it
                    Thread.onSpinWait();
                }
            });
        }
        await(started);
        eventually("a worker retired", () -> pool.running() < carriers, pool::toString);
        long idleAtMost = System.nanoTime() - burstEnd; // every worker went idle after burstEnd
        assertTrue(idleAtMost >= expiry.toNanos() - tick, "a worker was retired "
                + TimeUnit.NANOSECONDS.toMillis(idleAtMost) + " ms after it went idle, expiry " + expiry);
        pool.releaseTimeout(TestSupport.WAIT);
    }
    /**
     * PeriodicTask: "a throwing action is logged and the loop goes on". With a logger that throws as well, the
     * purger and the ticker must go on all the same: their first run fails (the clock throws there once), and
     * the idle worker is still retired at its expiry.
     */
    @Test
    void purgerAndTickerOutliveAThrowingLogger() throws Exception {
        java.util.Set<String> failedOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();
        NanoClock failsOncePerBackgroundThread = () -> {
            String thread = Thread.currentThread().getName();
            if ((thread.endsWith("-purger") || thread.endsWith("-ticker")) && failedOnce.add(thread)) {
                throw new IllegalStateException("injected: the background task's action fails");
            }
            return System.nanoTime();
        };
        RecordingLogger logger = new RecordingLogger(true);
        PoolCore core = new PoolCore("throwing-logger", 2, PoolOptions.builder().expiryDuration(Duration.ofMillis(50))
                .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).logger(logger).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers(), failsOncePerBackgroundThread);
        try {
            CountDownLatch ran = new CountDownLatch(1);
            assertTrue(core.dispatch((Runnable) ran::countDown, false, 0L));
            await(ran);
            eventually("the purger and the ticker failed and logged (the logger threw)",
                    () -> failedOnce.size() == 2 && logger.thrown.size() >= 2, core::toString);
            eventually("the idle worker is retired", () -> core.running() == 0,
                    () -> core + ", background threads alive: " + core.backgroundThreads().stream()
                            .filter(Thread::isAlive).map(Thread::getName).toList());
            for (Thread t : core.backgroundThreads()) {
                assertTrue(t.isAlive(), t.getName() + " ended after its logger threw");
            }
        } finally {
            core.release();
        }
        assertTrue(core.awaitTermination(TestSupport.WAIT.toNanos()), core.toString());
    }
}
