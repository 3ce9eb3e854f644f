package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A thread factory whose {@code newThread} throws a {@link RejectedExecutionException} of its own (it makes its
 * threads through another executor that refused, say): {@code PoolCore.startWorker} (PoolCore.java:701) rethrows any
 * {@code RejectedExecutionException} as it is, so the factory's exception passes for the pool's own verdict.
 *
 * <p>Contracts shown broken:
 * <ul>
 * <li>PoolOptions.java:314-317 ({@code Builder.threadFactory}): "a factory that throws a {@code RuntimeException}
 *     [...] makes that submission fail with {@link RejectedExecutionException} (the cause: what it threw [...])";
 *     docs/failures.md:11-15: "A thread factory that throws [...] rejects only that submission
 *     ({@code RejectedExecutionException} [...]) [...] (JFR reason {@code error})".</li>
 * <li>AbstractPoolExecutor.java:61 ({@code execute}): "@throws PoolClosedException if the pool is closed, or
 *     closes while this call waits": an open pool's {@code execute} throws the factory's
 *     {@link PoolClosedException}.</li>
 * <li>AbstractPoolExecutor.java:167 (timed {@code invokeAll}; :150 untimed): "@throws InterruptedException if interrupted while
 *     waiting": a caller nobody interrupted gets {@link InterruptedException} when the factory's exception is
 *     caused by one (the bulk call takes it for its own interrupted hand-off).</li>
 * <li>The same {@code PoolOptions} sentence and docs/failures.md ("rejects only that submission [...] either way the
 *     submission counts in {@code stats().rejected()}"), for a round-robin multi-pool: a factory's
 *     {@link PoolOverloadException} is taken for the chosen sub-pool's overload (MultiPoolCore.java:140-144), the
 *     submission is retried on another sub-pool, the factory's failure vanishes and the submission succeeds.</li>
 * <li>AbstractPoolExecutor.java:192-194 ({@code invokeAny}): "@throws RejectedExecutionException as
 *     {@link #execute} throws it [...], unless a task handed over before has completed normally: its result is
 *     returned": when the factory's exception is caused by an {@code InterruptedException}, an invokeAny whose first
 *     task completed normally while the second's worker thread was being made throws
 *     {@code InterruptedException} and loses the result.</li>
 * </ul>
 */
class AFactoryThrowingARejectionIsReportedAsAFactoryFailureTest {

    /** Throws {@code failure} for the first thread asked of it, then makes platform threads. */
    private static ThreadFactory failingOnce(RuntimeException failure) {
        ThreadFactory platform = Thread.ofPlatform().factory();
        boolean[] thrown = {false};
        return r -> {
            synchronized (thrown) {
                if (!thrown[0]) {
                    thrown[0] = true;
                    throw failure;
                }
            }
            return platform.newThread(r);
        };
    }

    @Test
    void executeOnAnOpenPoolWhoseFactoryThrowsPoolClosedExceptionFailsWithTheFactorysExceptionAsTheCause() {
        PoolClosedException fromFactory = new PoolClosedException("the factory's own executor is closed");
        try (Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(failingOnce(fromFactory)).build())) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
            assertFalse(pool.isClosed(), "the pool is open");
            assertNotSame(fromFactory, e,
                    "execute on an open pool threw the factory's PoolClosedException as its own verdict");
            assertFalse(e instanceof PoolClosedException, "an open pool's execute threw PoolClosedException: " + e);
            assertSame(fromFactory, e.getCause(), "the cause is what the factory threw");
            assertEquals(0, pool.running(), "the slot is given back");
        }
    }

    @Test
    void invokeAllOnAThreadNobodyInterruptedDoesNotThrowInterruptedExceptionForAFactoryFailure() throws Exception {
        RejectedExecutionException fromFactory =
                new RejectedExecutionException("the factory's own executor was interrupted", new InterruptedException());
        try (Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(failingOnce(fromFactory)).build())) {
            List<Callable<Integer>> tasks = List.of(() -> 1);
            Throwable thrown = null;
            try {
                pool.invokeAll(tasks, 10, TimeUnit.SECONDS);
            } catch (Throwable t) {
                thrown = t;
            }
            assertFalse(Thread.currentThread().isInterrupted(), "nobody interrupted the caller");
            assertTrue(thrown instanceof RejectedExecutionException,
                    "invokeAll on a thread nobody interrupted threw " + thrown + " for a factory failure");
            assertSame(fromFactory, thrown.getCause(), "the cause is what the factory threw");
        }
    }

    @Test
    void aRoundRobinMultiPoolDoesNotRetryASubmissionWhoseFactoryThrewPoolOverloadException() {
        PoolOverloadException fromFactory = new PoolOverloadException("the factory's own executor is full");
        try (MultiPool pool = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().threadFactory(failingOnce(fromFactory)).build())) {
            Throwable thrown = null;
            try {
                pool.execute(() -> { });
            } catch (Throwable t) {
                thrown = t;
            }
            assertTrue(thrown instanceof RejectedExecutionException,
                    "the submission whose worker thread the factory could not make did not fail: " + thrown
                            + "; stats " + pool.stats());
            assertSame(fromFactory, thrown.getCause(), "the cause is what the factory threw");
            assertEquals(1, pool.stats().rejected(), "the submission counts as rejected");
        }
    }

    @Test
    void invokeAnyReturnsTheResultInHandWhenTheNextWorkersFactoryThrowsARejectionCausedByAnInterrupt()
            throws Exception {
        invokeAnyWithASecondWorkerWhoseFactoryThrows(
                new RejectedExecutionException("the factory's own executor was interrupted", new InterruptedException()));
    }

    /** Control: the same race with a factory that throws a plain RuntimeException passes on the current code. */
    @Test
    void controlInvokeAnyReturnsTheResultInHandWhenTheNextWorkersFactoryThrowsAPlainRuntimeException()
            throws Exception {
        invokeAnyWithASecondWorkerWhoseFactoryThrows(new IllegalStateException("the factory failed"));
    }

    private static void invokeAnyWithASecondWorkerWhoseFactoryThrows(RuntimeException fromFactory) throws Exception {
        AtomicReference<Pool> poolRef = new AtomicReference<>();
        CountDownLatch secondThreadAsked = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory platform = Thread.ofPlatform().factory();
        ThreadFactory factory = r -> {
            if (calls.incrementAndGet() == 2) { // the invokeAny caller, handing over task B while A runs
                secondThreadAsked.countDown();
                TestSupport.eventually("task A completed normally",
                        () -> poolRef.get().stats().completed() == 1); // counted after its future was queued
                throw fromFactory;
            }
            return platform.newThread(r);
        };
        try (Pool pool = Pool.newPool(2, PoolOptions.builder().threadFactory(factory).build())) {
            poolRef.set(pool);
            List<Callable<String>> tasks = List.of(
                    () -> {
                        TestSupport.await(secondThreadAsked); // B's hand-off is starting a second worker
                        return "A";
                    },
                    () -> "B");
            Object outcome;
            try {
                outcome = pool.invokeAny(tasks);
            } catch (Throwable t) {
                outcome = t;
            }
            assertFalse(Thread.currentThread().isInterrupted(), "nobody interrupted the caller");
            assertEquals("A", outcome, "invokeAny lost the result of task A, which completed normally");
        }
    }
}
