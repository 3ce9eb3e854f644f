package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread factory returns a thread it has started itself, running code of its own (README/PoolCore: "A thread
 * factory that throws, returns null or returns a thread already started fails the start, which gives the count
 * back; a worker ... never runs in a thread the factory started"). The pool lists the worker in its live set before
 * {@code Thread.start()} and takes it out only after the start has failed; a {@code shutdownNow()} whose walk comes
 * in between interrupts that thread, which never ran, and never will run, a task of the pool: the interrupt leaks
 * into the factory's own code. ({@code Worker.interrupt} skips only a worker whose run has ended, not one that
 * never ran.) The window is held open deterministically by the thread's {@code start()}, which waits for the
 * {@code shutdownNow} before it calls {@code Thread.start()} (which then throws: the thread is started).
 *
 * <p>Contracts: {@code Pool.shutdownNow()} (AbstractPoolExecutor.java:117) "Releases the pool and interrupts the
 * running tasks ... The interrupts are for the tasks of before the reboot"; the fix of review 31 (Worker.interrupt's
 * javadoc): "the thread then runs no task of the pool (a factory's thread may run code of its own ...), and the
 * interrupt is not for it".
 */
class ShutdownNowDoesNotInterruptAFactoryThreadWhoseStartFailedTest {

    @Test
    void aThreadThePoolCouldNotStartIsNotInterruptedByShutdownNow() throws Exception {
        CountDownLatch inStart = new CountDownLatch(1);
        CountDownLatch shutdownNowReturned = new CountDownLatch(1);
        CountDownLatch ownCodeMayEnd = new CountDownLatch(1);
        CountDownLatch ownCodeEnded = new CountDownLatch(1);
        AtomicBoolean ownCodeInterrupted = new AtomicBoolean();
        AtomicInteger made = new AtomicInteger();
        AtomicReference<Thread> foreign = new AtomicReference<>();
        ThreadFactory platform = Thread.ofPlatform().daemon(true).factory();
        ThreadFactory factory = r -> {
            if (made.getAndIncrement() > 0) {
                return platform.newThread(r);
            }
            Thread t = new Thread(() -> { // the factory's own code; it never runs the pool's worker
                try {
                    ownCodeMayEnd.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    ownCodeInterrupted.set(true);
                }
                ownCodeEnded.countDown();
            }) {
                @Override
                public synchronized void start() {
                    if (getState() == State.NEW) { // the factory's own start
                        super.start();
                        return;
                    }
                    inStart.countDown(); // the pool's start
                    TestSupport.block(shutdownNowReturned);
                    super.start(); // throws IllegalThreadStateException: the factory started it already
                }
            };
            t.setDaemon(true);
            t.start(); // the factory starts it: before the pool has anything to do with it
            foreign.set(t);
            return t;
        };
        Pool pool = Pool.newPool(2, PoolOptions.builder().threadFactory(factory).disablePurge(true).build());
        Thread submitter = new Thread(() -> assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {
        })));
        submitter.setDaemon(true);
        submitter.start();
        TestSupport.await(inStart);
        pool.shutdownNow();
        shutdownNowReturned.countDown();
        submitter.join(TimeUnit.SECONDS.toMillis(10));
        ownCodeMayEnd.countDown();
        TestSupport.await(ownCodeEnded);
        assertFalse(ownCodeInterrupted.get(), "shutdownNow() interrupted the factory's own thread, whose start the"
                + " pool had failed and which never ran a task of the pool: " + foreign.get() + ", " + pool);
    }

    /**
     * The same root with an ordinary factory: its thread runs code of its own before it runs the worker (a common
     * wrapper: set up a context, then {@code r.run()}). A {@code shutdownNow()} while that prologue runs interrupts
     * it: the worker is listed live from before {@code Thread.start()}, and its run has not begun, so the
     * interrupt lands in the factory's code, not in a task of the pool (the task itself starts interrupted anyway,
     * from the stop mark: "A task that starts after this call and before a reboot() ... starts interrupted").
     */
    @Test
    void aFactoryThreadsOwnCodeBeforeTheWorkerIsNotInterruptedByShutdownNow() throws Exception {
        CountDownLatch inPrologue = new CountDownLatch(1);
        CountDownLatch prologueMayEnd = new CountDownLatch(1);
        AtomicBoolean prologueInterrupted = new AtomicBoolean();
        AtomicBoolean taskStartedInterrupted = new AtomicBoolean();
        CountDownLatch taskRan = new CountDownLatch(1);
        AtomicInteger made = new AtomicInteger();
        ThreadFactory factory = r -> {
            boolean first = made.getAndIncrement() == 0;
            Thread t = new Thread(() -> {
                if (first) { // the factory's own prologue, before the pool's worker
                    inPrologue.countDown();
                    try {
                        prologueMayEnd.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        prologueInterrupted.set(true);
                    }
                }
                r.run();
            });
            t.setDaemon(true);
            return t;
        };
        Pool pool = Pool.newPool(2, PoolOptions.builder().threadFactory(factory).disablePurge(true).build());
        pool.execute(() -> {
            taskStartedInterrupted.set(Thread.currentThread().isInterrupted());
            taskRan.countDown();
        });
        TestSupport.await(inPrologue);
        pool.shutdownNow();
        prologueMayEnd.countDown();
        TestSupport.await(taskRan);
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool.toString());
        assertTrue(taskStartedInterrupted.get(), "the task handed over as the pool stopped starts interrupted");
        assertFalse(prologueInterrupted.get(), "shutdownNow() interrupted the factory thread's own code before its"
                + " worker began to run (no task of the pool ran there): " + pool);
    }
}
