package io.ants4j.pool;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform"})
    void anIdleWorkerIsRetiredAfterMomentsOfFullHeap(String workers) throws Exception {
        LifecycleOutOfMemoryTest.runProbe(PurgerAfterAFullHeapProbe.class, workers);
    }
}
