package io.ants4j.pool;

import org.junit.jupiter.api.Test;

/**
 * The first worker of the JVM takes its first step on a full heap.
 *
 * <p>Contracts: {@code Core.dispatch} returns true when "its payload was handed over", and
 * {@code Pool.execute} returns normally for a task a worker took; PoolCore's notes: "Neither does what follows a
 * change of state (a hand-off, a stop, a grant, a wake-up of termination's waiters) once its code is linked: the
 * first run of a VarHandle call site in the JVM allocates, so the constructor runs those paths once on objects of
 * no pool (linkStateChanges) ... a worker's admission (its thread's first step ...)". The admission and the
 * worker's first {@code take} are not run by {@code linkStateChanges} ({@code linking.run()} returns at
 * {@code Thread.currentThread() != thread}, before the admission CAS; {@code take} is never called), so on a full
 * heap the accepted task is lost with its worker (LifecycleOutOfMemoryTest shows the same for the first spin,
 * spin loop and withdrawal, all fixed).
 */
class FirstWorkerRunOutOfMemoryTest {

    @Test
    void theFirstWorkerOfTheJvmStartingOnAFullHeapRunsTheTaskItWasHanded() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(FirstWorkerRunOutOfMemoryProbe.class, "first-worker-run-unwarmed");
    }

    /**
     * The control: the same after a worker of another pool has run a task with memory to spare (every path of a
     * worker's first steps linked); passes, so the failure above is the first run's, not the set-up's.
     */
    @Test
    void theSameAfterAnotherPoolsWorkerRanOnceRunsTheTask() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(FirstWorkerRunOutOfMemoryProbe.class, "first-worker-run-warmed");
    }
}
