package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Review 70 (held): tickers made, reset and stopped while another call's start of the timer thread is under way
 * (slow, the package's {@code Timers.starter}). Contracts: after stop() no tick is ever sent; after reset(p) no tick
 * of the old period, the next one period after the reset; one timer thread.
 */
@ExtendWith(Threads.NoTimerThreadAndRealStarts.class)
class StopsAndResetsDuringASlowStartOfTheTimerThreadTest {

    @Test
    void aStoppedTickerStaysSilentAndAResetTickerKeepsItsNewPeriod() throws Exception {
        Threads.SlowStart slow = new Threads.SlowStart();
        Timers.starter = slow;
        AtomicReference<Chan<Instant>> first = new AtomicReference<>();
        Threads.Failing maker = Threads.start(() -> first.set(Chan.after(Duration.ofMillis(1))));
        Ticker stopped;
        Ticker reset;
        long resetAt;
        try {
            slow.awaitStarting();
            stopped = new Ticker(Duration.ofMillis(1));
            stopped.reset(Duration.ofMillis(2));
            stopped.stop();
            reset = new Ticker(Duration.ofMillis(1));
            Threads.pause(TimeUnit.MILLISECONDS.toNanos(20)); // the 1 ms timer long due when the thread starts
            resetAt = System.nanoTime();
            reset.reset(Duration.ofMillis(200));
            slow.release.countDown();
        } finally {
            slow.release.countDown();
            maker.join();
        }
        assertNotNull(first.get().poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the after never fired");
        Instant tick = reset.chan().poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
        long after = System.nanoTime() - resetAt;
        assertNotNull(tick, "the reset ticker never ticked");
        assertTrue(after >= TimeUnit.MILLISECONDS.toNanos(200),
                "the reset ticker's first tick came " + TimeUnit.NANOSECONDS.toMicros(after) + " us after reset(200 ms)");
        assertNull(stopped.chan().poll(100, TimeUnit.MILLISECONDS), "a ticker stopped during the start ticked");
        reset.stop();
        assertEquals(1, slow.starts.get(), "timer threads started");
    }
}
