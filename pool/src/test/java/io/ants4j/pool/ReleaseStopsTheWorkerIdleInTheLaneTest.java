package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code release()} stops the idle workers, so a pool whose every worker is idle has terminated as soon as it is
 * released (WorkerPool.release: "running tasks finish, idle workers stop"; WorkerPool.isTerminated: "closed and
 * no worker is left"; README: "isTerminated() is true once the pool is shut down and no task runs";
 * WorkerPool.idle: a worker that "spins in the pool's fast lane counts as idle"). An idle worker on the queue is
 * stopped by the release (LifecycleTest.isTerminatedAsSoonAsShutDownWithIdleWorkers waits until the workers are
 * on the queue); an idle worker spinning in the fast lane is not: the release leaves it counted, and the pool,
 * with no task running, is not terminated until the worker's spin runs out and its revert retires it.
 *
 * <p>The lane's spin budget is raised so that the worker does not withdraw by itself meanwhile (a timing
 * parameter: with the default budget the same holds for the tens of microseconds the worker spins).
 */
class ReleaseStopsTheWorkerIdleInTheLaneTest {

    @Test
    void aPoolWhoseOnlyWorkerSpinsIdleInTheLaneIsTerminatedOnceReleased() throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        PoolCore core = new PoolCore("release-lane", 1, PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).factory()).build(),
                task -> ((Runnable) task).run(), lane);
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) ran::countDown, false, 0L));
        await(ran);
        eventually("the worker idle in the lane after its task", lane::hasSpinner, core::toString);
        int idle = core.idle();
        int running = core.running();

        core.release();
        boolean terminatedAtOnce = core.isTerminated();
        String afterRelease = core.toString();

        Runnable nothing = () -> { };
        eventually("the pool terminated", () -> {
            if (lane.hasSpinner()) {
                lane.tryHand(nothing); // the worker spins until a payload comes; after it, it sees the close
            }
            return core.isTerminated();
        }, core::toString);
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        assertAll(
                () -> assertEquals(idle, running, "precondition: every worker idle"),
                () -> assertTrue(terminatedAtOnce, "released with its only worker idle (idle()=" + idle
                        + ", running()=" + running + ", no task running), the pool is not terminated: "
                        + afterRelease),
                () -> assertTrue(terminated, "not terminated: " + core));
    }
}
