package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A worker's exit runs out of memory leaving the live set (WorkerExitOutOfMemoryTest's injection: a
 * {@code ConcurrentHashMap} removal may allocate a counter cell): its thread dies of the error, its count given
 * back, and its uncaught-exception handler closes the pool. The worker has ended, so that handler runs on "a thread
 * of the pool that runs no task" (WorkerPool.java:136-140, 203-206: "it waits until the pool has terminated").
 * But close finds the dead worker still listed live, takes the thread for a task closing its own pool and counts
 * it as a closer ({@code PoolCore.closing}); that count is given back only when a task ends
 * ({@code closingTaskEnded}), which never comes. The count outlives a reboot: later, task A closing the pool from
 * inside it no longer waits for task B, against WorkerPool.close (WorkerPool.java:199-201) "waits until every other
 * task has ended except those that are themselves calling close on this pool (or have called it)".
 */
class CloseFromTheHandlerOfAWorkerStillListedLiveLeavesNoCloserBehindTest {

    @Test
    void aCloseFromADeadWorkersHandlerDoesNotLetALaterCloseFromATaskSkipAnotherTask() throws Exception {
        PoolCore[] core = new PoolCore[1];
        CountDownLatch handlerDone = new CountDownLatch(1);
        AtomicBoolean handlerClosed = new AtomicBoolean();
        ThreadFactory platform = Thread.ofPlatform().daemon(true).uncaughtExceptionHandler((t, e) -> {
            try { // close() from the handler of a thread whose worker has ended: release, then wait
                core[0].release();
                handlerClosed.set(core[0].awaitClose(TimeUnit.SECONDS.toNanos(10)));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            } finally {
                handlerDone.countDown();
            }
        }).factory();
        core[0] = new PoolCore("closer-leak", 2,
                PoolOptions.builder().disablePurge(true).threadFactory(platform).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
        PoolCore pool = core[0];
        FailingLiveSet live = new FailingLiveSet(false);
        Field f = PoolCore.class.getDeclaredField("live");
        f.setAccessible(true);
        f.set(pool, live);

        AtomicInteger ran = new AtomicInteger();
        assertTrue(pool.dispatch((Runnable) ran::incrementAndGet, false, 0L));
        eventually("the worker is idle", () -> ran.get() == 1 && pool.queued() == 1, pool::toString);
        live.removalArmed.set(true);
        pool.release(); // stops the idle worker: it exits, its removal fails, it dies, its handler closes the pool
        TestSupport.await(handlerDone);
        assertTrue(handlerClosed.get(), "close from the dead worker's handler did not return: " + pool);
        assertTrue(pool.awaitTermination(TimeUnit.SECONDS.toNanos(10)), pool.toString());

        pool.reboot();
        CountDownLatch bRuns = new CountDownLatch(1);
        CountDownLatch bMayEnd = new CountDownLatch(1);
        AtomicBoolean bEnded = new AtomicBoolean();
        AtomicBoolean bEndedWhenAsCloseReturned = new AtomicBoolean();
        CountDownLatch aCloseReturned = new CountDownLatch(1);
        assertTrue(pool.dispatch((Runnable) () -> {
            bRuns.countDown();
            TestSupport.block(bMayEnd);
            bEnded.set(true);
        }, false, 0L));
        TestSupport.await(bRuns);
        assertTrue(pool.dispatch((Runnable) () -> { // task A closes its own pool
            pool.release();
            try {
                pool.awaitClose(TimeUnit.SECONDS.toNanos(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bEndedWhenAsCloseReturned.set(bEnded.get());
            aCloseReturned.countDown();
        }, false, 0L));
        try {
            // negative wait: with the defect the handler's closer count is left behind, and A's close, counting
            // B's task among the closers, returns at once, within microseconds: 1 s is ample
            boolean returned = aCloseReturned.await(1, TimeUnit.SECONDS);
            assertFalse(returned && !bEndedWhenAsCloseReturned.get(), "task A's close() returned while task B still"
                    + " runs: the dead worker's handler is still counted as a closing task: " + pool);
        } finally {
            bMayEnd.countDown();
        }
        TestSupport.await(aCloseReturned);
        assertTrue(pool.awaitTermination(TimeUnit.SECONDS.toNanos(10)), pool.toString());
        assertEquals(0, pool.running(), pool.toString());
    }
}
