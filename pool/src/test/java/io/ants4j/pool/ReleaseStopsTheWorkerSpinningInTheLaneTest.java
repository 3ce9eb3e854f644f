package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code release()} stops the idle workers (WorkerPool.release: "running tasks finish, idle workers stop"): one
 * parked on the idle queue at once, and one spinning in the fast lane as soon as it sees the close, in its next
 * spin, not when its spin budget runs out. The lane's budget is raised so that the worker would spin for ever
 * unless the close stops it.
 */
class ReleaseStopsTheWorkerSpinningInTheLaneTest {

    @Test
    void aReleasedPoolWhoseOnlyWorkerSpinsInTheLaneTerminatesWithoutWaitingForTheSpin() throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        PoolCore core = new PoolCore("release-lane", 1, PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).factory()).build(),
                task -> ((Runnable) task).run(), lane);
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) ran::countDown, false, 0L));
        await(ran);
        eventually("the worker idle in the lane after its task", lane::hasSpinner, core::toString);
        assertEquals(core.running(), core.idle(), "precondition: every worker idle");

        core.release();

        eventually("the released pool terminated, its spinning worker stopped", core::isTerminated, core::toString);
        assertTrue(core.awaitTermination(TimeUnit.SECONDS.toNanos(10)), core::toString);
    }
}
