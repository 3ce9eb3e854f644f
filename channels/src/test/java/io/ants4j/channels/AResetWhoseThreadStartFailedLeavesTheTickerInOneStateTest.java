package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Review 70. Contract (Ticker.reset, Go's Reset): after reset(p) the next tick comes one period after the reset; a
 * stopped ticker stays silent. A reset whose start of the timer thread fails (no memory for a native thread; the
 * test's {@code Timers.starter}) throws, and must leave the ticker in ONE of the two states: reset (ticking every
 * p) or as it was (stopped). It leaves a third: silent for as long as no other timer call is made in the JVM, then
 * ticking every p once an unrelated Chan.after starts the thread. The stopped ticker revived by someone else's
 * Chan.after is what a user who caught the error cannot know about.
 */
@ExtendWith(Threads.NoTimerThreadAndRealStarts.class)
class AResetWhoseThreadStartFailedLeavesTheTickerInOneStateTest {
    private static final long PERIOD_MILLIS = 20;
    private static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(25 * PERIOD_MILLIS);

    @Test
    void aStoppedTickerWhoseResetThrewIsEitherResetOrStillStopped() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1));
        ticker.stop();
        Threads.untilNoTimerThread(); // the stopped ticker's timer is gone: the thread ends idle
        Timers.starter = t -> {
            throw new OutOfMemoryError("unable to create native thread (the test's)");
        };
        assertThrows(OutOfMemoryError.class, () -> ticker.reset(Duration.ofMillis(PERIOD_MILLIS)));
        Timers.starter = null;
        boolean tickedAfterTheReset = ticker.chan().poll(WATCH_NANOS, TimeUnit.NANOSECONDS) != null;
        Chan<Instant> unrelated = Chan.after(Duration.ofMillis(1)); // anyone's timer, anywhere in the JVM
        assertNotNull(unrelated.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the unrelated after never fired");
        ticker.chan().poll(); // a tick taken now says nothing
        boolean tickedAfterTheUnrelatedAfter = ticker.chan().poll(WATCH_NANOS, TimeUnit.NANOSECONDS) != null;
        ticker.stop();
        assertEquals(tickedAfterTheReset, tickedAfterTheUnrelatedAfter, "a stopped ticker whose reset("
                + PERIOD_MILLIS + " ms) threw ticked " + (tickedAfterTheReset ? "" : "not ") + "within "
                + 25 * PERIOD_MILLIS + " ms after it, and " + (tickedAfterTheUnrelatedAfter ? "" : "not ")
                + "once an unrelated Chan.after had started the timer thread: neither reset nor stopped");
    }
}
