package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WaitGroup javadoc: "a group may be reused at once: the add of the next round may come before every waiter of the
 * previous one has returned, and does not hold them back"; add throws only on misuse ("Misuse throws
 * IllegalStateException ... and leaves the group as it was"); design.md: a waiter the JDK cannot unpark is lost
 * alone; WaitGroup.leave already keeps the same failure from a waiter that completes a release ("Throws nothing of
 * that release's wake-ups: they concern the other waiters"). Runs {@link WaitGroupNextRoundProbe} in a JVM of its
 * own (see {@link UnparkFailureTest}).
 */
@Timeout(120)
class WaitGroupNextRoundTest {

    @Test
    void anAddStartingTheNextRoundIsMadeAlthoughWakingALostWaiterOfThePreviousRoundThrows() throws Exception {
        UnparkFailureTest.runProbe(WaitGroupNextRoundProbe.class, "add-starting-the-next-round");
    }
}
