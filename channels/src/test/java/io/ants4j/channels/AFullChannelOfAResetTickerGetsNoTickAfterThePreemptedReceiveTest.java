package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 73. Ticker's javadoc: "A receiver that falls behind misses ticks: the channel holds one, and a tick that finds
 * it full is dropped, as in Go" (slow receivers lose ticks, never get a burst; APreemptedReceiverGetsNoBurstOfTicksTest).
 * A reset made while the channel is empty (the receiver took the last tick) skips the channel's lock, so the ticker's
 * record of its last tick still names the stopped timer. If the channel is then full of another value (sent by its
 * user, or by a blocked sender) when the new timer's first tick falls due, and a receiver preempted inside its receive
 * holds the lock, the tick must be dropped, not kept for the lock and sent right after the value the receiver took
 * (Go's send looks at full() first, without the lock, and drops the tick). Only a stale tick of the ticker filling the
 * channel spares the tick (AResetHeldByItsChannelsLockLosesNoTickOfTheNewPeriodTest).
 */
class AFullChannelOfAResetTickerGetsNoTickAfterThePreemptedReceiveTest {
    private static final long PERIOD_MILLIS = 200;

    @Test
    void aTickThatFindsTheChannelFullAfterAResetIsDroppedAlsoWhenItsLockIsHeld() throws Exception {
        Threads.untilNoTimerPending();
        try (Ticker ticker = new Ticker(Duration.ofMillis(PERIOD_MILLIS))) {
            Chan<Instant> c = ticker.chan();
            Timers.Timer old = ticker.timer;
            Threads.until("a tick is in the channel, none pending", () -> c.len() == 1 && old.pendingTick == null);
            Instant took = c.poll(); // the receiver keeps up
            assertTrue(took != null && c.len() == 0, "precondition: the receiver took the tick");
            ticker.reset(Duration.ofMillis(PERIOD_MILLIS)); // the channel empty: the reset's look skips the lock
            Instant mine = Instant.EPOCH;
            assertTrue(c.offer(mine), "the user's value goes in");
            Timers.Timer fresh = Threads.timerOf(ticker);
            long firstDue = fresh.when;
            Instant first;
            long received;
            c.lock.lock(); // a receiver preempted inside its receive
            try {
                Threads.until("the new timer's first tick is due and was looked at", () -> fresh.pendingTick == null
                        ? fresh.when != firstDue : fresh.retried);
                first = c.poll(); // the receiver resumes and takes the value that filled the channel
                received = System.nanoTime();
            } finally {
                c.lock.unlock();
            }
            assertEquals(mine, first, "precondition: the receiver took the user's value");
            Instant next = c.poll(PERIOD_MILLIS / 3, TimeUnit.MILLISECONDS);
            long gapMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - received);
            assertNull(next, "after a reset made with the channel empty, a tick of a " + PERIOD_MILLIS
                    + " ms ticker that found the channel full of another value, its lock held by a preempted "
                    + "receiver, was kept for the lock instead of dropped and came " + gapMillis + " ms after the "
                    + "value that filled the channel (a burst of two): " + first + ", then " + next);
        }
    }
}
