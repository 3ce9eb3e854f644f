package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A thread factory returns a thread it has already started, which runs the worker's runnable only after the pool's
 * {@code Thread.start()} threw and the submission was rejected (PoolOptions.Builder.threadFactory: "the worker
 * never runs in a thread so returned, unless it had begun to run there before Thread.start() threw"): the worker,
 * revoked by then, returns at once, the rejected task never runs, and the pool counts no worker.
 * {@link StartedThreadFactoryTest}'s threads run the worker before the pool knows the thread; this one runs it
 * after, when only the revoked admission can turn it away.
 */
class RevokedWorkerNeverRunsTest {

    @Test
    void aWorkerRevokedByAFailedStartNeverRunsInTheFactorysStartedThread() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Thread[] made = new Thread[1];
        Pool pool = Pool.newPool(2, PoolOptions.builder().disablePurge(true).threadFactory(r -> {
            Thread t = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    if (go.await(10, TimeUnit.SECONDS)) {
                        r.run();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            made[0] = t;
            return t;
        }).build());
        try {
            AtomicInteger ran = new AtomicInteger();
            assertThrows(RejectedExecutionException.class, () -> pool.execute(ran::incrementAndGet));
            go.countDown();
            assertTrue(made[0].join(java.time.Duration.ofSeconds(10)), "the factory's thread ends");
            assertEquals(0, ran.get(), "the rejected task ran in the factory's thread: " + pool);
            assertEquals(0, pool.running(), pool::toString);
            assertEquals(0, pool.idle(), pool::toString);
        } finally {
            pool.release();
        }
    }
}
