package io.ants4j.pool;

import static io.ants4j.pool.LaneFixtures.awaitTerminationFreeingTheSpinner;
import static io.ants4j.pool.LaneFixtures.awaitWaitingForThePoolLock;
import static io.ants4j.pool.LaneFixtures.poolWithItsOnlyWorkerBusy;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.LaneFixtures.BusyPool;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A non-blocking pool rejects a submission only when no worker is free (PoolOptions: "never block a submitter:
 * reject at once with PoolOverloadException when no worker is free"; Pool: the fast lane "changes nothing a pool
 * promises"; WorkerPool.idle: a worker spinning in the fast lane "counts as idle"). A submitter whose fast-path
 * look at the lane came before the pool's only worker entered it, and which then finds the pool full under the
 * lock, checks {@code nonblocking} before it looks at the lane again ({@code first && lane.hasSpinner()} comes
 * after the overload check in {@code PoolCore.dispatch}): it throws {@link PoolOverloadException} while that
 * worker spins free. In the same state a blocking {@code execute} and a {@code tryExecute} with a zero timeout
 * (on the same non-blocking pool) take the spinning worker: the controls below.
 *
 * <p>The window (between the fast path and the lock) is widened deterministically: the test holds the pool's
 * lock ({@link PoolCore#lockCounts}, as any thread in a critical section does, a monitoring read of
 * {@code free()} or {@code idle()} included) until the submitter waits for it and the worker spins in the lane;
 * the lane's spin budget is raised so that the worker does not withdraw meanwhile (the budget is a timing
 * parameter: a worker in the lane is free whatever it is). With the default budget the worker may also have
 * withdrawn and wait for the lock to go back to the idle queue (still idle, by {@code idle()}), and the
 * submitter, taking the lock first, rejects the same way.
 */
class NonblockingSubmitTakesTheWorkerSpinningInTheLaneTest {

    @Test
    void aNonblockingExecuteIsNotRejectedWhileTheOnlyWorkerSpinsFreeInTheLane() throws Exception {
        submitAsTheWorkerEntersTheLane(true, false);
    }

    /** Control: a blocking pool's submitter at the same point takes the spinning worker. */
    @Test
    void controlABlockingExecuteTakesTheWorkerSpinningInTheLane() throws Exception {
        submitAsTheWorkerEntersTheLane(false, false);
    }

    /** Control: {@code tryExecute(task, ZERO)} on the same non-blocking pool takes the spinning worker. */
    @Test
    void controlAZeroTimeoutTryExecuteOnTheNonblockingPoolTakesTheWorkerSpinningInTheLane() throws Exception {
        submitAsTheWorkerEntersTheLane(true, true);
    }

    private static void submitAsTheWorkerEntersTheLane(boolean nonblocking, boolean timedZero) throws Exception {
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        BusyPool pool = poolWithItsOnlyWorkerBusy("nonblocking-lane", PoolOptions.builder().nonblocking(nonblocking)
                .disablePurge(true).threadFactory(Thread.ofPlatform().daemon(true).factory()).build(), lane);
        PoolCore core = pool.core();

        CountDownLatch secondRan = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean handedOver = new AtomicBoolean();
        Thread submitter;
        core.lockCounts();
        try {
            submitter = Thread.ofPlatform().daemon(true).name("submitter").start(() -> {
                try {
                    handedOver.set(core.dispatch((Runnable) secondRan::countDown, timedZero, 0L));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            awaitWaitingForThePoolLock(submitter, "the submitter past the fast lane, waiting for the pool's lock");
            pool.finish().countDown(); // the worker ends its task and spins in the lane: free
            eventually("the worker spinning in the lane", lane::hasSpinner, core::toString);
        } finally {
            core.unlockCounts();
        }
        submitter.join(TimeUnit.SECONDS.toMillis(10));
        int idleAfter = core.idle();
        boolean ran = handedOver.get() && secondRan.await(10, TimeUnit.SECONDS);

        core.release();
        awaitTerminationFreeingTheSpinner(lane, core::isTerminated, core::toString);
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        assertAll(
                () -> assertNull(thrown.get(), "the submission was refused while the pool's only worker spun free in"
                        + " the lane (idle() = " + idleAfter + " right after)"),
                () -> assertTrue(ran, "the second task was not handed over and run (handed over: " + handedOver.get()
                        + ")"),
                () -> assertTrue(terminated, "not terminated: " + core));
    }
}
