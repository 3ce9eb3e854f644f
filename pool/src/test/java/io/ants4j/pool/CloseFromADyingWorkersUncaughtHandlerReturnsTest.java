package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A worker whose loop ends on an unexpected error (its revert cannot grow the idle stack: an
 * {@code OutOfMemoryError}, injected where the stack allocates, as {@code WorkerExitOutOfMemoryTest} does) dies
 * with its count given back; the JDK then calls its thread's uncaught-exception handler (set by the pool's
 * {@code threadFactory}) on that very thread, and a handler that shuts the pool down ({@code close()}) waits for
 * its own thread to end.
 *
 * <p>Contracts: {@code WorkerPool.close()} (WorkerPool.java:188) "Releases the pool and waits until it has
 * terminated ... Returns at once on a terminated pool"; {@code releaseTimeout}/{@code awaitTermination}
 * (WorkerPool.java:132, :160) "every thread of it has ended"; README "Failures": the pool itself routes failures to
 * "the worker thread's uncaught-exception handler", and from a task close() "waits for every other task".
 *
 * <p>What happens: the dying worker, already out of the live set, is in the list of exited workers that
 * awaitTermination joins; close() from its handler joins its own thread: it never returns, and since the thread
 * never ends, nobody's awaitTermination or releaseTimeout succeeds, though isTerminated() is true.
 */
class CloseFromADyingWorkersUncaughtHandlerReturnsTest {


    @Test
    void closeFromTheUncaughtHandlerOfADyingWorkerReturnsAndThePoolTerminates() throws Exception {
        AtomicReference<Pool> poolRef = new AtomicReference<>();
        AtomicReference<Throwable> uncaught = new AtomicReference<>();
        CountDownLatch closeCalled = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        ThreadFactory platform = Thread.ofPlatform().daemon(true).uncaughtExceptionHandler((t, e) -> {
            uncaught.set(e);
            closeCalled.countDown();
            try {
                poolRef.get().close(); // a worker died of an error: shut the pool down
            } finally {
                closeReturned.countDown();
            }
        }).factory();
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true).threadFactory(platform).build());
        poolRef.set(pool);
        FailingIdleStack.installedIn(pool, 1);

        pool.execute(() -> { });
        assertTrue(closeCalled.await(10, TimeUnit.SECONDS), "the worker did not die: " + pool);
        boolean returned = closeReturned.await(5, TimeUnit.SECONDS);
        boolean terminated = pool.awaitTermination(2, TimeUnit.SECONDS);
        String others = TestSupport.releaseTimeoutOutcome(pool);
        assertTrue(returned && terminated, "the worker died of " + uncaught.get() + "; close() from its"
                + " uncaught-exception handler returned: " + returned + "; isTerminated()=" + pool.isTerminated()
                + ", awaitTermination from another thread: " + terminated + "; " + others + "; " + pool);
    }
}
