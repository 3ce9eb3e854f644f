package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ants4j.pool.ShutdownNowLoggerFixtures.ErrorHook;
import io.ants4j.pool.ShutdownNowLoggerFixtures.FailingCloseChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code MultiPool.shutdownNow()} runs user code while it holds the multi-pool's life-cycle lock and a
 * sub-pool's stop lock: the pool's logger, told that interrupting a task threw (closing the interruptible channel
 * the task blocks on can throw; {@code shutdownNow}'s javadoc says the failure is logged at {@code ERROR}). Both
 * locks are reentrant, so a logger that reboots the pool (say, a supervisor hooked to pool errors) reboots it in
 * the middle of the {@code shutdownNow}: the rest of the walk then closes the other sub-pool, and the multi-pool
 * is left open with a closed sub-pool. {@code WorkerPool}: "The transitions ... are atomic with respect to each
 * other, also across the sub-pools of a multi-pool."
 */
class RebootFromShutdownNowLoggerTest {

    @Test
    void aLoggerThatRebootsDuringShutdownNowLeavesNoOpenMultiPoolWithAClosedSubPool() throws Exception {
        ErrorHook logger = new ErrorHook();
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch secondRuns = new CountDownLatch(1);
        try {
            multi.execute(() -> channel.blockUntil(release)); // sub-pool 0
            TestSupport.await(channel.blocked);
            multi.execute(() -> { // sub-pool 1
                secondRuns.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // interrupted by shutdownNow
                }
            });
            TestSupport.await(secondRuns);
            assertTrue(multi.running(0) == 1 && multi.running(1) == 1, multi::toString);
            AtomicReference<Throwable> refused = new AtomicReference<>();
            logger.onError.set(() -> rebootRefused(multi, refused));
            multi.shutdownNow();
            assertTrue(logger.onError.get() == null, () -> "the logger was not called at ERROR; the blocked task saw an"
                    + " interrupt: " + channel.interrupted.get() + "; logged: " + logger.calls + "; " + multi);
            assertTrue(refused.get() instanceof IllegalStateException,
                    () -> "the logger's reboot was not refused with IllegalStateException but " + refused.get());
            String state = multi.isClosed() + ", sub-pools closed: " + Probe.cores(multi).get(0).isClosed() + ", "
                    + Probe.cores(multi).get(1).isClosed();
            if (!multi.isClosed()) { // the reboot counts: the multi-pool is open, so each sub-pool must be
                for (int i = 0; i < 2; i++) { // round robin from sub-pool 0 again after the reboot
                    try {
                        multi.execute(() -> { });
                    } catch (PoolClosedException e) {
                        fail("an open multi-pool (isClosed() false) refused task " + i
                                + " with PoolClosedException; closed: " + state);
                    }
                }
            }
        } finally {
            release.countDown();
            multi.release();
            assertTrue(multi.awaitTermination(10, TimeUnit.SECONDS), multi::toString);
        }
    }

    /**
     * The same for a {@link Pool}: its logger, told by {@code shutdownNow} that an interrupt threw, cannot reboot
     * the pool halfway through the walk (which would go on to interrupt the reopened pool's workers); the pool stays
     * closed and terminates.
     */
    @Test
    void aLoggerCannotRebootAPoolDuringItsShutdownNow() throws Exception {
        ErrorHook logger = new ErrorHook();
        Pool pool = Pool.newPool(2, PoolOptions.builder().logger(logger).build());
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> channel.blockUntil(release));
            TestSupport.await(channel.blocked);
            AtomicReference<Throwable> refused = new AtomicReference<>();
            logger.onError.set(() -> rebootRefused(pool, refused));
            pool.shutdownNow();
            assertTrue(logger.onError.get() == null, () -> "the logger was not called at ERROR; the blocked task saw an"
                    + " interrupt: " + channel.interrupted.get() + "; logged: " + logger.calls + "; " + pool);
            assertTrue(refused.get() instanceof IllegalStateException,
                    () -> "the logger's reboot was not refused with IllegalStateException but " + refused.get());
            assertTrue(pool.isClosed(), pool::toString);
        } finally {
            release.countDown();
            pool.release();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), pool::toString);
        }
    }

    /** Reboots {@code pool}, keeping what it threw, if anything. */
    private static void rebootRefused(WorkerPool pool, AtomicReference<Throwable> refused) {
        try {
            pool.reboot();
        } catch (Throwable t) {
            refused.set(t);
        }
    }
}
