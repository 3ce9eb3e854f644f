package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Threads;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A thread factory that calls back into its pool's life cycle while the pool makes a worker for a submission
 * already counted: {@code shutdownNow()} (the task, handed over as the pool stopped, starts interrupted: "a task
 * that starts after this call and before a reboot() ... starts interrupted"), and {@code release(); reboot()}
 * (the task runs in the reopened pool, not interrupted). Either way the submission returns normally, its task
 * runs once, and the pool terminates after a last release.
 */
class FactoryCallbackTest {

    /** A factory that runs {@code callback} once, on its first call, before it makes the thread. */
    private static ThreadFactory callingBack(Threads threads, AtomicReference<Consumer<Pool>> callback,
                                             AtomicReference<Pool> pool) {
        ThreadFactory delegate = threads.factory((t, e) -> { });
        AtomicInteger calls = new AtomicInteger();
        return r -> {
            if (calls.incrementAndGet() == 1) {
                callback.get().accept(pool.get());
            }
            return delegate.newThread(r);
        };
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void shutdownNowFromTheFactoryStartsTheTaskInterrupted(Threads threads) throws InterruptedException {
        check(threads, Pool::shutdownNow, true);
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void releaseAndRebootFromTheFactoryRunTheTaskUninterrupted(Threads threads) throws InterruptedException {
        check(threads, p -> {
            p.release();
            p.reboot();
        }, false);
    }

    private static void check(Threads threads, Consumer<Pool> callback, boolean interruptedExpected)
            throws InterruptedException {
        AtomicReference<Pool> ref = new AtomicReference<>();
        Pool pool = Pool.newPool(2, PoolOptions.builder().disablePurge(true)
                .threadFactory(callingBack(threads, new AtomicReference<>(callback), ref)).build());
        ref.set(pool);
        AtomicInteger runs = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(() -> {
            interrupted.set(Thread.currentThread().isInterrupted());
            runs.incrementAndGet();
            ran.countDown();
        });
        assertTrue(ran.await(10, TimeUnit.SECONDS), "the task ran: " + pool);
        pool.release();
        boolean terminated = pool.awaitTermination(10, TimeUnit.SECONDS);
        assertAll(
                () -> assertEquals(1, runs.get(), "runs"),
                () -> assertEquals(interruptedExpected, interrupted.get(), "the task started interrupted"),
                () -> assertTrue(terminated, "terminated: " + pool),
                () -> assertEquals(0, pool.running(), "running()"));
    }
}
