package io.ants4j.pool;

import static io.ants4j.pool.LaneFixtures.awaitTerminationFreeingTheSpinner;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The sub-pools of a multi-pool share one fast lane (MultiPool: "a task may run on a worker of another sub-pool
 * that has just finished a task and spins there for the next, counted in that worker's sub-pool (no worker is
 * started for it; each sub-pool stays within its capacity)"): round robin picks sub-pool 1 for the second task,
 * and sub-pool 0's worker, spinning in the lane after the first, runs it; sub-pool 1 starts no worker.
 *
 * <p>To make it deterministic the sub-pools are replaced by ones sharing a lane whose worker does not withdraw
 * (the spin budget is a timing parameter only).
 */
class MultiPoolSharedLaneTest {

    @Test
    void aTaskForOneSubPoolRunsOnAnotherSubPoolsWorkerSpinningInTheSharedLane() throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).factory()).build();
        MultiPool mp = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        SubPools.shareLane(mp, 1, options, lane);

        AtomicReference<Thread> firstRanIn = new AtomicReference<>();
        AtomicReference<Thread> secondRanIn = new AtomicReference<>();
        CountDownLatch firstRan = new CountDownLatch(1);
        CountDownLatch secondRan = new CountDownLatch(1);
        mp.execute(() -> { // round robin: sub-pool 0
            firstRanIn.set(Thread.currentThread());
            firstRan.countDown();
        });
        await(firstRan);
        eventually("sub-pool 0's worker spinning in the lane after its task", lane::hasSpinner, mp::toString);
        mp.execute(() -> { // round robin: sub-pool 1
            secondRanIn.set(Thread.currentThread());
            secondRan.countDown();
        });
        await(secondRan);
        int running0 = mp.running(0);
        int running1 = mp.running(1);

        mp.release();
        awaitTerminationFreeingTheSpinner(lane, mp::isTerminated, mp::toString);
        assertTrue(mp.awaitTermination(10, TimeUnit.SECONDS), "not terminated: " + mp);
        assertAll(
                () -> assertSame(firstRanIn.get(), secondRanIn.get(), "the second task ran on sub-pool 0's worker"),
                () -> assertEquals(1, running0, "counted in sub-pool 0, the worker's"),
                () -> assertEquals(0, running1, "sub-pool 1 started no worker for it"));
    }
}
