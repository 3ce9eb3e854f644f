package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 53. {@link WorkerPool#close()} called from a task: "it releases the pool, waits until every other task has
 * ended except those that are themselves calling {@code close} on this pool (or have called it), and returns", and
 * "the actions of every task of the pool, other than the calling one and the other tasks that called {@code close}
 * on it, happen-before {@code close} returns" (WorkerPool.java, {@code close()}); the same wait serves
 * {@code releaseTimeout} from a task ("it waits as close() does there: for the other tasks but those closing the
 * pool"). A {@link Pool} rebooted while such a task waits is checked at one instant (PoolCore.awaitOnlyClosers):
 * the close returns only when no other task runs. MultiPoolCore.awaitOnlyClosers instead passes over the
 * sub-pools one by one and starts over only when a reboot came <em>during</em> the pass; a pass that begins after
 * a reboot (the first one started over) runs with the multi-pool open, so a task submitted to a sub-pool the pass
 * has already left runs on unseen, and {@code close()} returns while it still runs.
 *
 * <p>Not {@link CloseFromTaskAwaitedSubPoolTest}'s case, which the {@code reboots} count fixed (CHANGELOG, Fixed:
 * "close() from a task returns once the other tasks have ended even if the pool was rebooted meanwhile"): there X
 * starts during the pass that the reboot overlaps, which then starts over. Here X starts during the pass that
 * started over, after it left sub-pool 0; no reboot overlaps that pass, so nothing makes it look at sub-pool 0
 * again.
 *
 * <p>Deterministic: platform workers, no purge, round robin (reset to sub-pool 0 by the reboot), and every task
 * ends while the closing task waits in its sub-pool, so no worker goes into the fast lane (a worker does not while
 * a task waits for the others there): each task goes to the sub-pool round robin picks. Which sub-pool the closing
 * task waits in is read from that sub-pool's count of such waits.
 */
class AMultiPoolsCloseFromATaskDoesNotReturnWhileATaskStartedAfterARebootRunsTest {

    @Test
    void closeFromATaskDoesNotReturnWhileATaskStartedAfterTheRebootStillRuns() throws Exception {
        closeFromATaskWhileATaskStartedAfterARebootRuns(false);
    }

    @Test
    void releaseTimeoutFromATaskDoesNotReturnWhileATaskStartedAfterTheRebootStillRuns() throws Exception {
        closeFromATaskWhileATaskStartedAfterARebootRuns(true);
    }

    private static void closeFromATaskWhileATaskStartedAfterARebootRuns(boolean releaseTimeout) throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN, PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().daemon(true).name("r53-worker-", 0).factory())
                .disablePurge(true)
                .build());
        PoolCore[] subs = SubPools.of(multi);
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        CountDownLatch closerStarted = new CountDownLatch(1);
        CountDownLatch l1End = new CountDownLatch(1);
        CountDownLatch aEnd = new CountDownLatch(1);
        CountDownLatch l2End = new CountDownLatch(1);
        CountDownLatch xEnd = new CountDownLatch(1);
        CountDownLatch xRuns = new CountDownLatch(1);
        try {
            multi.execute(() -> { // sub-pool 0: the closing task
                closerStarted.countDown();
                TestSupport.block(closeNow);
                if (releaseTimeout) {
                    try {
                        multi.releaseTimeout(Duration.ofSeconds(30));
                    } catch (java.util.concurrent.TimeoutException e) {
                        return;
                    }
                } else {
                    multi.close();
                }
                closeReturned.countDown();
            });
            TestSupport.await(closerStarted);
            CountDownLatch l1Runs = new CountDownLatch(1);
            multi.execute(() -> { // sub-pool 1
                l1Runs.countDown();
                TestSupport.block(l1End);
            });
            TestSupport.await(l1Runs);

            closeNow.countDown(); // the closing task releases the multi-pool and waits for L1 in sub-pool 1
            TestSupport.eventually("the closing task waits for L1 in sub-pool 1",
                    () -> multi.isClosed() && closeWaits(subs[1]) == 1, multi::toString);

            multi.reboot(); // round robin starts again at sub-pool 0
            CountDownLatch aRuns = new CountDownLatch(1);
            multi.execute(() -> { // sub-pool 0, a new worker
                aRuns.countDown();
                TestSupport.block(aEnd);
            });
            TestSupport.await(aRuns);

            l1End.countDown(); // the pass ends, met a reboot: it starts over, and waits for A in sub-pool 0
            TestSupport.eventually("the closing task, starting over, waits for A in sub-pool 0",
                    () -> closeWaits(subs[0]) == 1, multi::toString);

            CountDownLatch l2Runs = new CountDownLatch(1);
            multi.execute(() -> { // sub-pool 1, on L1's idle worker
                l2Runs.countDown();
                TestSupport.block(l2End);
            });
            TestSupport.await(l2Runs);

            aEnd.countDown(); // the pass leaves sub-pool 0 and waits for L2 in sub-pool 1
            TestSupport.eventually("the closing task waits for L2 in sub-pool 1",
                    () -> closeWaits(subs[1]) == 1 && closeWaits(subs[0]) == 0, multi::toString);

            multi.execute(() -> { // sub-pool 0, on A's idle worker: X, a task that does not close the pool
                xRuns.countDown();
                TestSupport.block(xEnd);
            });
            TestSupport.await(xRuns);

            l2End.countDown(); // the pass leaves sub-pool 1 with no reboot met: the wait ends, X still running
            // negative wait: with the defect the wait ends as L2 ends, within microseconds: 1 s is ample
            assertFalse(closeReturned.await(1, TimeUnit.SECONDS),
                    () -> (releaseTimeout ? "releaseTimeout" : "close()")
                            + " from a task returned while task X, which does not close the pool, still runs"
                            + " (X started in sub-pool 0 after the reboot, once the wait had passed sub-pool 0): "
                            + multi);
            assertTrue(xEnd.getCount() == 1, "X is still running");
        } finally {
            l1End.countDown();
            aEnd.countDown();
            l2End.countDown();
            xEnd.countDown();
            multi.release();
            closeReturned.await(10, TimeUnit.SECONDS);
            multi.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /**
     * The control: the same steps on a {@link Pool}, whose wait looks at all its tasks at one instant, keep
     * {@code close()} waiting while X runs (passes on the current code).
     */
    @Test
    void controlAPoolsCloseFromATaskWaitsForATaskStartedAfterTheReboot() throws Exception {
        Pool pool = Pool.newPool(4, PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().daemon(true).name("r53-control-worker-", 0).factory())
                .disablePurge(true)
                .build());
        PoolCore core = (PoolCore) pool.core;
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        CountDownLatch closerStarted = new CountDownLatch(1);
        CountDownLatch l1End = new CountDownLatch(1);
        CountDownLatch xEnd = new CountDownLatch(1);
        CountDownLatch xRuns = new CountDownLatch(1);
        try {
            pool.execute(() -> {
                closerStarted.countDown();
                TestSupport.block(closeNow);
                pool.close();
                closeReturned.countDown();
            });
            TestSupport.await(closerStarted);
            CountDownLatch l1Runs = new CountDownLatch(1);
            pool.execute(() -> {
                l1Runs.countDown();
                TestSupport.block(l1End);
            });
            TestSupport.await(l1Runs);
            closeNow.countDown();
            TestSupport.eventually("the closing task waits for L1",
                    () -> pool.isClosed() && closeWaits(core) == 1, pool::toString);
            pool.reboot();
            pool.execute(() -> {
                xRuns.countDown();
                TestSupport.block(xEnd);
            });
            TestSupport.await(xRuns);
            l1End.countDown();
            // negative wait (the control): a close that did not wait for X would return as L1 ends, within
            // microseconds: 1 s is ample
            assertFalse(closeReturned.await(1, TimeUnit.SECONDS),
                    () -> "close() from a task returned while task X still runs: " + pool);
        } finally {
            l1End.countDown();
            xEnd.countDown();
            pool.release();
            closeReturned.await(10, TimeUnit.SECONDS);
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static int closeWaits(PoolCore p) {
        try {
            Field f = PoolCore.class.getDeclaredField("closeWaits");
            f.setAccessible(true);
            return f.getInt(p);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
