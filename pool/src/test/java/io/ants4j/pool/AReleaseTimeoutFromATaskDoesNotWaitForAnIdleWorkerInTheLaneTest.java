package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link WorkerPool#releaseTimeout}, called by a task, waits "for the other tasks but those closing the pool", and
 * {@link WorkerPool#idle()} counts a worker that spins in the fast lane as idle: a task that calls
 * {@code releaseTimeout(Duration.ZERO)} while the pool's only other worker is idle in the lane has no other task to
 * wait for and returns normally, in a {@code Pool} and in a {@code MultiPool} whose other sub-pool's worker spins in
 * the shared lane. Each case runs many times, since the lane worker may be caught spinning, withdrawing or retired.
 */
@Timeout(120)
class AReleaseTimeoutFromATaskDoesNotWaitForAnIdleWorkerInTheLaneTest {
    private static final int TRIES = 100;

    /** A pool of two whose first task waits for {@code go} and then releases the pool; its second is short. */
    private interface Fixture {
        /** Builds the pool, the lane its workers spin in for ever (but once it is closed), and runs the two tasks. */
        SpinningWorkers start(int i, Runnable closer, Runnable shortTask) throws Exception;

        void releaseTimeoutZero() throws TimeoutException, InterruptedException;

        boolean terminated();
    }

    @Test
    void aTasksReleaseTimeoutZeroIgnoresAWorkerIdleInTheLane() throws Exception {
        assertNoTimeout(true, poolCore(Integer.MAX_VALUE)); // spins until a payload or the close
    }

    @Test
    void aMultiPoolTasksReleaseTimeoutZeroIgnoresAnotherSubPoolsWorkerIdleInTheSharedLane() throws Exception {
        assertNoTimeout(true, new Fixture() {
            private MultiPool mp;

            @Override
            public SpinningWorkers start(int i, Runnable closer, Runnable shortTask) throws Exception {
                PoolOptions options = PoolOptions.builder().disablePurge(true)
                        .threadFactory(Thread.ofPlatform().daemon(true).factory()).build();
                mp = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options);
                SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
                SubPools.shareLane(mp, 1, options, lane);
                mp.execute(closer); // round robin: one sub-pool, then the other
                mp.execute(shortTask);
                return lane;
            }

            @Override
            public void releaseTimeoutZero() throws TimeoutException, InterruptedException {
                mp.releaseTimeout(Duration.ZERO);
            }

            @Override
            public boolean terminated() {
                return mp.isTerminated();
            }
        });
    }

    /** Control: the same with the other worker idle on the idle queue (a lane of one spin). */
    @Test
    void controlATasksReleaseTimeoutZeroIgnoresAWorkerIdleOnTheQueue() throws Exception {
        assertNoTimeout(false, poolCore(1));
    }

    /** A pool of two whose lane worker spins {@code spins} times; with one spin, it is waited for on the queue. */
    private static Fixture poolCore(int spins) {
        return new Fixture() {
            private PoolCore core;

            @Override
            public SpinningWorkers start(int i, Runnable closer, Runnable shortTask) {
                SpinningWorkers lane = new SpinningWorkers(spins);
                core = new PoolCore("lane-" + i, 2, PoolOptions.defaults(), t -> ((Runnable) t).run(), lane);
                core.dispatch(closer, false, 0L);
                core.dispatch(shortTask, false, 0L);
                if (spins == 1) {
                    eventually("the second worker idles on the queue", () -> core.queued() == 1);
                }
                return lane;
            }

            @Override
            public void releaseTimeoutZero() throws TimeoutException, InterruptedException {
                core.release();
                core.awaitReleased(Duration.ZERO);
            }

            @Override
            public boolean terminated() {
                return core.isTerminated();
            }
        };
    }

    private static void assertNoTimeout(boolean inLane, Fixture fixture) throws Exception {
        int timedOut = 0;
        for (int i = 0; i < TRIES; i++) {
            eventually("no worker of another pool in a lane", () -> SpinningWorkers.inLanes() == 0);
            CountDownLatch closerRunning = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            CountDownLatch ran = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            SpinningWorkers lane = fixture.start(i, () -> {
                closerRunning.countDown();
                await(go);
                try {
                    fixture.releaseTimeoutZero();
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    done.countDown();
                }
            }, ran::countDown);
            await(closerRunning);
            await(ran);
            if (inLane) {
                eventually("the second worker idles in the lane", lane::hasSpinner);
            }
            go.countDown();
            await(done);
            if (thrown.get() instanceof TimeoutException) {
                timedOut++;
            } else if (thrown.get() != null) {
                throw new AssertionError(thrown.get());
            }
            eventually("terminated", fixture::terminated);
        }
        assertEquals(0, timedOut, "releaseTimeout(ZERO) from a task, with no other task running (the other worker"
                + " idle " + (inLane ? "in the fast lane" : "on the queue") + "), threw TimeoutException in "
                + timedOut + " of " + TRIES + " tries");
    }
}
