package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Review 34. {@code PoolCore.workerOf} takes a thread for one running a task of the pool when its worker is in the
 * live set and its run has not ended; the fix of review 33 excluded a run that has ended, not one that has not
 * begun. A worker is listed live from before {@code Thread.start()}, so a factory's thread whose own code runs
 * then (a thread the factory started itself, which the pool's worker never runs in; or an ordinary wrapper's
 * prologue before {@code r.run()}) and calls {@code close()} or {@code releaseTimeout} on the pool is counted as a
 * closing task ({@code closing(w)}: {@code closers++}, {@code w.closing = true}).
 *
 * <p>Contracts: WorkerPool.close (WorkerPool.java:200-207) "Called from a task running on this pool ... it
 * releases the pool, waits until every other task has ended except those that are themselves calling close on
 * this pool (or have called it) ... Called on a thread of the pool that runs no task, it waits until the pool has
 * terminated"; WorkerPool.releaseTimeout (WorkerPool.java:164-170) "on a thread that runs no task, until the pool
 * has terminated"; README "Failures" (README.md:299-300): the pool's worker "never runs in such a started thread" (a thread the
 * factory started is no thread of the pool at all).
 */
class AThreadWhoseWorkerHasNotBegunIsNotTakenForAClosingTaskTest {

    /**
     * A factory starts its thread itself, and that thread's own code closes the pool while the pool, having listed
     * the worker live, is in {@code Thread.start()} (which then throws: the thread was started). The close counts
     * the never-run worker as a closing task; the start fails, the worker is retired and unlisted, but nothing
     * gives that closer count back (only the worker's own run does, after a task). After a reboot, a task's
     * {@code close()} then returns while another task still runs.
     */
    @Test
    void aCloseFromAFactoryThreadWhoseStartFailedLeavesNoCloserBehind() throws Exception {
        CountDownLatch goClose = new CountDownLatch(1);
        CountDownLatch foreignCloseReturned = new CountDownLatch(1);
        AtomicReference<Pool> poolRef = new AtomicReference<>();
        AtomicInteger made = new AtomicInteger();
        ThreadFactory platform = Thread.ofPlatform().daemon(true).factory();
        ThreadFactory factory = r -> {
            if (made.getAndIncrement() > 0) {
                return platform.newThread(r);
            }
            Thread t = new Thread(() -> { // the factory's own code; it never runs the pool's worker
                try {
                    if (goClose.await(20, TimeUnit.SECONDS)) {
                        poolRef.get().close();
                        foreignCloseReturned.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }) {
                @Override
                public synchronized void start() {
                    if (getState() == State.NEW) { // the factory's own start
                        super.start();
                        return;
                    }
                    goClose.countDown(); // the pool's start: the worker is listed live by now
                    try {
                        // a correct close() there waits for termination, which needs this start to fail first;
                        // the defective one, counting the worker as a closing task with no other task running,
                        // returns within microseconds of goClose: 1 s lets it do so
                        foreignCloseReturned.await(1, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    super.start(); // throws IllegalThreadStateException: the factory started it already
                }
            };
            t.setDaemon(true);
            t.start();
            return t;
        };
        Pool pool = Pool.newPool(4, PoolOptions.builder().threadFactory(factory).disablePurge(true).build());
        poolRef.set(pool);
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {
        }));
        TestSupport.await(foreignCloseReturned);
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool.toString());

        pool.reboot();
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch aRunning = new CountDownLatch(1);
        AtomicBoolean aEnded = new AtomicBoolean();
        pool.execute(() -> {
            aRunning.countDown();
            TestSupport.block(releaseA);
            aEnded.set(true);
        });
        TestSupport.await(aRunning);
        CountDownLatch bCloseReturned = new CountDownLatch(1);
        AtomicBoolean aEndedWhenBReturned = new AtomicBoolean();
        pool.execute(() -> {
            pool.close();
            aEndedWhenBReturned.set(aEnded.get());
            bCloseReturned.countDown();
        });
        // negative wait: with the defect (a closer count left behind) B's close() returns within microseconds
        boolean early = bCloseReturned.await(1, TimeUnit.SECONDS);
        releaseA.countDown();
        TestSupport.await(bCloseReturned);
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool.toString());
        assertFalse(early, "a task's close() returned while another task (blocked) still ran: the closer count of"
                + " the factory thread's close, taken for a task's, was never given back: " + pool);
        assertTrue(aEndedWhenBReturned.get(), "close() from a task returned before another task ended: " + pool);
    }

