package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The life cycle of the pools: release, reboot, tune, termination, and their background threads. */
class LifecycleTest {

    private static final PoolOptions NO_PURGE = PoolOptions.builder().disablePurge(true).build();

    // ---------------------------------------------------------------- counts across a tune down

    @Test
    void freeIsNeverNegativeAboveATunedDownCapacity() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Pool pool = Pool.newPool(4, NO_PURGE);
        MultiPool mp = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN, NO_PURGE);
        CountDownLatch started = new CountDownLatch(8);
        for (int i = 0; i < 4; i++) {
            pool.execute(() -> {
                started.countDown();
                block(go);
            });
            mp.execute(() -> {
                started.countDown();
                block(go);
            });
        }
        await(started);
        pool.tune(2);
        mp.tune(1);
        assertEquals(4, pool.running());
        assertEquals(0, pool.free(), pool::toString);
        assertEquals(4, mp.running());
        assertEquals(0, mp.free(0));
        assertEquals(0, mp.free(1));
        assertEquals(0, mp.free(), "a bounded multi-pool never reports -1 (unlimited)");
        mp.tune(2);
        assertEquals(0, mp.free());
        mp.tune(3);
        assertEquals(2, mp.free(), "the sum of the parts' free slots");
        go.countDown();
        eventually("surplus workers retired", () -> pool.running() == 2, pool::toString);
        assertEquals(0, pool.free());
        pool.releaseTimeout(WAIT);
        mp.releaseTimeout(WAIT);
    }

    // ---------------------------------------------------------------- background threads

    @Test
    void interruptedPeriodicTaskParksAgain() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PeriodicTask task = PeriodicTask.start("test-periodic", TimeUnit.HOURS.toNanos(1), runs::incrementAndGet,
                System.getLogger(LifecycleTest.class.getName()));
        Thread t = task.thread();
        try {
            eventually("parked", () -> t.getState() == Thread.State.TIMED_WAITING);
            t.interrupt();
            // a busy loop never clears the flag and is mostly RUNNABLE
            eventually("interrupt consumed and parked again",
                    () -> !t.isInterrupted() && t.getState() == Thread.State.TIMED_WAITING,
                    () -> t + " interrupted=" + t.isInterrupted() + " state=" + t.getState());
            assertEquals(0, runs.get(), "the period has not passed");
        } finally {
            task.stop();
        }
        t.join(WAIT);
        assertFalse(t.isAlive(), "stop() ends the thread");
    }
}
