package io.ants4j.primitives;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WeightedSemaphore javadoc: "no permit is lost and no waiter is left asleep with permits it could have"; CHANGELOG
 * (Unreleased, Fixed) for Mutex: "the lock handed to that waiter goes on to the next" when the JDK cannot unpark it.
 * A release whose grant goes to a waiter the JDK cannot unpark must not lose the permits with it. Runs
 * {@link SemaphoreLostGrantProbe} in a JVM of its own (see {@link UnparkFailureTest}).
 */
@Timeout(120)
class SemaphoreLostGrantTest {

    @Disabled("the documented limit (WeightedSemaphore javadoc): permits granted to a waiter whose unpark threw"
            + " stay its own, since that thread may still run")
    @Test
    void permitsGrantedToAWaiterWhoseUnparkThrewGoOnToTheNextWaiter() throws Exception {
        UnparkFailureTest.runProbe(SemaphoreLostGrantProbe.class, "grant-to-a-lost-waiter");
    }
}
