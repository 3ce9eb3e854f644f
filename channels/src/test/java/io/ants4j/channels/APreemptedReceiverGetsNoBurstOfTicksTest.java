package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 71. Contract (Ticker's javadoc: "A receiver that falls behind misses ticks: the channel holds one, and a tick
 * that finds it full is dropped, as in Go"; the brief: slow receivers lose ticks, never a burst). A receiver preempted
 * inside its receive, the channel's lock held (modelled by the test holding {@code chan.lock} and receiving under it),
 * while the ticker's next tick falls due and the previous one still fills the channel: in Go that tick finds the
 * channel full (Go's non-blocking send looks at full() before it takes the lock) and is dropped, so the receiver's
 * next tick comes one period later. The tick was kept pending for the lock and sent as soon as the receiver let go
 * of it, carrying a time a whole period old: the receiver got two ticks back to back.
 */
class APreemptedReceiverGetsNoBurstOfTicksTest {
    private static final long PERIOD_MILLIS = 200;

    @Test
    void aTickDueWhileTheChannelIsFullAndItsLockHeldIsDroppedNotSentAfterTheReceive() throws Exception {
        Threads.untilNoTimerPending();
        try (Ticker ticker = new Ticker(Duration.ofMillis(PERIOD_MILLIS))) {
            Chan<Instant> c = ticker.chan();
            Timers.Timer timer = ticker.timer;
            Threads.until("the first tick is in the channel, and no longer pending",
                    () -> c.len() == 1 && timer.pendingTick == null);
            Instant first;
            long received;
            long firstDue = timer.when;
            c.lock.lock(); // the receiver, preempted inside its receive
            try {
                // the next tick fell due and was dropped (the channel full), or is kept for the lock and was tried
                Threads.until("the next tick is due and was looked at", () -> timer.pendingTick == null
                        ? timer.when != firstDue : timer.retried);
                first = c.poll(); // the receiver resumes and takes the tick that filled the channel
                received = System.nanoTime();
            } finally {
                c.lock.unlock();
            }
            assertNotNull(first, "the first tick");
            Instant next = c.poll(PERIOD_MILLIS / 3, TimeUnit.MILLISECONDS);
            long gapMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - received);
            assertNull(next, "a receiver preempted with the channel's lock held while a tick of a " + PERIOD_MILLIS
                    + " ms ticker found the channel full got, " + gapMillis + " ms after the tick that filled it, "
                    + "another (a burst of two; Go drops the tick that finds the channel full): " + first + ", then "
                    + next);
        }
    }

    /**
     * The same for Chan.after (its javadoc: "a value sent on it by anyone else that is still in it when the delay has
     * passed takes the place of the time, which is then dropped"; "a channel of capacity 1 that will hold one
     * value"): a value sent on it is still in it at the deadline, its lock held by a receiver preempted in its
     * receive; the time was kept pending and sent once that receiver had taken the value: two values.
     */
    @Test
    void anAftersTimeThatFindsTheChannelFullOfAnotherValueIsDroppedAlsoWhenItsLockIsHeld() throws Exception {
        Threads.untilNoTimerPending();
        Chan<Instant> c = new Chan<>(1);
        Instant mine = Instant.EPOCH;
        c.offer(mine);
        c.lock.lock(); // a receiver, preempted inside its receive
        Instant first;
        try {
            Timers.Timer t = Timers.after(c, TimeUnit.MILLISECONDS.toNanos(1));
            // the time fell due and was dropped (the channel full), or is kept for the lock and was tried
            Threads.until("the time is due and was looked at", () -> t.pendingTick == null ? t.index < 0 : t.retried);
            first = c.poll(); // the receiver resumes and takes the value that was in it at the deadline
        } finally {
            c.lock.unlock();
        }
        Instant second = c.poll(200, TimeUnit.MILLISECONDS);
        assertNull(second, "an after channel holding another value when its delay passed, its lock held by a "
                + "preempted receiver, gave that receiver " + first + " and then the time " + second
                + " (the time should have been dropped)");
    }
}
