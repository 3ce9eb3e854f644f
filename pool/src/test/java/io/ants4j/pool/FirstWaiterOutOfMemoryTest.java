package io.ants4j.pool;

import org.junit.jupiter.api.Test;

/**
 * The JVM's first blocked submitter waits on a nearly full heap.
 *
 * <p>Contracts: {@code WorkerPool.waiting()}: "the number of submitters blocked right now waiting for a worker";
 * PoolCore's notes: "Every path that changes the lock, the waiters or running restores them in a finally or a catch
 * of Throwable", and {@code abandon}: "For a waiter leaving on an unexpected throwable: takes it out of the list".
 * {@code Waiters.Waiter.grant()}'s {@code VarHandle} read is not run by {@code PoolCore.linkStateChanges}, so on the
 * first wait of the JVM it links, which allocates; {@code abandon} reads it again and throws again, and the submitter
 * that got the {@code OutOfMemoryError} stays listed: counted in {@code waiting()}, and its task runs when a worker
 * comes back.
 */
class FirstWaiterOutOfMemoryTest {

    @Test
    void theFirstSubmitterOfTheJvmThatFailsWhileWaitingLeavesTheWaiters() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(FirstWaiterOutOfMemoryProbe.class, "first-waiter-unwarmed");
    }

    /**
     * The control: the same with the grant's read linked before (one read on a waiter of no pool); the submitter
     * fails the same way and leaves the list, so the failure above is the unlinked read's.
     */
    @Test
    void theSameWithTheGrantReadLinkedLeavesTheWaiters() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(FirstWaiterOutOfMemoryProbe.class, "first-waiter-warmed");
    }
}
