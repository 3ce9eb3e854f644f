package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Mutex javadoc: when the JDK cannot unpark a waiter that unlock chose, "the next waiter is woken in its place,
 * however many cannot be": with thousands of lost waiters queued ahead (each once taking a level of the unlocking
 * thread's stack), the waiter behind them must still be woken. Runs {@link MutexLostChainProbe} in a JVM of its own (see {@link UnparkFailureTest}).
 */
@Timeout(180)
class MutexLostChainTest {

    @Test
    void inNormalModeAWaiterBehindManyLostOnesIsStillWoken() throws Exception {
        UnparkFailureTest.runProbe(MutexLostChainProbe.class, "normal-wake-through-many-lost-waiters");
    }
}
