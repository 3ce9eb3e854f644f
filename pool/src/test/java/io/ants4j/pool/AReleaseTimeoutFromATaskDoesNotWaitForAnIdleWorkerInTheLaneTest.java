package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WorkerPool.releaseTimeout (WorkerPool.java:165-168): "Called on a thread of the pool, it waits as close() does
 * there: on a worker thread, for the other tasks but those closing the pool". And WorkerPool.idle(): "A worker
 * that has just finished a task and spins in the pool's fast lane counts as idle". So a task that calls
 * releaseTimeout(Duration.ZERO) while the pool's only other worker is idle in the fast lane has no other task to
 * wait for and must return normally. Probe (review 45): the worker in the lane is counted as running a task
 * (PoolCore.onlyClosersRunLocked: running - workers.len() <= closers) until it has withdrawn and retired, so the
 * call may throw TimeoutException. Racy: it counts how many of N tries throw.
 */
@Timeout(120)
class AReleaseTimeoutFromATaskDoesNotWaitForAnIdleWorkerInTheLaneTest {

    @Test
    void aTasksReleaseTimeoutZeroIgnoresAWorkerIdleInTheLane() throws Exception {
        run(true);
    }

    /** Control: the same with the other worker idle on the idle queue (a lane of one spin): passes. */
    @Test
    void controlATasksReleaseTimeoutZeroIgnoresAWorkerIdleOnTheQueue() throws Exception {
        run(false);
    }

    private static void run(boolean inLane) throws Exception {
        int tries = 100;
        int timedOut = 0;
        for (int i = 0; i < tries; i++) {
            SpinningWorkers lane = new SpinningWorkers(inLane ? Integer.MAX_VALUE : 1); // MAX: spins until a payload or the close
            eventually("no worker of another pool in a lane", () -> SpinningWorkers.inLanes() == 0);
            PoolCore core = new PoolCore("r45-" + i, 2, PoolOptions.defaults(), t -> ((Runnable) t).run(), lane);
            CountDownLatch closerRunning = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            assertTrue(core.dispatch((Runnable) () -> {
                closerRunning.countDown();
                await(go);
                try {
                    core.releaseTimeout(Duration.ZERO);
                } catch (Throwable t) {
                    thrown.set(t);
                } finally {
                    done.countDown();
                }
            }, false, 0L));
            await(closerRunning);
            CountDownLatch ran = new CountDownLatch(1);
            assertTrue(core.dispatch((Runnable) ran::countDown, false, 0L)); // a second worker
            await(ran);
            if (inLane) {
                eventually("the second worker idles in the lane", lane::hasSpinner);
            } else {
                eventually("the second worker idles on the queue", () -> core.queued() == 1);
            }
            go.countDown();
            await(done);
            if (thrown.get() instanceof TimeoutException) {
                timedOut++;
            } else if (thrown.get() != null) {
                throw new AssertionError(thrown.get());
            }
            eventually("terminated", core::isTerminated);
        }
        assertEquals(0, timedOut, "releaseTimeout(ZERO) from a task, with no other task running (the other worker"
                + " idle " + (inLane ? "in the fast lane" : "on the queue") + "), threw TimeoutException in " + timedOut + " of " + tries + " tries");
    }
}
