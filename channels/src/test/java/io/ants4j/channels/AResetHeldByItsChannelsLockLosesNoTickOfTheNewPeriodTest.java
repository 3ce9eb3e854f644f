package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 72. Ticker.reset: "the next tick one period from now; a tick left in the channel is taken out" (Go 1.23's
 * Reset holds the timer's sendLock across timerchandrain, and a send takes that lock first, so the new timer's first
 * tick is looked at only once the stale one is gone). A reset whose look at the replaced timer's stale tick is held
 * past one new period (its channel's lock held by a select queued on another channel's lock, or by a receiver
 * preempted inside its operation: here the test holds {@code chan.lock}) must not lose the tick due one period after
 * it: with a capacity of 1, the stale tick fills the channel when that tick falls due, and a tick that finds its
 * channel full is dropped, unless what fills it may be a stale tick of the same ticker.
 */
class AResetHeldByItsChannelsLockLosesNoTickOfTheNewPeriodTest {
    private static final long OLD_PERIOD_MILLIS = 20;
    private static final long NEW_PERIOD_MILLIS = 300;

    @Test
    void theFirstTickOfTheNewPeriodIsSentAlsoWhenTheResetsLookAtTheStaleTickWasHeldPastIt() throws Exception {
        Threads.untilNoTimerPending();
        try (Ticker ticker = new Ticker(Duration.ofMillis(OLD_PERIOD_MILLIS))) {
            Chan<Instant> c = ticker.chan();
            Timers.Timer old = ticker.timer;
            Threads.until("a tick of the old period is in the channel, none pending",
                    () -> c.len() == 1 && old.pendingTick == null);
            Threads.Failing resetter;
            Timers.Timer fresh;
            long resetStart;
            c.lock.lock(); // a select holding the ticker's lock, queued on another channel's lock (it takes nothing)
            try {
                resetter = Threads.start(() -> ticker.reset(Duration.ofMillis(NEW_PERIOD_MILLIS)));
                Threads.until("the reset installed its timer", () -> Threads.timerOf(ticker) != old);
                resetStart = System.nanoTime();
                fresh = Threads.timerOf(ticker);
                long firstDue = fresh.when;
                Threads.awaitBlocked(resetter.thread); // its look at the stale tick waits for the lock
                // the new period's first tick fell due: dropped (channel full of the stale tick) or pending and tried
                Threads.until("the new period's first tick is due and was looked at",
                        () -> fresh.pendingTick == null ? fresh.when != firstDue : fresh.retried);
                assertEquals(1, c.len(), "precondition: the stale tick is still in the channel");
            } finally {
                c.lock.unlock();
            }
            resetter.join();
            long returned = System.nanoTime();
            Instant tick = c.poll(NEW_PERIOD_MILLIS / 2, TimeUnit.MILLISECONDS);
            long gotMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resetStart);
            assertNotNull(tick, "reset(" + NEW_PERIOD_MILLIS + " ms), held by its channel's lock for "
                    + TimeUnit.NANOSECONDS.toMillis(returned - resetStart) + " ms (past its first new period), "
                    + "returned and no tick came within " + NEW_PERIOD_MILLIS / 2 + " ms more (" + gotMillis
                    + " ms after the reset): the tick due one period after the reset was dropped because the channel "
                    + "was full of the replaced timer's stale tick, which the reset then took out; channel now " + c);
        }
    }

}
