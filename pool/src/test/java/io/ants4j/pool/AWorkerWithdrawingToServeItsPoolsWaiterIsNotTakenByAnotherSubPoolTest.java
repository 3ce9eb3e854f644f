package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.LaneFixtures.CarriersOccupied;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two sub-pools sharing one fast lane, as a {@link MultiPool}'s do (MultiPoolCore builds its PoolCores on one
 * SpinningWorkers). MultiPool: "A maxBlockingTasks limit holds per sub-pool, and so does the order of blocked
 * submitters (first come, first served), with one exception: ... in the instant a submitter starts to wait, a
 * worker of its sub-pool that is still spinning in that lane may take a task submitted to another sub-pool";
 * SpinningWorkers: "a spinning worker stops as soon as one waits in its pool, so that reverting it hands it to the
 * longest waiter". Here sub-pool B's only worker has withdrawn from the lane (not spinning) on its way to B's
 * revert, which would hand it to the submitter already waiting in B; a later submission to sub-pool A, which has
 * a free slot of its own, takes that worker by PoolCore.dispatch's tryHandWithdrawing (moved before the start of a
 * new worker by d0937d0), so B's waiter is overtaken by a later submission outside the documented window.
 *
 * <p>Deterministic: B's waiter is a thread whose isInterrupted() (called by dispatch under B's lock just before
 * it joins the waiters) waits until B's worker has withdrawn; busy virtual threads then keep the virtual worker
 * off every carrier while A's submitter (a platform thread) runs.
 */
class AWorkerWithdrawingToServeItsPoolsWaiterIsNotTakenByAnotherSubPoolTest {

    @Test
    void aLaterSubmissionToAnotherSubPoolDoesNotTakeTheWorkerWithdrawingToServeAWaiter() throws Exception {
        SpinningWorkers lane = new SpinningWorkers(1); // a worker withdraws after one spin
        eventually("no worker of another pool in a lane", () -> SpinningWorkers.inLanes() == 0);
        PoolOptions options = PoolOptions.builder().disablePurge(true).build();
        PoolCore a = new PoolCore("sub-a", 1, options, task -> ((Runnable) task).run(), lane);
        PoolCore b = new PoolCore("sub-b", 1, options, task -> ((Runnable) task).run(), lane);

        AtomicReference<Thread> bWorker = new AtomicReference<>();
        CountDownLatch bRunning = new CountDownLatch(1);
        CountDownLatch bFinish = new CountDownLatch(1);
        assertTrue(b.dispatch((Runnable) () -> {
            bWorker.set(Thread.currentThread());
            bRunning.countDown();
            TestSupport.block(bFinish);
        }, false, 0L));
        await(bRunning);

        CountDownLatch aboutToWait = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicReference<Thread> waiterTaskThread = new AtomicReference<>();
        CountDownLatch waiterTaskRan = new CountDownLatch(1);
        Thread waiter = new Thread(() -> b.dispatch((Runnable) () -> {
            waiterTaskThread.set(Thread.currentThread());
            waiterTaskRan.countDown();
        }, false, 0L), "waiter-in-b") {
            private boolean held;

            @Override
            public boolean isInterrupted() {
                if (!held && Thread.currentThread() == this && TestSupport.calledByDispatch()) {
                    held = true;
                    aboutToWait.countDown();
                    await(proceed);
                }
                return super.isInterrupted();
            }
        };
        waiter.setDaemon(true);
        waiter.start();
        await(aboutToWait); // holds B's lock, about to join B's waiters

        bFinish.countDown(); // B's worker ends its task, spins once, withdraws, waits for B's lock
        eventually("B's worker withdrawing from the lane", () -> lane.idleWorkers() == 1 && !lane.hasSpinner(),
                b::toString);

        AtomicReference<Thread> aTaskThread = new AtomicReference<>();
        CountDownLatch aTaskRan = new CountDownLatch(1);
        int bWaiting;
        int aRunning;
        try (CarriersOccupied carriers = new CarriersOccupied()) { // B's virtual worker cannot run meanwhile
            proceed.countDown();
            eventually("the submitter waiting in B", () -> b.waiting() == 1, b::toString);
            assertTrue(a.dispatch((Runnable) () -> {
                aTaskThread.set(Thread.currentThread());
                aTaskRan.countDown();
            }, false, 0L));
            bWaiting = b.waiting();
            aRunning = a.running();
        }
        boolean aRan = aTaskRan.await(10, TimeUnit.SECONDS);
        boolean waiterRan = waiterTaskRan.await(10, TimeUnit.SECONDS);
        a.release();
        b.release();
        boolean terminated = a.awaitTermination(TimeUnit.SECONDS.toNanos(10))
                && b.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        int waitingThen = bWaiting;
        int aRunningThen = aRunning;
        assertAll(
                () -> assertTrue(aRan && waiterRan, "a task did not run (A's: " + aRan + ", B's waiter's: "
                        + waiterRan + ")"),
                () -> assertNotSame(bWorker.get(), aTaskThread.get(), "a later submission to sub-pool A (with a"
                        + " free slot: A.running() = " + aRunningThen + " after it) took sub-pool B's only worker,"
                        + " withdrawn from the shared lane on its way to serve the submitter waiting in B"
                        + " (B.waiting() = " + waitingThen + ")"),
                () -> assertTrue(terminated, "not terminated"));
    }
}
