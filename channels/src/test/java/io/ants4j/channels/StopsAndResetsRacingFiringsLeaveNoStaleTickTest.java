package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ticker's contracts (stop: "no tick is sent after this method returns, and a tick left in the channel is taken out";
 * reset: the next tick one period from now), with stops and resets from several threads racing the firings of the
 * ticker's successive timers, which share one sending flag (Timers.LastTick.sending): review 69's attacks on that
 * flag, all of which held.
 */
class StopsAndResetsRacingFiringsLeaveNoStaleTickTest {
    private static final Duration LONG = Duration.ofHours(1);

    /** Resets the ticker 1 to 39 times to 50-300 us (polling now and then), pauses, then stops it or resets it to 1 h. */
    private static void resetsInARow(Ticker ticker, boolean resetLast) throws InterruptedException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int k = r.nextInt(1, 40); k > 0; k--) {
            ticker.reset(Duration.ofNanos(r.nextInt(50_000, 300_000)));
            if (r.nextInt(4) == 0) {
                ticker.chan().poll();
            }
        }
        Threads.pause(r.nextInt(0, 300_000));
        if (resetLast) {
            ticker.reset(LONG);
        } else {
            ticker.stop();
        }
    }

    /**
     * Several resets in a row (to a 200 us period) from three threads race the firings; each round ends with the three
     * threads doing a stop or a reset(1 h) at once: whatever the order, once they have returned the channel holds no
     * tick and none comes, and at most one timer of the ticker is left in the heap.
     */
    @Test
    void resetsInARowFromSeveralThreadsRacingFiringsEndInTheStateOfOneOrder() throws Exception {
        Threads.untilNoTimerPending();
        for (int round = 0; round < 60; round++) {
            Ticker ticker = new Ticker(Duration.ofNanos(200_000));
            Threads.Action resetsThenStop = () -> resetsInARow(ticker, false);
            Threads.race(resetsThenStop, () -> resetsInARow(ticker, true), resetsThenStop);
            Instant left = ticker.chan().poll();
            assertNull(left, "round " + round + ": a tick was left after the last stops/resets returned");
            Instant late = ticker.chan().poll(5, TimeUnit.MILLISECONDS);
            assertNull(late, "round " + round + ": a tick came after the last stops/resets returned");
            assertTrue(Timers.queued() <= 1, () -> "two timers of one ticker in the heap: " + Timers.queued());
            ticker.stop();
        }
    }

    /**
     * Ticks of two successive timers of the ticker pending at once (its channel's lock held by the test): the stops and
     * the reset(1 h) from three threads do not wait for the lock (the channel is empty), and once the lock is let go no
     * tick is sent.
     */
    @Test
    void twoPendingTimersOfOneTickerStoppedAndResetFromThreeThreads() throws Exception {
        for (int round = 0; round < 20; round++) {
            Threads.untilNoTimerPending();
            Ticker ticker = new Ticker(LONG); // no tick before the lock is held: the channel stays empty
            Chan<Instant> c = ticker.chan();
            c.lock.lock();
            try {
                Threads.Failing r = Threads.start(() -> ticker.reset(Duration.ofMillis(1)));
                r.join();
                Timers.Timer t1 = Threads.timerOf(ticker);
                Threads.until("t1's tick pending", () -> t1.pendingTick != null);
                r = Threads.start(() -> ticker.reset(Duration.ofMillis(1)));
                r.join();
                Timers.Timer t2 = Threads.timerOf(ticker);
                assertNotSame(t1, t2);
                Threads.until("t2's tick pending", () -> t2.pendingTick != null);
                Threads.race(ticker::stop, () -> ticker.reset(LONG), ticker::stop);
            } finally {
                c.lock.unlock();
            }
            assertNull(c.poll(5, TimeUnit.MILLISECONDS), "round " + round + ": a tick was sent after the lock was "
                    + "let go, though every timer of the ticker was stopped or reset to 1 h before");
            assertTrue(Timers.queued() <= 1, () -> "two timers of one ticker in the heap: " + Timers.queued());
            ticker.stop();
        }
    }

    /**
     * A reset (to 1 ms) blocked on its own channel's lock while the old timer's tick X1 is in the buffer, and the new
     * timer's tick pending on the same lock: whichever takes the lock first once it is let go, X1 is never received
     * after the reset has returned.
     */
    @Test
    void aResetWhoseNewTimersFirstTickIsSentBeforeItsOwnLookLeavesNoOldTick() throws Exception {
        for (int round = 0; round < 40; round++) {
            Threads.untilNoTimerPending();
            Ticker ticker = new Ticker(Duration.ofMillis(1));
            Chan<Instant> c = ticker.chan();
            Threads.until("a tick in the buffer", () -> c.len() == 1);
            Instant x1;
            Threads.Failing r;
            Timers.Timer t1 = Threads.timerOf(ticker);
            c.lock.lock();
            try {
                x1 = ticker.lastTick.tick;
                r = Threads.start(() -> ticker.reset(Duration.ofMillis(1)));
                Threads.until("the reset replaced the timer", () -> Threads.timerOf(ticker) != t1);
                Threads.until("the reset waits for the channel's lock", () -> c.lock.hasQueuedThread(r.thread));
                Timers.Timer t2 = Threads.timerOf(ticker);
                Threads.until("t2's tick pending", () -> t2.pendingTick != null);
            } finally {
                c.lock.unlock();
            }
            r.join();
            for (int i = 0; i < 3; i++) {
                Instant got = c.poll(20, TimeUnit.MILLISECONDS);
                if (got == x1) {
                    fail("round " + round + ": the old timer's tick was received after the reset returned");
                }
            }
            ticker.stop();
        }
    }

    /**
     * A tick pending on the held lock when the ticker is reset to 50 ms, the lock let go at once: the next tick comes
     * one period after the reset, not the pending one.
     */
    @Test
    void aTickPendingOnAHeldLockWhenTheTickerIsResetIsNotSent() throws Exception {
        for (int round = 0; round < 10; round++) {
            Threads.untilNoTimerPending();
            Ticker ticker = new Ticker(Duration.ofMillis(1));
            Chan<Instant> c = ticker.chan();
            Timers.Timer t1 = Threads.timerOf(ticker);
            long resetAt;
            c.lock.lock();
            try {
                Threads.until("t1's tick pending", () -> t1.pendingTick != null);
                resetAt = System.nanoTime();
                ticker.reset(Duration.ofMillis(50));
            } finally {
                c.lock.unlock();
            }
            Instant got = c.poll(5, TimeUnit.SECONDS);
            long at = System.nanoTime();
            assertTrue(got != null, "no tick after the reset");
            long after = at - resetAt;
            assertTrue(after >= TimeUnit.MILLISECONDS.toNanos(49), "round " + round + ": a tick came "
                    + after / 1000 + " us after a reset to 50 ms");
            ticker.stop();
        }
    }
}
