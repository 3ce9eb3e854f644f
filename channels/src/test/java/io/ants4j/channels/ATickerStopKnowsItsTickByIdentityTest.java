package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ticker: "A tick is known by identity: a receiver that sends the ticker's last tick (that very Instant) back into
 * the channel has it taken out by a stop or reset as the tick it is"; another value sent into the channel, even one
 * equal to the tick, stays (reviews 65 and 67).
 */
class ATickerStopKnowsItsTickByIdentityTest {

    @Test
    void theVeryTickSentBackIsTakenOutAndAnotherValueStays() throws InterruptedException {
        for (boolean sameObject : new boolean[] {true, false}) {
            Ticker ticker = new Ticker(Duration.ofMillis(300)); // the next tick long after the test's few steps
            Instant tick = ticker.chan().poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
            assertNotNull(tick, "no tick");
            Instant back = sameObject ? tick : Instant.ofEpochSecond(tick.getEpochSecond(), tick.getNano());
            assertTrue(ticker.chan().offer(back), "the channel was not empty");
            ticker.stop();
            if (sameObject) {
                assertNull(ticker.chan().poll(), "the very tick sent back stayed after stop");
            } else {
                assertSame(back, ticker.chan().poll(), "a value equal to the tick but not it was taken out by stop");
            }
        }
    }
}
