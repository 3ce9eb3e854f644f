package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
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
 * the test queues and watches). A thread started beforehand waits until the old timer is sending and resets the
 * ticker (to 10 s); the test calls the stop once the reset has stopped the old timer (the send still under way), and
 * checks that the receiver was handed nothing after the stop returned. A round whose send was over before the stop
 * was called proves nothing: the test tries again with twice as many cancelled waiters, a few times.
 */
class AStopOverlappingAResetLeavesNoTickOfTheOldTimerTest {
    private static final int STALE_WAITERS = 400_000;
    private static final int ROUNDS = 4;

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

    private static void overlap(Consumer<Ticker> second, String what) throws Exception {
        int staleWaiters = STALE_WAITERS;
        for (int round = 1; ; round++, staleWaiters *= 2) {
            Object handed = round(second, staleWaiters);
            if (handed != MISSED) {
                System.out.printf("%s overlapped the old timer's send in round %d (%,d cancelled waiters)%n", what,
                        round, staleWaiters);
                assertNull(handed, () -> what + " returned while the ticker's old 100 ms timer (stopped by an "
                        + "overlapping reset) was still sending, and then its tick " + handed + " was handed to a "
                        + "waiting receiver");
                return;
            }
            if (round == ROUNDS) {
                fail("the window was missed in " + ROUNDS + " rounds (up to " + staleWaiters + " cancelled waiters): "
                        + "the old timer's send was over before " + what + " was called");
            }
        }
    }

    private static final Object MISSED = new Object();

    /** One round: what the receiver was handed after {@code second} returned (null: nothing), or MISSED. */
    private static Object round(Consumer<Ticker> second, int staleWaiters) throws Exception {
        Threads.untilNoTimerPending();
        Ticker ticker = new Ticker(Duration.ofMillis(100));
        Chan<Instant> c = ticker.chan();
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
            for (int i = 0; i < staleWaiters; i++) {
                Waiter w = new Waiter(c, null);
                w.cancel();
                c.enqueueLocked(w, false);
            }
            c.enqueueLocked(receiver, false);
        } finally {
            c.lock.unlock();
        }
        Threads.Failing resetter = Threads.start(() -> {
            Threads.until("the old timer is sending its first tick", () -> ticker.lastTick.sending);
            ticker.reset(Duration.ofSeconds(10));
        });
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
        return sendingWhenCalled ? handed : MISSED;
    }
}
