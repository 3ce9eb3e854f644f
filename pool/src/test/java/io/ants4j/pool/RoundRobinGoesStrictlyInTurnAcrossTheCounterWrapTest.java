package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Review 36. Round robin over three sub-pools when the submission counter wraps around.
 *
 * <p>Contract, {@link LoadBalancing#ROUND_ROBIN} (LoadBalancing.java:6): "The sub-pools strictly in turn."
 *
 * <p>What happened: the sub-pool was {@code index.incrementAndGet()} taken modulo N as an unsigned 32-bit number,
 * and the counter wrapped after 2^32 submissions; unless N divides 2^32 the turn jumped there: with three sub-pools,
 * counter values 2^32 - 2, 2^32 - 1, 0 picked sub-pools 2, 0, 0, so sub-pool 0 got two submissions in a row and
 * sub-pool 1 was skipped. The counter now has 64 bits; the test moves it to just before 2^32 instead of making four
 * billion submissions (it set the 32-bit counter to -3 when it was written, and failed there).
 * Each task blocks, so each submission starts a worker in the sub-pool it went to (no worker spins in the fast
 * lane, which could otherwise take a task of another sub-pool).
 */
class RoundRobinGoesStrictlyInTurnAcrossTheCounterWrapTest {

    @Test
    void threeSubmissionsAcrossTheWrapGoToThreeDifferentSubPools() throws Exception {
        MultiPool pool = MultiPool.newMultiPool(3, 3, LoadBalancing.ROUND_ROBIN);
        CountDownLatch gate = new CountDownLatch(1);
        try {
            Field f = MultiPoolCore.class.getDeclaredField("index");
            f.setAccessible(true);
            ((AtomicLong) f.get(pool.core)).set((1L << 32) - 3); // the next values: 2^32 - 2, 2^32 - 1, 2^32
            CountDownLatch running = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                pool.execute(() -> {
                    running.countDown();
                    block(gate);
                });
            }
            await(running);
            String where = "running per sub-pool: " + pool.running(0) + ", " + pool.running(1) + ", " + pool.running(2);
            assertEquals(1, pool.running(0), where);
            assertEquals(1, pool.running(1), where);
            assertEquals(1, pool.running(2), where);
        } finally {
            gate.countDown();
            pool.releaseTimeout(Duration.ofSeconds(10));
        }
    }
}
