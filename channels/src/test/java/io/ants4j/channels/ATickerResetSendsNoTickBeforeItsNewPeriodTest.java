package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Ticker.java:381-382, reset: "Stops the ticker and starts it again with a new period, the next tick one period from
 * now (Go's {@code Reset})." Go's Ticker.Reset (Go 1.23 and later, the channel being synchronous) guarantees that no
 * tick of the old schedule is received after Reset returns. Here a tick the old schedule left in the channel is
 * received at once after {@code reset(1 day)}: the next tick comes now, not one period from now.
 */
class ATickerResetSendsNoTickBeforeItsNewPeriodTest {

    @Test
    void noTickIsReceivedBeforeTheNewPeriodAfterAReset() {
        try (Ticker ticker = new Ticker(Duration.ofMillis(1))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (ticker.chan().len() == 0 && System.nanoTime() < deadline) { // a tick of the 1 ms schedule
                Thread.onSpinWait();
            }
            assertEquals(1, ticker.chan().len(), "precondition: the 1 ms ticker ticked within 10 s");
            ticker.reset(Duration.ofDays(1));
            Instant tick = ticker.chan().poll();
            assertNull(tick, "a tick was received right after reset(1 day): " + tick
                    + " (the old schedule's tick stayed in the channel)");
        }
    }
}
