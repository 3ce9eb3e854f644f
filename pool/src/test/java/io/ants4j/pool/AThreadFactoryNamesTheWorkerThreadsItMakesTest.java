package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The name of a worker thread made by a thread factory: the factory's, the pool renames no thread it did not make
 * ({@code PoolOptions.Builder.name}: "its worker threads are called {@code <name>-worker-<k>} when the pool makes
 * them (with a thread factory, the factory names them, or leaves them unnamed)"). {@code Thread.ofVirtual().factory()}
 * names no thread, and the worker thread keeps the empty name. Review 38 found the javadoc saying "unless a thread
 * factory names them", which promised the pool's name to a thread the factory left unnamed (this test, first written
 * to show that broken); the javadoc now says what the pool does.
 */
class AThreadFactoryNamesTheWorkerThreadsItMakesTest {

    @Test
    void aWorkerThreadTheFactoryLeftUnnamedKeepsNoName() throws Exception {
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
            assertEquals("", worker.get().getName(), "the pool renamed the thread its factory made");
        } finally {
            pool.releaseTimeout(Duration.ofSeconds(10));
        }
    }
}
