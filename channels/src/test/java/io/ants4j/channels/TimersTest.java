package io.ants4j.channels;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link Chan#after} and {@link Ticker}: Go's time.After and time.Ticker. */
class TimersTest {
    @Test
    void afterAZeroOrNegativeDelayHoldsTheTimeAtOnce() {
        assertNotNull(Chan.after(Duration.ZERO).poll());
        assertNotNull(Chan.after(Duration.ofSeconds(-1)).poll());
        assertThrows(NullPointerException.class, () -> Chan.after(null));
    }

    @Test
    void afterSendsOnceTheDelayHasPassed() throws Exception {
        long before = System.nanoTime();
        Chan<Instant> c = Chan.after(Duration.ofMillis(50));
        assertNotNull(c.poll(20, SECONDS));
        assertTrue(System.nanoTime() - before >= MILLISECONDS.toNanos(50));
        assertEquals(0, c.len());
        assertFalse(c.isClosed());
        assertNull(c.poll(20, MILLISECONDS), "after sent twice");
    }

    @Test
    void afterOfAnEnormousDelayNeverSends() {
        assertNull(Chan.after(Duration.ofSeconds(Long.MAX_VALUE)).poll());
    }

    @Test
    void afterInASelectIsATimeout() throws Exception {
        Chan<Integer> never = new Chan<>();
        assertEquals(1, Select.select(never.onReceive(v -> { }), Chan.after(Duration.ofMillis(10)).onReceive(t -> { })));
    }

    @Test
    void aTickerTicksUntilStoppedAndNotAfter() throws Exception {
        Ticker ticker = new Ticker(Duration.ofMillis(5));
        for (int i = 0; i < 3; i++) {
            assertNotNull(ticker.chan().poll(20, SECONDS), "tick " + i);
        }
        ticker.stop();
        assertNull(ticker.chan().poll(), "a tick left in the channel after stop"); // taken out, as in Go 1.23
        assertNull(ticker.chan().poll(50, MILLISECONDS), "a tick after stop");
        ticker.stop();
        assertFalse(ticker.chan().isClosed());
    }

    /** A tick that finds the channel full is dropped: an unread ticker holds up neither itself nor other timers. */
    @Test
    void aTickerDropsTicksForASlowReceiver() throws Exception {
        try (Ticker unread = new Ticker(Duration.ofMillis(1)); Ticker read = new Ticker(Duration.ofMillis(1))) {
            assertNotNull(unread.chan().poll(20, SECONDS));
            assertNotNull(unread.chan().poll(20, SECONDS), "the ticker stopped after a tick found its channel full");
            for (int i = 0; i < 20; i++) {
                assertNotNull(read.chan().poll(20, SECONDS), "tick " + i + " of another ticker");
            }
            assertNotNull(Chan.after(Duration.ofMillis(1)).poll(20, SECONDS), "after, behind a full ticker");
            assertEquals(1, unread.chan().len());
        }
    }

    @Test
    void aResetTickerTicksAtItsNewPeriod() throws Exception {
        try (Ticker ticker = new Ticker(Duration.ofDays(1))) {
            ticker.reset(Duration.ofMillis(5));
            assertNotNull(ticker.chan().poll(20, SECONDS));
        }
    }

    @Test
    void aTickerRefusesANonPositivePeriod() {
        assertThrows(IllegalArgumentException.class, () -> new Ticker(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new Ticker(Duration.ofMillis(-1)));
        assertThrows(NullPointerException.class, () -> new Ticker(null));
        try (Ticker ticker = new Ticker(Duration.ofDays(1))) {
            assertThrows(IllegalArgumentException.class, () -> ticker.reset(Duration.ZERO));
        }
    }

    /**
     * Ticker.stop: "no tick is sent after this method returns", even by a tick the timer thread was about to fire:
     * a stop queued on the timers' lock before the firing gets it first; the firing, let in after the stop returned,
     * sends nothing. A run in which the timer thread queued first (for this tick or another timer's) proves nothing:
     * its stopper is let finish and the run made again.
     */
    @Test
    void aTickRunningAsTheTickerStopsSendsNothingAfterTheStopReturns() throws Exception {
        for (int attempt = 0; ; attempt++) {
            assertTrue(attempt < 20, "the timer thread always queued on the timers' lock before the stop");
            Ticker ticker = new Ticker(Duration.ofMillis(100));
            Thread timerThread = Timers.thread();
            java.util.concurrent.locks.ReentrantLock lock = Timers.lock();
            Thread stopper;
            boolean timerThreadFirst;
            lock.lock();
            try {
                stopper = Thread.ofPlatform().start(ticker::stop);
                spinUntil(() -> lock.hasQueuedThread(stopper), "the stopper queues");
                timerThreadFirst = lock.hasQueuedThread(timerThread);
                if (!timerThreadFirst) {
                    spinUntil(() -> lock.hasQueuedThread(timerThread), "the tick queues behind the stopper");
                }
            } finally {
                lock.unlock();
            }
            stopper.join(20_000);
            assertFalse(stopper.isAlive());
            if (timerThreadFirst) {
                continue;
            }
            spinUntil(() -> !lock.hasQueuedThread(timerThread), "the tick has its turn");
            assertNull(ticker.chan().poll(200, MILLISECONDS), "a tick was sent after stop returned");
            return;
        }
    }

    /**
     * Ticker.stop and reset: "a tick left in the channel is taken out", also one fired just as the stop or reset
     * came, which it finds only under the timers' lock (the timer thread fires under it). The test holds the lock,
     * lets the stopper queue on it, puts a tick in the channel as the timer thread would under that lock (and records
     * it as the timer's last tick), and lets the stopper in: once stop (then reset) returns, the channel is empty.
     * Coverage review 18, mutant TK-S: Timers.stop taking the tick out before it takes the lock (a tick fired in
     * between stays); aTickRunningAsTheTickerStopsSendsNothingAfterTheStopReturns makes again the runs in which the
     * firing comes first.
     */
    @Test
    void aTickFiredAsTheTickerStopsOrResetsIsTakenOutBeforeItReturns() throws Exception {
        for (boolean reset : new boolean[] {false, true}) {
            try (Ticker ticker = new Ticker(Duration.ofDays(1))) {
                java.util.concurrent.locks.ReentrantLock lock = Timers.lock();
                Thread stopper;
                lock.lock();
                try {
                    stopper = Thread.ofPlatform().start(reset ? () -> ticker.reset(Duration.ofDays(1)) : ticker::stop);
                    spinUntil(() -> lock.hasQueuedThread(stopper), "the stopper queues on the timers' lock");
                    Instant tick = Instant.now(); // a tick fired now, as the timer thread fires one:
                    assertTrue(ticker.chan().offer(tick), "the channel was not empty");
                    ticker.lastTick.tick = tick; // recorded as its timer's last tick
                    ticker.lastTick.by = ticker.timer;
                } finally {
                    lock.unlock();
                }
                stopper.join(20_000);
                assertFalse(stopper.isAlive());
                assertNull(ticker.chan().poll(), (reset ? "reset" : "stop") + " left the tick fired as it came");
            }
        }
    }

    private static void spinUntil(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Threads.TIMEOUT_NANOS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting until " + what);
            Thread.onSpinWait();
        }
    }
}
