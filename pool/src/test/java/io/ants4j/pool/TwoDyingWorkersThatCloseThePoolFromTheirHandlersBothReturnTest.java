package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Two workers whose loops end on an unexpected error (their reverts cannot grow the idle stack: an
 * {@code OutOfMemoryError}, injected where the stack allocates, as {@code CloseFromADyingWorkersUncaughtHandlerReturnsTest}
 * does), and whose threads' uncaught-exception handler (set by the pool's {@code threadFactory}) shuts the pool
 * down with {@code close()}, as that test's handler does: the same error striking two workers at once (a full heap
 * strikes every reverting worker) runs the handler on both dying threads.
 *
 * <p>Contracts: {@code WorkerPool.close()} (WorkerPool.java:190) "Releases the pool and waits until it has
 * terminated ... Called on another thread of the pool (see awaitTermination), it waits for every thread of the pool
 * but that one"; {@code awaitTermination} (WorkerPool.java:136) "Called on a thread of the pool that runs no task
 * (... or by a worker thread's uncaught-exception handler as its worker ends), it waits for every thread of the pool
 * but that one, which cannot end while it waits"; and, for tasks, "several tasks may close their own pool at once,
 * and none waits for another".
 *
 * <p>What happens: each handler's close() excludes its own thread only, so it joins the other dying worker's thread,
 * which is itself waiting in close() for the first: neither close() ever returns (each waits a day, then again), and
 * nobody's awaitTermination succeeds though isTerminated() is true. The handlers are held until both have begun, so
 * that both workers die before either closes the pool (without that, the first close() retires the second worker
 * cleanly); that is the order two workers dying at the same moment take.
 */
class TwoDyingWorkersThatCloseThePoolFromTheirHandlersBothReturnTest {

    @Test
    void closeFromTheHandlersOfTwoDyingWorkersReturnsOnBoth() throws Exception {
        AtomicReference<Pool> poolRef = new AtomicReference<>();
        CountDownLatch handlersEntered = new CountDownLatch(2);
        CountDownLatch closeReturned = new CountDownLatch(2);
        AtomicReference<Throwable> closeThrew = new AtomicReference<>();
        List<Thread> closers = new java.util.concurrent.CopyOnWriteArrayList<>();
        ThreadFactory platform = Thread.ofPlatform().daemon(true).uncaughtExceptionHandler((t, e) -> {
            closers.add(t);
            handlersEntered.countDown();
            try {
                handlersEntered.await(10, TimeUnit.SECONDS); // both workers have died before either closes
                poolRef.get().close(); // a worker died of an error: shut the pool down
                closeReturned.countDown();
            } catch (Throwable x) {
                closeThrew.set(x);
            }
        }).factory();
        Pool pool = Pool.newPool(3, PoolOptions.builder().disablePurge(true).threadFactory(platform).build());
        poolRef.set(pool);
        FailingIdleStack.installedIn(pool, 2);

        CountDownLatch longTaskStarted = new CountDownLatch(1);
        CountDownLatch longTaskMayEnd = new CountDownLatch(1);
        pool.execute(() -> { // a third task, still running when the handlers close the pool: it has not terminated
            longTaskStarted.countDown();
            try {
                longTaskMayEnd.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(longTaskStarted.await(10, TimeUnit.SECONDS));
        CountDownLatch bothRunning = new CountDownLatch(2);
        Runnable task = () -> {
            bothRunning.countDown();
            try {
                bothRunning.await(10, TimeUnit.SECONDS); // two workers alive at once
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        pool.execute(task);
        pool.execute(task);
        assertTrue(handlersEntered.await(10, TimeUnit.SECONDS), "the two workers did not both die: " + pool);
        // both handlers wait in close() for the pool to terminate; then the third task ends and it does
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(waitsForTermination(closers.get(0)) && waitsForTermination(closers.get(1)))) {
            assertTrue(System.nanoTime() - deadline < 0, "the handlers never waited in close(): " + pool);
            Thread.onSpinWait();
        }
        longTaskMayEnd.countDown();

        boolean returned = closeReturned.await(5, TimeUnit.SECONDS);
        boolean terminated = pool.awaitTermination(1, TimeUnit.SECONDS);
        assertTrue(returned && terminated, "close() from the uncaught-exception handlers of two dying workers: "
                + (2 - closeReturned.getCount()) + " of 2 returned (threw " + closeThrew.get() + "); isTerminated()="
                + pool.isTerminated() + ", running()=" + pool.running() + ", awaitTermination from another thread: "
                + terminated + "; handler threads: " + where(closers.get(0)) + ", " + where(closers.get(1)) + "; "
                + pool);
    }

    /** The thread's name, state and the pool's frames it is in. */
    private static String where(Thread t) {
        StringBuilder b = new StringBuilder(t.getName()).append(' ').append(t.getState()).append(" in");
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith("io.ants4j.pool") || e.getMethodName().equals("join")) {
                b.append(' ').append(e.getClassName().substring(e.getClassName().lastIndexOf('.') + 1))
                        .append('.').append(e.getMethodName());
            }
        }
        return b.toString();
    }

    /** Whether {@code t} is parked inside the pool's awaitTermination. */
    private static boolean waitsForTermination(Thread t) {
        Thread.State s = t.getState();
        if (s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getMethodName().equals("awaitTermination") && e.getClassName().endsWith("PoolCore")) {
                return true;
            }
        }
        return false;
    }
}
