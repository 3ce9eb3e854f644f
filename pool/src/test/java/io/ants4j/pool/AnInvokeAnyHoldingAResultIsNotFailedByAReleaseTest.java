package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Contract, {@code AbstractPoolExecutor.invokeAny} (AbstractPoolExecutor.java:183): "Returns the result of a task
 * that completed normally, and cancels the others"; {@link java.util.concurrent.ExecutorService#invokeAny}:
 * "Executes the given tasks, returning the result of one that has completed successfully (i.e., without throwing
 * an exception), if any do"; {@code Pool} (Pool.java:68): "As an ExecutorService, a pool meets the interface's
 * contract".
 *
 * <p>The untimed {@code invokeAny} hands its tasks over one at a time, blocking in {@code execute} while the pool
 * is full; a result that comes back meanwhile is only looked at once that hand-off ends. Here task A has
 * completed normally (its result is in the call's queue) while the hand-off of task B still waits for a worker
 * (A's worker went to a submitter that had waited longer, FIFO). When the pool is then released, B's hand-off
 * ends with {@link PoolClosedException} and {@code invokeAny} throws it: the caller loses the result of a task that
 * completed normally before the release. (The JDK's {@code AbstractExecutorService.invokeAny} polls for a
 * completed task before each hand-off and never blocks in one, so it returns A there.)
 *
 * <p>Deterministic: latches hold every task; the waiters' order is set by waiting for {@code waiting()} to grow.
 */
class AnInvokeAnyHoldingAResultIsNotFailedByAReleaseTest {

    @Test
    void anUntimedInvokeAnyReturnsTheResultOfATaskThatCompletedNormallyBeforeTheRelease() throws Exception {
        invokeAnyAcrossARelease(false);
    }

    /** The same with the timed form, whose hand-off waits for a worker until its deadline (30 s here). */
    @Test
    void aTimedInvokeAnyReturnsTheResultOfATaskThatCompletedNormallyBeforeTheRelease() throws Exception {
        invokeAnyAcrossARelease(true);
    }

    private static void invokeAnyAcrossARelease(boolean timed) throws Exception {
        Pool pool = Pool.newPool(2, PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).factory()).build());
        CountDownLatch holdX = new CountDownLatch(1);
        CountDownLatch holdY = new CountDownLatch(1);
        CountDownLatch holdE = new CountDownLatch(1);
        CountDownLatch aStarted = new CountDownLatch(1);
        CountDownLatch aGo = new CountDownLatch(1);
        CountDownLatch eStarted = new CountDownLatch(1);
        CountDownLatch bothHeld = new CountDownLatch(2);
        AtomicBoolean aReturned = new AtomicBoolean();
        AtomicBoolean bRan = new AtomicBoolean();
        try {
            pool.execute(() -> { bothHeld.countDown(); awaitQuietly(holdX); });
            pool.execute(() -> { bothHeld.countDown(); awaitQuietly(holdY); });
            assertTrue(bothHeld.await(10, TimeUnit.SECONDS));

            Callable<String> a = () -> {
                aStarted.countDown();
                awaitQuietly(aGo);
                aReturned.set(true);
                return "A";
            };
            Callable<String> b = () -> {
                bRan.set(true);
                return "B";
            };
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread caller = Thread.ofPlatform().daemon(true).name("invokeAny").start(() -> {
                try {
                    outcome.set(timed ? pool.invokeAny(List.of(a, b), 30, TimeUnit.SECONDS)
                            : pool.invokeAny(List.of(a, b)));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            TestSupport.eventually("A's hand-off waits for a worker", () -> pool.waiting() == 1);
            Thread e = Thread.ofPlatform().daemon(true).name("E").start(() ->
                    pool.execute(() -> { eStarted.countDown(); awaitQuietly(holdE); }));
            TestSupport.eventually("E waits behind A's hand-off", () -> pool.waiting() == 2);
            holdY.countDown(); // Y's worker goes to A's hand-off, the longest waiter
            assertTrue(aStarted.await(10, TimeUnit.SECONDS), "A did not start");
            TestSupport.eventually("B's hand-off waits behind E", () -> pool.waiting() == 2);
            aGo.countDown(); // A completes normally; its worker goes to E, the longest waiter
            assertTrue(eStarted.await(10, TimeUnit.SECONDS), "E did not start");
            TestSupport.eventually("A has returned its result", aReturned::get);
            TestSupport.eventually("A's worker is back with E, B's hand-off still waits", () -> pool.waiting() == 1);

            pool.release(); // B's hand-off is rejected: B was never needed, A completed normally before

            caller.join(TimeUnit.SECONDS.toMillis(10));
            Object result = outcome.get();
            assertTrue(!caller.isAlive(), "invokeAny did not return within 10 s of the release");
            assertEquals("A", result, () -> "invokeAny did not return the result of A, which completed normally"
                    + " before the pool was released, but: " + describe(result));
            assertTrue(!bRan.get(), "B ran");
            e.join(TimeUnit.SECONDS.toMillis(10));
        } finally {
            holdX.countDown();
            holdY.countDown();
            holdE.countDown();
            aGo.countDown();
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool::toString);
        }
    }

    private static String describe(Object o) {
        return o instanceof Throwable t ? t.toString() : String.valueOf(o);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not opened within 30 s");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
