package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.eventually;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import org.junit.jupiter.api.Test;

/**
 * Review 43's passing controls for ordinary contracts nobody had pinned: a multi-pool's {@code cap()} and
 * {@code free()} "saturate at Integer.MAX_VALUE" and are -1 for unlimited sub-pools (MultiPool javadoc, README
 * table); round robin "retries an overloaded choice once on the least-running sub-pool" and counts one rejection
 * per submission (AbstractWorkerPool notes); tryExecute's "a negative one counts as zero" and saturating huge
 * timeouts, also through the timed bulk calls; invokeAny's "ExecutionException if every task failed";
 * shutdownNow "even if already closed" interrupts the running tasks; close() entered with the interrupt status
 * set interrupts the tasks and keeps the status; a timed-out tryExecute counts as blocked and rejected; free()
 * is 0 while more workers run than a tuned-down capacity. All pass on the current code.
 */
class PoolEdgeContractsControlTest {

    @Test
    void multiPoolCapAndFreeSaturate() {
        try (MultiPool p = MultiPool.newMultiPool(2, Integer.MAX_VALUE, LoadBalancing.ROUND_ROBIN)) {
            assertEquals(Integer.MAX_VALUE, p.cap());
            assertEquals(Integer.MAX_VALUE, p.free());
            assertTrue(p.toString().contains("cap=" + Integer.MAX_VALUE), p.toString());
        }
        try (MultiPool p = MultiPool.newMultiPool(2, 0, LoadBalancing.ROUND_ROBIN)) {
            assertEquals(-1, p.cap());
            assertEquals(-1, p.free());
            assertTrue(p.toString().contains("cap=unlimited"), p.toString());
        }
    }

    @Test
    void roundRobinNonblockingRetryCountsNoRejection() throws Exception {
        PoolOptions o = PoolOptions.builder().nonblocking(true).build();
        try (MultiPool p = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, o)) {
            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(2);
            p.execute(() -> { started.countDown(); await(hold); });
            p.execute(() -> { started.countDown(); await(hold); });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            assertThrows(PoolOverloadException.class, () -> p.execute(() -> {}));
            assertEquals(1, p.stats().rejected());
            hold.countDown();
        }
    }

    @Test
    void tryExecuteNegativeAndHuge() throws Exception {
        try (Pool p = Pool.newPool(1)) {
            assertTrue(p.tryExecute(() -> {}, Duration.ofSeconds(-5)));
            assertTrue(p.tryExecute(() -> {}, Duration.ofSeconds(Long.MAX_VALUE)));
            List<Future<Integer>> fs = p.invokeAll(List.of(() -> 1, () -> 2), Long.MAX_VALUE, TimeUnit.NANOSECONDS);
            assertEquals(2, fs.get(1).get());
            assertEquals(Integer.valueOf(1), p.invokeAny(List.<Callable<Integer>>of(() -> 1), Long.MAX_VALUE, TimeUnit.DAYS));
        }
    }

    @Test
    void invokeAnyAllFail() throws Exception {
        try (Pool p = Pool.newPool(1)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> p.invokeAny(List.<Callable<Integer>>of(
                    () -> { throw new IllegalStateException("a"); }, () -> { throw new IllegalStateException("b"); })));
            assertTrue(e.getCause() instanceof IllegalStateException);
            ExecutionException e2 = assertThrows(ExecutionException.class, () -> p.invokeAny(List.<Callable<Integer>>of(
                    () -> { throw new IllegalStateException("a"); }, () -> { throw new IllegalStateException("b"); }), 10, TimeUnit.SECONDS));
            assertTrue(e2.getCause() instanceof IllegalStateException);
        }
    }

    static void await(CountDownLatch l) {
        try { l.await(10, TimeUnit.SECONDS); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
    }

    @Test
    void shutdownNowAfterReleaseInterruptsRunningTasks() throws Exception {
        for (int kind = 0; kind < 2; kind++) {
            AbstractPoolExecutor p = kind == 0 ? Pool.newPool(2) : MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            p.execute(() -> {
                started.countDown();
                try { new CountDownLatch(1).await(20, TimeUnit.SECONDS); } catch (InterruptedException e) { interrupted.countDown(); }
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            p.release();
            p.shutdownNow();
            assertTrue(interrupted.await(10, TimeUnit.SECONDS), "kind " + kind + ": shutdownNow after release did not interrupt");
            assertTrue(p.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void closeWithInterruptStatusSet() throws Exception {
        Pool p = Pool.newPool(2);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        p.execute(() -> {
            started.countDown();
            try { new CountDownLatch(1).await(20, TimeUnit.SECONDS); } catch (InterruptedException e) { interrupted.set(true); }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        Thread.currentThread().interrupt();
        p.close();
        assertTrue(Thread.interrupted());
        assertTrue(interrupted.get());
        assertTrue(p.isTerminated());
    }

    @Test
    void timedOutTryExecuteCountsBlockedAndRejected() throws Exception {
        try (Pool p = Pool.newPool(1)) {
            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            p.execute(() -> { started.countDown(); await(hold); });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            assertFalse(p.tryExecute(() -> {}, Duration.ofMillis(50)));
            PoolStats s = p.stats();
            assertEquals(1, s.rejected(), s.toString());
            assertEquals(1, s.blockedSubmits(), s.toString());
            assertTrue(s.blockedTime().toNanos() > 0, s.toString());
            p.tune(0);
            assertEquals(1, p.cap());
            hold.countDown();
        }
    }

    @Test
    void freeIsZeroWhenTunedBelowRunning() throws Exception {
        try (Pool p = Pool.newPool(3)) {
            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) p.execute(() -> { started.countDown(); await(hold); });
            assertTrue(started.await(10, TimeUnit.SECONDS));
            p.tune(1);
            assertEquals(0, p.free());
            assertEquals(1, p.cap());
            hold.countDown();
            eventually("running comes down", () -> p.running() <= 1);
            assertEquals(1, p.free() + p.running());
        }
    }
}
