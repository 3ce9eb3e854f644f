package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Review 38. The name of a worker thread made by a thread factory that gives it none.
 *
 * <p>Contract, {@code PoolOptions.Builder.name} (PoolOptions.java:330): "Sets the pool's name: its worker threads
 * are called {@code <name>-worker-<k>} (unless a thread factory names them)"; README.md:324: "A pool's name ... is
 * in its toString() and its threads' names: orders-worker-3". {@code Thread.ofVirtual().factory()} names no
 * thread (its threads' name is the empty string), so by the first sentence the pool should call them
 * {@code <name>-worker-<k>}.
 *
 * <p>What happens: the pool never names a thread its factory made ({@code Worker.newThread} takes the factory's
 * thread as it is), so a thread factory set at all decides the name, named or not: the worker thread here is
 * called "". (Either the javadoc's "unless a thread factory names them" should read "unless a thread factory is
 * set", or the pool should name the threads the factory left unnamed.)
 */
class AThreadFactoryThatNamesNoThreadGetsThemNamedAfterThePoolTest {

    @Test
    void aWorkerThreadTheFactoryLeftUnnamedIsCalledAfterThePool() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().name("r38-orders")
                .threadFactory(Thread.ofVirtual().factory()).build());
        try {
            AtomicReference<Thread> worker = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(() -> {
                worker.set(Thread.currentThread());
                ran.countDown();
            });
            await(ran);
            assertEquals("", Thread.ofVirtual().factory().newThread(() -> { }).getName(),
                    "the factory names no thread");
            assertTrue(worker.get().getName().matches("r38-orders-worker-\\d+"),
                    "the worker thread of pool r38-orders made by a factory that names no thread is called \""
                            + worker.get().getName() + "\"");
        } finally {
            pool.releaseTimeout(Duration.ofSeconds(10));
        }
    }
}
