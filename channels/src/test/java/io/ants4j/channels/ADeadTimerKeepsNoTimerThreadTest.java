package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Review 64. Contracts: "a channel nobody refers to any more is collected with its timer (Go 1.23)" and "no thread
 * of ours is left once no timer is pending". A timer that can never send (its channel collected, or closed by its
 * user) far from its deadline (a day) kept the timer thread parked until that deadline. The tests never call
 * Timers.queued() after the collection (which would purge the heap for them).
 */
class ADeadTimerKeepsNoTimerThreadTest {

    @BeforeEach
    void noTimerPending() {
        Threads.untilNoTimerPending();
    }

    @Test
    void aCollectedAfterChannelFarFromDueLeavesNoTimerThread() throws Exception {
        WeakReference<?> channel = new WeakReference<>(Chan.after(Duration.ofDays(1)));
        assertCollectedAndThreadEnds(channel);
    }

    @Test
    void aCollectedTickerOfALongPeriodLeavesNoTimerThread() throws Exception {
        WeakReference<?> ticker = new WeakReference<>(new Ticker(Duration.ofDays(1)));
        assertCollectedAndThreadEnds(ticker);
    }

    @Test
    void aClosedAfterChannelFarFromDueLeavesNoTimerThread() throws Exception {
        Chan<Instant> c = Chan.after(Duration.ofDays(1));
        Thread t = Timers.thread();
        assertNotNull(t, "no timer thread after a schedule");
        c.close();
        assertEnds(t, "closed");
    }

    @Test
    void aTickerWhoseChannelWasClosedLeavesNoTimerThread() throws Exception {
        Ticker ticker = new Ticker(Duration.ofDays(1));
        Thread t = Timers.thread();
        assertNotNull(t, "no timer thread after a schedule");
        ticker.chan().close();
        assertEnds(t, "closed");
        ticker.stop();
        assertNull(Timers.thread(), "a stop of a ticker whose timer was dropped started a timer thread");
    }

    /** A closed channel's timer, the earliest, does not make the thread drop a timer that can still send. */
    @Test
    void aClosedChannelsTimerLeavesTheOthers() throws Exception {
        Chan<Instant> closed = Chan.after(Duration.ofMillis(200));
        Chan<Instant> open = Chan.after(Duration.ofMillis(400));
        closed.close();
        assertNotNull(open.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS),
                "Chan.after(400 ms) sent nothing once an earlier timer's channel was closed");
    }

    private static void assertCollectedAndThreadEnds(WeakReference<?> ref) throws InterruptedException {
        Thread t = Timers.thread();
        assertNotNull(t, "no timer thread after a schedule");
        Threads.until("the unreferenced timer's channel is collected", () -> {
            System.gc();
            return ref.get() == null;
        });
        assertEnds(t, "collected");
    }

    private static void assertEnds(Thread t, String how) throws InterruptedException {
        t.join(TimeUnit.NANOSECONDS.toMillis(Threads.TIMEOUT_NANOS));
        assertFalse(t.isAlive(), () -> "the timer thread is still alive " + Threads.TIMEOUT_NANOS / 1_000_000_000L
                + " s after the only timer's channel was " + how + " (idle time 1 s); " + t.getState()
                + ", blocker " + java.util.concurrent.locks.LockSupport.getBlocker(t) + Threads.stack(t));
    }
}
