package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** close, releaseTimeout and reboot called from inside the pool (a task, a panic handler) keep their contracts. */
@Timeout(30)
class CloseAndReleaseFromInsideThePoolKeepTheirContractsTest {

    /** Waits for the latch ignoring interrupts, bounded. */
    private static boolean awaitIgnoringInterrupts(CountDownLatch l, AtomicBoolean seen) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        boolean interrupted = false;
        while (l.getCount() > 0 && deadline - System.nanoTime() > 0) {
            try {
                l.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
                seen.set(true);
            }
        }
        return interrupted;
    }

    /*
     * WorkerPool.close(): "if interrupted while waiting, it interrupts the running tasks (as shutdownNow does)
     * once, goes on waiting, and returns with the interrupt status set" - here called from a task.
     */
    @Test
    void anInterruptedCloseFromATaskWaitsForTheOtherTaskAndKeepsTheStatus() throws Exception {
        interruptedCloseFromATaskWaitsForTheOtherTaskAndKeepsTheStatus(Pool.newPool(2));
    }

    /* WorkerPool.releaseTimeout: on a worker thread it waits for the other tasks only: none, so returns. */
    @Test
    void releaseTimeoutZeroFromTheOnlyTaskReturnsNormally() throws Exception {
        Pool pool = Pool.newPool(2);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            try {
                pool.releaseTimeout(Duration.ZERO);
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                done.countDown();
            }
        });
        TestSupport.await(done);
        assertNull(thrown.get());
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    /* WorkerPool.reboot: "Workers still finishing tasks from before the release rejoin the reopened pool." */
    @Test
    void aWorkerFinishingAcrossReleaseAndRebootRejoins() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Thread> first = new AtomicReference<>();
        pool.execute(() -> {
            first.set(Thread.currentThread());
            started.countDown();
            TestSupport.await(go);
        });
        TestSupport.await(started);
        pool.release();
        pool.reboot();
        go.countDown();
        TestSupport.eventually("worker idle", () -> pool.idle() == 1);
        assertEquals(1, pool.running());
        AtomicReference<Thread> second = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            second.set(Thread.currentThread());
            ran.countDown();
        });
        TestSupport.await(ran);
        assertEquals(first.get(), second.get());
        pool.close();
    }

    /*
     * WorkerPool.close(): "The same holds on a worker thread while its worker runs, between tasks" - close from
     * the panic handler waits for the other task, returns, and the pool terminates.
     */
    @Test
    void closeFromThePanicHandlerWaitsForTheOtherTaskAndReturns() throws Exception {
        AtomicReference<Pool> ref = new AtomicReference<>();
        CountDownLatch handlerDone = new CountDownLatch(1);
        AtomicBoolean otherEndedFirst = new AtomicBoolean();
        AtomicBoolean otherEnded = new AtomicBoolean();
        Pool pool = Pool.newPool(2, PoolOptions.builder().panicHandler(t -> {
            ref.get().close();
            otherEndedFirst.set(otherEnded.get());
            handlerDone.countDown();
        }).build());
        ref.set(pool);
        CountDownLatch otherStarted = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        pool.execute(() -> {
            otherStarted.countDown();
            TestSupport.await(releaseOther);
            otherEnded.set(true);
        });
        TestSupport.await(otherStarted);
        pool.execute(() -> {
            throw new IllegalStateException("boom");
        });
        TestSupport.eventually("closed", pool::isClosed);
        assertFalse(handlerDone.getCount() == 0, "handler returned before the other task ended");
        releaseOther.countDown();
        TestSupport.await(handlerDone);
        assertTrue(otherEndedFirst.get());
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(1, pool.stats().failed());
    }

    /* As anInterruptedCloseFromATask..., on a MultiPool of 2x1 (round robin: the two tasks on two sub-pools). */
    @Test
    void anInterruptedCloseFromATaskOfAMultiPoolWaitsForTheOtherTaskAndKeepsTheStatus() throws Exception {
        interruptedCloseFromATaskWaitsForTheOtherTaskAndKeepsTheStatus(
                MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN));
    }

    /* close from the panic handler of a MultiPoolWithFunc's sub-pool waits for the other sub-pool's task. */
    @Test
    void closeFromThePanicHandlerOfAMultiPoolWithFuncWaitsForTheOtherTask() throws Exception {
        AtomicReference<MultiPoolWithFunc<Integer>> ref = new AtomicReference<>();
        CountDownLatch handlerDone = new CountDownLatch(1);
        AtomicBoolean otherEndedFirst = new AtomicBoolean();
        AtomicBoolean otherEnded = new AtomicBoolean();
        CountDownLatch otherStarted = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        MultiPoolWithFunc<Integer> pool = MultiPoolWithFunc.newMultiPool(2, 1, (Integer i) -> {
            if (i == 0) {
                otherStarted.countDown();
                TestSupport.await(releaseOther);
                otherEnded.set(true);
            } else {
                throw new IllegalStateException("boom");
            }
        }, LoadBalancing.ROUND_ROBIN, PoolOptions.builder().panicHandler(t -> {
            ref.get().close();
            otherEndedFirst.set(otherEnded.get());
            handlerDone.countDown();
        }).build());
        ref.set(pool);
        pool.invoke(0);
        TestSupport.await(otherStarted);
        pool.invoke(1);
        TestSupport.eventually("closed", pool::isClosed);
        assertFalse(handlerDone.getCount() == 0, "handler returned before the other task ended");
        releaseOther.countDown();
        TestSupport.await(handlerDone);
        assertTrue(otherEndedFirst.get());
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(1, pool.stats().failed());
    }

    private static <P extends java.util.concurrent.Executor & WorkerPool>
            void interruptedCloseFromATaskWaitsForTheOtherTaskAndKeepsTheStatus(P pool) throws Exception {
        CountDownLatch otherStarted = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        AtomicBoolean otherInterrupted = new AtomicBoolean();
        AtomicBoolean otherEnded = new AtomicBoolean();
        pool.execute(() -> {
            otherStarted.countDown();
            awaitIgnoringInterrupts(releaseOther, otherInterrupted);
            otherEnded.set(true);
        });
        TestSupport.await(otherStarted);
        AtomicReference<Thread> closer = new AtomicReference<>();
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean statusAfterClose = new AtomicBoolean();
        AtomicBoolean sawOtherEnded = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        pool.execute(() -> {
            closer.set(Thread.currentThread());
            try {
                pool.close();
                statusAfterClose.set(Thread.currentThread().isInterrupted());
                sawOtherEnded.set(otherEnded.get());
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                closed.countDown();
            }
        });
        TestSupport.eventually("closer waits in close", () -> closer.get() != null && pool.isClosed()
                && closer.get().getState() != Thread.State.RUNNABLE);
        closer.get().interrupt();
        TestSupport.eventually("other task interrupted by close's shutdownNow", otherInterrupted::get);
        releaseOther.countDown();
        TestSupport.await(closed);
        assertNull(thrown.get());
        assertTrue(sawOtherEnded.get(), "close returned before the other task ended");
        assertTrue(statusAfterClose.get(), "close from a task lost the interrupt status");
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
}
