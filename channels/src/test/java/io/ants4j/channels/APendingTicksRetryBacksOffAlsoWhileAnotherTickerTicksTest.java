package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 68. Contract: the timer thread "does not spin/burn CPU while a tick waits for a lock held for seconds more
 * than needed". Its retry of a pending tick backs off from 100 us to 6.4 ms only while no tick at all is sent: any
 * tick of another timer sent (or dropped on a full channel) in the same pass sets the retry back to 100 us. With a
 * ticker of 1 ms running (nobody receives: each tick is dropped), a pending Chan.after tick whose channel's lock is
 * held makes the thread wake at +0.1, +0.3, +0.7 ms after each tick: about four wake-ups a millisecond where one
 * (plus one every 6.4 ms) is needed. The test counts the timer thread's wake-ups (its parks: voluntary context
 * switches, from Linux's /proc; the CPU time they cost, which the test measured first, is too noisy on a busy
 * machine) over three phases of 1 s: the held tick alone (its retry at the 6.4 ms cap: what waiting for the lock
 * costs), the held tick and the ticker, and the ticker alone. Done right, the held tick adds to the ticker at most
 * what it costs alone (its retries at the cap, some of them riding on the ticker's own wake-ups); the test allows 1.5
 * times that, plus 100 a second for noise. (With the retry set back at each tick: about 3,000 a second more.)
 */
class APendingTicksRetryBacksOffAlsoWhileAnotherTickerTicksTest {
    private static final long PHASE_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    @Test
    void aTickWaitingForAHeldLockCostsFewWakeUpsBesideABusyTicker() throws Exception {
        Threads.untilNoTimerPending();
        Chan<Instant> c = new Chan<>(1);
        Double heldRate;
        Double bothRate;
        Double aloneRate;
        try (Ticker busy = new Ticker(Duration.ofDays(1))) { // reset to 1 ms in the second phase
            Threads.lockedWithTickPending(c, TimeUnit.MILLISECONDS.toNanos(10));
            try {
                Threads.pause(SETTLE_NANOS);
                heldRate = Threads.timerThreadWakeUpsPerSecond(PHASE_NANOS);
                busy.reset(Duration.ofMillis(1));
                Threads.until("the busy ticker's channel is full", () -> busy.chan().len() == 1);
                Threads.pause(SETTLE_NANOS);
                bothRate = Threads.timerThreadWakeUpsPerSecond(PHASE_NANOS);
            } finally {
                c.lock.unlock();
            }
            assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the pending tick was never sent");
            Threads.pause(SETTLE_NANOS);
            aloneRate = Threads.timerThreadWakeUpsPerSecond(PHASE_NANOS);
        }
        assumeTrue(heldRate != null, "no /proc to count the timer thread's wake-ups");
        double extra = bothRate - aloneRate;
        String m = String.format("timer thread wake-ups a second: a tick waiting for a held lock alone %.0f; with a "
                + "1 ms ticker nobody reads %.0f; the ticker alone %.0f: the held tick adds %.0f to the ticker, %.1f "
                + "times what it costs alone (the pending tick's retry falls back to 100 us at each tick of the other "
                + "timer)", heldRate, bothRate, aloneRate, extra, extra / heldRate);
        System.out.println(m);
        assertTrue(extra < 1.5 * heldRate + 100, m);
    }
}
