package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review 36. Which idle worker a submission gets.
 *
 * <p>Contract, the {@link Pool} javadoc (Pool.java:25-26): "{@code execute} hands the task straight to an idle
 * worker (the most recently used one: a LIFO stack, or a FIFO ring of {@code capacity} slots with
 * {@link PoolOptions#preAlloc()})", and the README (README.md:234): "{@code execute} hands a task straight to the
 * most recently idle worker".
 *
 * <p>What happens: a pre-allocated pool's ring ({@code LoopQueue}) is inserted at the tail and detached at the
 * head, so a submission gets the worker that has been idle the <em>longest</em>, not the most recently used one.
 * Two workers go idle one after the other (each waited for until it is on the idle queue, off the fast lane); the
 * next task runs on the first one. The default pool (a stack) hands it to the second, as documented, and passes.
 */
class APreAllocatedPoolHandsATaskToTheMostRecentlyIdleWorkerTest {

    @ParameterizedTest(name = "preAlloc={0}")
    @ValueSource(booleans = {false, true})
    void theNextTaskRunsOnTheWorkerThatWentIdleLast(boolean preAlloc) throws Exception {
        Pool pool = Pool.newPool(2, PoolOptions.builder().preAlloc(preAlloc).disablePurge(true).build());
        PoolCore core = (PoolCore) pool.core;
        try {
            CountDownLatch firstGate = new CountDownLatch(1);
            CountDownLatch secondGate = new CountDownLatch(1);
            CountDownLatch bothRun = new CountDownLatch(2);
            AtomicReference<Thread> first = new AtomicReference<>();
            AtomicReference<Thread> second = new AtomicReference<>();
            pool.execute(() -> {
                first.set(Thread.currentThread());
                bothRun.countDown();
                block(firstGate);
            });
            pool.execute(() -> {
                second.set(Thread.currentThread());
                bothRun.countDown();
                block(secondGate);
            });
            await(bothRun);

            firstGate.countDown(); // the first worker goes idle first ...
            eventually("the first worker on the idle queue", () -> core.queued() == 1, pool::toString);
            secondGate.countDown(); // ... then the second one: the most recently idle worker
            eventually("both workers on the idle queue", () -> core.queued() == 2, pool::toString);

            AtomicReference<Thread> ranOn = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(() -> {
                ranOn.set(Thread.currentThread());
                ran.countDown();
            });
            await(ran);
            assertSame(second.get(), ranOn.get(), "the task ran on " + ranOn.get().getName()
                    + ", the worker idle the longest (" + first.get().getName() + "), not on the most recently idle one ("
                    + second.get().getName() + ")");
        } finally {
            pool.releaseTimeout(Duration.ofSeconds(10));
            assertTrue(pool.isTerminated());
        }
    }
}
