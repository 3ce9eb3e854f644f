package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review 36. What a hand-off to an idle worker allocates, in steady state.
 *
 * <p>Contract: the README (README.md:243) "{@code invoke} hands over only the argument, allocating nothing per
 * call"; the {@link PoolWithFunc} javadoc (PoolWithFunc.java:20-21) "In steady state (an idle worker available)
 * {@code invoke} allocates nothing: no task object, no queue node, no future"; the {@link Pool} javadoc
 * (Pool.java:33-34) "the hand-off is a single slot per worker (release/acquire plus park/unpark), so handing a task
 * over allocates nothing".
 *
 * <p>What happens: with the default, virtual, workers every hand-off to an idle worker parked on the idle queue
 * allocates about 32 bytes on the submitter's thread (the JDK's unpark of a virtual thread submits its continuation
 * to the scheduler, which wraps it in a task object). Platform workers (the control case) allocate nothing. The
 * claim holds only while the worker is still spinning in the fast lane, i.e. for submissions tens of microseconds
 * apart. The submitter here waits, each time, until the worker is back on the idle queue (parked), the steady state
 * of any pool whose submissions are further apart than the lane's spin.
 */
class InvokeOnAnIdleVirtualWorkerAllocatesNothingTest {

    private static final int CALLS = 2_000;

    @ParameterizedTest(name = "platform workers={0}")
    @ValueSource(booleans = {true, false})
    void invokeOnAnIdleParkedWorkerAllocatesNothing(boolean platform) throws Exception {
        Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Method allocated = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getCurrentThreadAllocatedBytes");
        AtomicLong done = new AtomicLong();
        PoolOptions.Builder options = PoolOptions.builder().disablePurge(true);
        if (platform) {
            options.threadFactory(Thread.ofPlatform().factory());
        }
        PoolWithFunc<Object> pool = PoolWithFunc.newPool(1, x -> done.incrementAndGet(), options.build());
        PoolCore core = (PoolCore) pool.core;
        Object arg = new Object();
        try {
            long perCall = 0;
            for (int round = 0; round < 4; round++) { // the first rounds warm up (class loading, JIT, counter cells)
                long before = (long) allocated.invoke(bean);
                for (int i = 0; i < CALLS; i++) {
                    long target = done.get() + 1;
                    pool.invoke(arg);
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    // until the task ran and its worker is parked on the idle queue, off the fast lane (no allocation)
                    while (done.get() < target || core.queued() != 1) {
                        if (System.nanoTime() - deadline > 0) {
                            throw new AssertionError("the worker did not come back: " + pool);
                        }
                        Thread.onSpinWait();
                    }
                }
                perCall = ((long) allocated.invoke(bean) - before) / CALLS;
            }
            assertTrue(perCall < 8, "invoke on an idle (parked) worker allocated " + perCall
                    + " bytes per call on the submitter's thread in steady state");
        } finally {
            pool.releaseTimeout(Duration.ofSeconds(10));
        }
    }
}
