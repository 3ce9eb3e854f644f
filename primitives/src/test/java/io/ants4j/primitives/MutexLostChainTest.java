package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CHANGELOG (Unreleased, Fixed): "a Mutex whose woken waiter could not be unparked wakes later waiters", also in
 * starvation mode (519b924). The unlock passes the lock or wake-up on past a lost waiter by calling itself again, one
 * level of the caller's stack per lost waiter: with enough lost waiters queued ahead, the waiter behind them must still
 * get the lock. Runs {@link MutexLostChainProbe} in a JVM of its own (see {@link UnparkFailureTest}).
 */
@Timeout(180)
class MutexLostChainTest {

    @Test
    void inStarvationModeAWaiterBehindManyLostOnesStillGetsTheLock() throws Exception {
        UnparkFailureTest.runProbe(MutexLostChainProbe.class, "starvation-hand-off-through-many-lost-waiters");
    }

    @Test
    void inNormalModeAWaiterBehindManyLostOnesIsStillWoken() throws Exception {
        UnparkFailureTest.runProbe(MutexLostChainProbe.class, "normal-wake-through-many-lost-waiters");
    }
}
