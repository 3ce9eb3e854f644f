package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Chan.java:99, after: "Returns a channel on which the current time is sent once delay has passed (Go's
 * time.After)"; Ticker.java:321-322: "Go's time.Ticker ... A receiver that falls behind misses ticks ... a tick that
 * finds it full is dropped, as in Go." Go's ticker, when late, schedules its next tick in the future (it drops the
 * missed periods), and other timers keep their times. Here a Ticker is scheduleAtFixedRate on the one timer thread
 * (Timers.java:237): with a period shorter than a tick takes to run (Go's time.NewTicker(time.Nanosecond) is legal),
 * its nominal next time falls further behind the clock at every run, it is always the earliest task, and every
 * Chan.after of the JVM waits until the ticker's nominal time catches up with it (about one run per nanosecond of
 * delay: a 10 ms after was measured at 2.3 s, 230 times late); here a 50 ms after is not sent within 2 s.
 */
class AFastTickerDoesNotHoldBackOtherTimersTest {

    @Test
    void aFiftyMillisecondAfterIsSentWithinTwoSecondsWhileANanosecondTickerRuns() throws InterruptedException {
        try (Ticker fast = new Ticker(Duration.ofNanos(1))) {
            assertNotNull(fast.chan().poll(5, TimeUnit.SECONDS), "precondition: the ticker ticks");
            Chan<Instant> timeout = Chan.after(Duration.ofMillis(50));
            Instant sent = timeout.poll(2, TimeUnit.SECONDS);
            assertNotNull(sent, "Chan.after(50 ms) was not sent within 2 s while a Ticker(1 ns) ran: the ticker's "
                    + "catch-up runs hold the one timer thread");
        }
    }
}
