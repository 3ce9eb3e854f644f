package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Review 68. Contract (Ticker.stop): "no tick is sent after this method returns, and a tick left in the channel is
 * taken out" (Go 1.23: no stale tick is received after Stop returns), also when a reset from another thread overlaps
 * the stop ("the ticker ends in the state of one of the orders": either way no tick of the old 100 ms timer may be
 * sent once the stop has returned). A stop skips the channel's lock when the channel is empty and no tick of the
 * ticker is being sent; the flag it read was its own timer's, so once a reset had replaced the ticker's timer, the
 * old one, stopped by the reset and still sending a tick (past its look at stopped, under the channel's lock), went
 * unseen: the stop returned at once and the old tick was sent afterwards (8 of 8 runs before the flag became the
 * ticker's).
 *
 * <p>The window (in the timer thread, between its read of stopped and the send) is widened, as a test in the package
 * may do: the channel's receive queue holds many cancelled waiters (as selects whose other case won leave before
 * they dequeue), which the timer thread's offer walks for some milliseconds, and then one waiting receiver (a Waiter
 * the test queues and watches). The test waits until the old timer is sending, has another thread reset the ticker
 * (to 10 s), stops the ticker once the reset has stopped the old timer (the send still under way), and checks that
 * the receiver was handed nothing after the stop returned.
 */
class AStopOverlappingAResetLeavesNoTickOfTheOldTimerTest {
    private static final int STALE_WAITERS = 400_000;

    @Test
    void noTickIsSentAfterAStopThatOverlappedAReset() throws Exception {
        overlap(ticker -> ticker.stop(), "stop()");
    }

    /**
     * The same with a second reset in place of the stop. Contract (Ticker.reset, Go's Reset): after reset(p) returns,
     * "no tick of the old period is received; the next tick comes one period after the reset" (here 20 s): the old
     * 100 ms timer's tick is handed to the receiver after the second reset returned.
     */
    @Test
    void noTickOfTheOldPeriodIsSentAfterAResetThatOverlappedAnotherReset() throws Exception {
        overlap(ticker -> ticker.reset(Duration.ofSeconds(20)), "a second reset(20 s)");
    }

    private static void overlap(java.util.function.Consumer<Ticker> second, String what) throws Exception {
        Threads.untilNoTimerPending();
        Ticker ticker = new Ticker(Duration.ofMillis(100));
        Chan<java.time.Instant> c = ticker.chan();
        Timers.Timer old;
        Timers.lock().lock();
        try {
            old = ticker.timer;
        } finally {
            Timers.lock().unlock();
        }
        Waiter receiver = new Waiter(c, null);
        c.lock.lock();
        try {
            for (int i = 0; i < STALE_WAITERS; i++) {
                Waiter w = new Waiter(c, null);
                w.cancel();
                c.enqueueLocked(w, false);
            }
            c.enqueueLocked(receiver, false);
        } finally {
            c.lock.unlock();
        }
        Threads.until("the old timer is sending its first tick", () -> ticker.lastTick.sending);
        Threads.Failing resetter = Threads.start(() -> ticker.reset(Duration.ofSeconds(10)));
        Threads.until("the reset stopped the old timer", () -> old.stopped);
        boolean sendingWhenCalled = ticker.lastTick.sending;
        second.accept(ticker);
        int outcomeWhenReturned = receiver.outcome();
        Threads.until("the old timer's send is over", () -> !ticker.lastTick.sending);
        resetter.join();
        int outcomeAfter = receiver.outcome();
        Object handed = outcomeAfter != outcomeWhenReturned ? receiver.item : null;
        ticker.stop();
        c.lock.lock();
        try {
            c.dequeue(receiver, false);
        } finally {
            c.lock.unlock();
        }
        assertTrue(sendingWhenCalled, "the window was missed: the old timer's send was over before " + what
                + " was called");
        assertNull(handed, () -> what + " returned while the ticker's old 100 ms timer (stopped by an overlapping "
                + "reset) was still sending, and then its tick " + handed + " was handed to a waiting receiver");
    }
}