    /**
     * An ordinary wrapping factory: its thread runs a prologue of its own before {@code r.run()}, and that prologue
     * calls {@code releaseTimeout} on the pool. It runs no task, so it should wait until the pool has terminated
     * (and time out, since a task runs); instead it is counted as a closing task, returns normally as soon as the
     * one running task closes the pool too, and that task's {@code close()} returns before the task the new worker
     * was handed (accepted before the close) has even begun; that task then runs counted as a closer.
     */
    @Test
    void anotherTasksCloseWaitsForTheTaskOfAWorkerWhosePrologueCalledReleaseTimeout() throws Exception {
        closeWaitsForTheTaskOfAWorkerWhosePrologueCalledReleaseTimeout(
                factory -> Pool.newPool(2, PoolOptions.builder().threadFactory(factory).disablePurge(true).build()));
    }

    /** The same in a multi-pool ({@code MultiPoolCore.awaitOtherTasks} asks each sub-pool's {@code workerOf}). */
    @Test
    void aMultiPoolTasksCloseWaitsForTheTaskOfAWorkerWhosePrologueCalledReleaseTimeout() throws Exception {
        closeWaitsForTheTaskOfAWorkerWhosePrologueCalledReleaseTimeout(factory -> MultiPool.newMultiPool(2, 2,
                LoadBalancing.ROUND_ROBIN, PoolOptions.builder().threadFactory(factory).disablePurge(true).build()));
    }

    /** A pool that {@code make} makes on the given thread factory: a {@code Pool} or a {@code MultiPool}. */
    private interface PoolMaker<P extends WorkerPool & java.util.concurrent.Executor> {
        P make(ThreadFactory factory);
    }

    private static <P extends WorkerPool & java.util.concurrent.Executor> void
            closeWaitsForTheTaskOfAWorkerWhosePrologueCalledReleaseTimeout(PoolMaker<P> make) throws Exception {
        AtomicReference<P> poolRef = new AtomicReference<>();
        AtomicInteger made = new AtomicInteger();
        CountDownLatch inPrologue = new CountDownLatch(1);
        AtomicReference<Object> prologueOutcome = new AtomicReference<>();
        AtomicBoolean terminatedWhenPrologueReturned = new AtomicBoolean();
        ThreadFactory factory = r -> {
            boolean second = made.getAndIncrement() == 1;
            Thread t = new Thread(() -> {
                if (second) { // the factory's own prologue, before the pool's worker
                    inPrologue.countDown();
                    try {
                        poolRef.get().releaseTimeout(Duration.ofMillis(500));
                        prologueOutcome.set("returned normally");
                        terminatedWhenPrologueReturned.set(poolRef.get().isTerminated());
                    } catch (TimeoutException e) {
                        prologueOutcome.set(e);
                    }
                }
                r.run();
            });
            t.setDaemon(true);
            return t;
        };
        P pool = make.make(factory);
        poolRef.set(pool);
        CountDownLatch dRunning = new CountDownLatch(1);
        CountDownLatch goD = new CountDownLatch(1);
        CountDownLatch dCloseReturned = new CountDownLatch(1);
        AtomicBoolean tEnded = new AtomicBoolean();
        AtomicBoolean tEndedWhenDReturned = new AtomicBoolean();
        pool.execute(() -> {
            dRunning.countDown();
            TestSupport.block(goD);
            pool.close();
            tEndedWhenDReturned.set(tEnded.get());
            dCloseReturned.countDown();
        });
        TestSupport.await(dRunning);
        CountDownLatch releaseT = new CountDownLatch(1);
        pool.execute(() -> { // accepted before any close: a task of the pool
            TestSupport.block(releaseT);
            tEnded.set(true);
        });
        TestSupport.await(inPrologue);
        goD.countDown();
        // negative wait: with the defect D's close() takes T's worker (the prologue's thread) for a closing task,
        // sees only closers and returns within microseconds of goD: 1 s is ample
        boolean early = dCloseReturned.await(1, TimeUnit.SECONDS);
        releaseT.countDown();
        TestSupport.await(dCloseReturned);
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool.toString());
        assertFalse(early, "a task's close() returned while a task accepted before it had not even begun (the"
                + " prologue's releaseTimeout counted the worker as a closing task); prologue: "
                + prologueOutcome.get() + ", " + pool);
        assertTrue(tEndedWhenDReturned.get(), "close() from a task returned before another task ended: " + pool);
        assertFalse("returned normally".equals(prologueOutcome.get()) && !terminatedWhenPrologueReturned.get(),
                "releaseTimeout on a thread running no task returned normally before the pool terminated");
    }
}
