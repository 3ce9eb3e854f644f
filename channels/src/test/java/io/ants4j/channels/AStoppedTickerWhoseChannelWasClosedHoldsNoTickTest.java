package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Review 64. Contract (Ticker): "after stop() returns no tick is sent and the channel holds no tick of it". Our
 * channels are not receive-only: a user may close a ticker's channel (Timers' notes: "a channel its user closes ...
 * drops its timer"). A tick is buffered, the user closes the channel, the timer thread drops the timer at its next
 * deadline without taking the tick out; stop() then finds the timer out of the heap and does nothing, and the stale
 * tick is still received after stop returned. (Had stop come before the thread's look, it would have taken the tick
 * out: the control test.)
 */
class AStoppedTickerWhoseChannelWasClosedHoldsNoTickTest {

    @BeforeEach
    void noTimerPending() {
        Threads.untilNoTimerPending();
    }

    @Test
    void stopAfterTheThreadDroppedTheClosedChannelsTimerTakesTheTickOut() {
        Ticker ticker = new Ticker(Duration.ofMillis(20));
        Threads.until("a tick is buffered", () -> ticker.chan().len() == 1);
        ticker.chan().close();
        Threads.until("the timer thread drops the closed channel's timer", () -> Timers.queued() == 0);
        ticker.stop();
        assertNull(ticker.chan().poll(), "a tick of the stopped ticker is left in its channel after stop returned");
    }

    @Test
    void controlStopBeforeTheThreadLooksTakesTheTickOut() {
        Ticker ticker = new Ticker(Duration.ofDays(1));
        ticker.reset(Duration.ofMillis(20));
        Threads.until("a tick is buffered", () -> ticker.chan().len() == 1);
        Timers.lock().lock(); // the thread cannot look at the closed channel before the stop
        try {
            ticker.chan().close();
            ticker.stop();
        } finally {
            Timers.lock().unlock();
        }
        assertNull(ticker.chan().poll(), "a tick of the stopped ticker is left in its channel after stop returned");
    }
}
