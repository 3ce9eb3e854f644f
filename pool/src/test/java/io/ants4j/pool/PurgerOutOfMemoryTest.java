package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

/**
 * The purger running out of memory while it records the stale workers: every worker keeps its count until it
 * is retired, and every worker retired is told to stop. The failure is injected in the purger's list where a
 * real one allocates; the clock is driven by hand; every wait is bounded.
 */
class PurgerOutOfMemoryTest {
    private static final long WAIT_MS = 10_000;
    private static final Duration EXPIRY = Duration.ofSeconds(1);
    private static final long T0 = 1_000_000_000L;

    private static final class HandClock implements NanoClock {
        volatile long now = T0;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    /** Daemon platform workers: deterministic, and a leaked one never keeps the JVM alive. */
    private static final ThreadFactory PLATFORM = r -> Thread.ofPlatform().daemon(true).unstarted(r);

    /**
     * The purger's list of stale workers, as an {@code ArrayList} that runs out of memory where a real one
     * allocates: when it must grow past its first 10 elements.
     */
    private static final class OutOfMemoryOnGrowth extends ArrayList<Worker> {
        @Override
        public boolean add(Worker w) {
            if (size() == 10) {
                throw new OutOfMemoryError("Java heap space (injected: ArrayList growth in the purger)");
            }
            return super.add(w);
        }
    }

    private static void eventually(String what, BooleanSupplier cond, Object state) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for: " + what + " " + state);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static void awaitLatch(CountDownLatch l) {
        try {
            assertTrue(l.await(WAIT_MS, TimeUnit.MILLISECONDS), "latch still at " + l.getCount());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        }
    }

    private static void blockOn(CountDownLatch l) {
        try {
            l.await(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A pool of {@code n} platform workers, all idle on the queue, purger driven by hand against {@code time}. */
    private static PoolCore poolWithIdleWorkers(HandClock time, int n, boolean preAlloc) {
        PoolCore core = new PoolCore("purger-oom", n, PoolOptions.builder().expiryDuration(EXPIRY).disablePurge(true)
                .preAlloc(preAlloc).threadFactory(PLATFORM).build(), task -> ((Runnable) task).run(),
                new SpinningWorkers(), time);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            assertTrue(core.dispatch((Runnable) () -> {
                started.countDown();
                blockOn(go);
            }, false, 0L));
        }
        awaitLatch(started);
        go.countDown();
        eventually("every worker idle on the queue", () -> core.queued() == n, core);
        return core;
    }

    /** Ticks once on time (stamps stay as taken), then moves the clock two expiries on: every idle worker stale. */
    private static void ageIdleWorkers(HandClock time, PoolCore core) {
        time.now = T0 + EXPIRY.toNanos() / 10;
        core.tick();
        time.now = T0 + 2 * EXPIRY.toNanos();
    }

    // ------------------------------------------------------------------ purger out of memory (WorkerStack)

    /**
     * PoolCore's notes: "every worker taken off the queue gives back its count here, even if refresh ran out of
     * memory"; Pool: "at most cap() workers alive at once". WorkerStack.refresh appends the expired workers to
     * the list before it cuts them off the stack, so an OutOfMemoryError growing the list leaves them on the
     * idle stack while the purger's finally gives back their counts: running() drops below the live workers
     * and the pool then runs more tasks at once than its capacity.
     */
    @Test
    void purgerOutOfMemoryKeepsTheCountOfEveryIdleWorker() {
        HandClock time = new HandClock();
        int cap = 11;
        PoolCore core = poolWithIdleWorkers(time, cap, false);
        ageIdleWorkers(time, core);
        assertThrows(OutOfMemoryError.class, () -> core.purgeStaleWorkers(new OutOfMemoryOnGrowth()));
        int running = core.running();
        int queued = core.queued();
        // the user-visible effect: tasks that may run at once in a pool of capacity 11
        CountDownLatch go = new CountDownLatch(1);
        int accepted = 0;
        try {
            for (int i = 0; i < cap + 1; i++) {
                if (core.dispatch((Runnable) () -> blockOn(go), true, 0L)) {
                    accepted++;
                }
            }
        } finally {
            go.countDown();
        }
        assertTrue(queued <= running && accepted <= cap,
                "after an OutOfMemoryError in the purger: running()=" + running + " but " + queued
                        + " workers idle on the queue; " + accepted + " tasks ran at once in a pool of capacity "
                        + cap);
    }

    // ------------------------------------------------------------------ purger out of memory (LoopQueue)

    /**
     * Same failure with preAlloc (LoopQueue): the workers cut off the ring before the OutOfMemoryError are given
     * back, but the exception skips the loop that sends them STOP, so their threads park for ever: the pool
     * never terminates in awaitTermination's sense ("every thread of it has ended"), and releaseTimeout times
     * out, though no task runs.
     */
    @Test
    void purgerOutOfMemoryStillStopsTheWorkersItRetired() throws Exception {
        HandClock time = new HandClock();
        PoolCore core = poolWithIdleWorkers(time, 11, true);
        ageIdleWorkers(time, core);
        assertThrows(OutOfMemoryError.class, () -> core.purgeStaleWorkers(new OutOfMemoryOnGrowth()));
        core.release();
        assertEquals(0, core.running(), core.toString());
        assertTrue(core.awaitTermination(TimeUnit.SECONDS.toNanos(3)),
                "the workers the purger retired before running out of memory were never stopped: "
                        + "awaitTermination false with no task running, " + core);
    }
}
