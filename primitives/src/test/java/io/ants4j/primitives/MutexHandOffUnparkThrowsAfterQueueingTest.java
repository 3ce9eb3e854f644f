package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mutex javadoc: "A non-reentrant mutual-exclusion lock". 519b924 takes a waiter whose hand-off unpark throws for a
 * thread that "never runs again" and completes the hand-off in its stead. An unpark can throw after the thread's
 * continuation was queued (JDK 21's ForkJoinPool throws OutOfMemoryError from execute when it cannot start a worker
 * after queueing the task; WaitGroup's own notes: "An executor may throw from execute and still run the task later"):
 * that thread then runs and must not take the lock as well. Runs
 * {@link MutexHandOffUnparkThrowsAfterQueueingProbe} in a JVM of its own (see {@link UnparkFailureTest}).
 */
@Timeout(120)
class MutexHandOffUnparkThrowsAfterQueueingTest {

    @Test
    void aHeadWaiterWhoseHandOffUnparkThrewButThatRunsDoesNotTakeTheLockAnotherHolds() throws Exception {
        UnparkFailureTest.runProbe(MutexHandOffUnparkThrowsAfterQueueingProbe.class,
                "hand-off-unpark-throws-but-the-thread-runs");
    }
}
