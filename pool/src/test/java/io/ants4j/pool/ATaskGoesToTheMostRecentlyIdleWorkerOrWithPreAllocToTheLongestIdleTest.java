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
 * Which idle worker a submission gets: the {@link Pool} javadoc, "{@code execute} hands the task straight to an idle
 * worker (the most recently used one, from a LIFO stack; with {@link PoolOptions#preAlloc()}, the one idle the
 * longest, from a FIFO ring of {@code capacity} slots)", and the README and {@link PoolOptions} alike. Two workers go
 * idle one after the other (each waited for until it is on the idle queue, off the fast lane); the next task runs on
 * the second with the default stack, on the first with the ring. Review 36 found the README and the javadoc saying
 * "the most recently idle worker" of both (this test, first written to show that broken for the ring); the ring's
 * order is ants' loop queue's, and the documents now say it.
 */
class ATaskGoesToTheMostRecentlyIdleWorkerOrWithPreAllocToTheLongestIdleTest {

    @ParameterizedTest(name = "preAlloc={0}")
    @ValueSource(booleans = {false, true})
    void theNextTaskRunsOnTheWorkerThatWentIdleLastOrWithPreAllocFirst(boolean preAlloc) throws Exception {
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
            Thread expected = preAlloc ? first.get() : second.get();
            assertSame(expected, ranOn.get(), "the task ran on " + ranOn.get().getName() + "; idle first: "
                    + first.get().getName() + ", idle last: " + second.get().getName() + " (preAlloc " + preAlloc + ")");
        } finally {
            pool.releaseTimeout(Duration.ofSeconds(10));
            assertTrue(pool.isTerminated());
        }
    }
}
