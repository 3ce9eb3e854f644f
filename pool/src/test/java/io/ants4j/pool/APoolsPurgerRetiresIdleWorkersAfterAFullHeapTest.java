package io.ants4j.pool;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Pool's javadoc (Pool.java:31): "a background purger retires workers idle for longer than" the expiry; README
 * "Failures" names no exhausted-heap limit for it. The purger ({@code PeriodicTask}) sleeps with
 * {@code LockSupport.parkNanos} between runs; with virtual workers it is a virtual thread, whose timed park is
 * woken by the JDK's timer, and on JDK 25 that timer's unpark on a full heap throws an {@code OutOfMemoryError}
 * that {@code ForkJoinTask.doExec} swallows (seen with {@code -Xlog:exceptions=info}:
 * {@code VirtualThread.parkTimeoutExpired -> unpark -> lazySubmitRunContinuation -> ForkJoinTask.adapt}). After
 * a few moments of full heap the purger sleeps for good and no idle worker is retired again until the pool is
 * released. The heap timing makes it likely, not certain, in one run (3 of 3 runs failed on the virtual case).
 * Runs {@link PurgerAfterAFullHeapProbe} in a JVM of its own with a small heap; {@code platform} is the control
 * (a platform purger's park allocates nothing) and passes.
 */
class APoolsPurgerRetiresIdleWorkersAfterAFullHeapTest {

    @Test
    void aPlatformPurgerRetiresIdleWorkersAfterMomentsOfFullHeap() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(PurgerAfterAFullHeapProbe.class, "platform");
    }

    @Test
    @Disabled("a JDK 25 hazard, documented in README \"Failures\": the timer that wakes the virtual purger from parkNanos runs out of memory on a full heap and the JDK drops the error (ForkJoinTask.doExec), so the purger is never woken again")
    void aVirtualPurgerRetiresIdleWorkersAfterMomentsOfFullHeap() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(PurgerAfterAFullHeapProbe.class, "virtual");
    }
}
