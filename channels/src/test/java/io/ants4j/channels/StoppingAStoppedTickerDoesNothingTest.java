package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Ticker.java:344-345, stop: "Stopping a stopped ticker does nothing." The channel of a Ticker is an ordinary Chan,
 * not receive-only as Go's is, so its user may send on it (to wake its own loop, say). Timers.stop polls the channel
 * whether or not the ticker's timer was still queued: a second stop takes out (and drops) a value the user sent after
 * the first one, and wakes nothing to tell.
 */
class StoppingAStoppedTickerDoesNothingTest {

    @Test
    void aSecondStopLeavesAValueSentAfterTheFirstInTheChannel() {
        Ticker ticker = new Ticker(Duration.ofHours(1));
        ticker.stop();
        Instant mine = Instant.EPOCH;
        ticker.chan().offer(mine);
        ticker.stop();
        assertEquals(1, ticker.chan().len(), "the stop of a stopped ticker took the value its user sent on the "
                + "ticker's channel out of it (and dropped it)");
        assertEquals(mine, ticker.chan().poll());
    }
}
