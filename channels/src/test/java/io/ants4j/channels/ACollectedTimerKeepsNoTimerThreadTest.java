package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Review 64. Contracts: "a channel nobody refers to any more is collected with its timer (Go 1.23)" and "no thread
 * of ours is left once no timer is pending". A Chan.after(1 day) or a Ticker of 1 day that nobody refers to any
 * more is collected, but its timer stays in the heap (the reference queue is looked at only at the next schedule or
 * wake-up of the thread) and the timer thread stays parked until the dead timer's deadline: a day, with no timer
 * pending. The test never calls Timers.queued() after the collection (which would purge the heap for it).
 */
class ACollectedTimerKeepsNoTimerThreadTest {

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

    private static void assertCollectedAndThreadEnds(WeakReference<?> ref) throws InterruptedException {
        Thread t = Timers.thread();
        assertNotNull(t, "no timer thread after a schedule");
        Threads.until("the unreferenced timer's channel is collected", () -> {
            System.gc();
            return ref.get() == null;
        });
        t.join(TimeUnit.NANOSECONDS.toMillis(Threads.TIMEOUT_NANOS));
        assertFalse(t.isAlive(), () -> "the timer thread is still alive " + Threads.TIMEOUT_NANOS / 1_000_000_000L
                + " s after the only timer's channel was collected (idle time 1 s); " + t.getState()
                + ", blocker " + java.util.concurrent.locks.LockSupport.getBlocker(t) + Threads.stack(t));
    }
}
