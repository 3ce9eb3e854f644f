package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Review 67. Go 1.23's Ticker.Stop and Reset take the channel's lock only to drain a value the channel holds:
 * runtime.timerchandrain reads c.qcount atomically and returns at once when it is 0, and the timer's sendLock is held
 * only while a send is in flight. So a Stop or Reset of a ticker that has not ticked (its channel empty, no send in
 * flight) never waits for the channel's lock, nor does a second Stop ("Stopping a stopped ticker does nothing"). Each
 * test holds the channel's lock (a receiver preempted in its critical section, or a select queued on another
 * channel's lock while it holds this one) and gives the call 2 s; before the fix each waited as long as the lock was
 * held.
 */
class AStopOfATickerWithNoTickDoesNotWaitForItsChannelsLockTest {

    @Test
    void aStopOfATickerThatNeverTickedReturnsWhileItsChannelsLockIsHeld() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1)); // never ticks in this test: its channel stays empty
        assertReturnsWhileTheLockIsHeld(ticker, ticker::stop, "a stop of a ticker that never ticked");
        assertEquals(0, ticker.chan.len());
    }

    @Test
    void aResetOfATickerThatNeverTickedReturnsWhileItsChannelsLockIsHeld() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1));
        assertReturnsWhileTheLockIsHeld(ticker, () -> ticker.reset(Duration.ofHours(2)),
                "a reset of a ticker that never ticked");
        ticker.stop();
    }

    @Test
    void aSecondStopReturnsWhileTheChannelsLockIsHeld() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1));
        ticker.stop();
        assertReturnsWhileTheLockIsHeld(ticker, ticker::stop, "stopping a stopped ticker (\"does nothing\")");
    }

    private static void assertReturnsWhileTheLockIsHeld(Ticker ticker, Threads.Action call, String what)
            throws Exception {
        Threads.Failing caller;
        boolean returned;
        ticker.chan.lock.lock();
        try {
            caller = Threads.start(call);
            caller.thread.join(2_000);
            returned = !caller.thread.isAlive();
        } finally {
            ticker.chan.lock.unlock();
        }
        caller.join();
        assertTrue(returned, what + " (its channel empty) had not returned after 2 s while its channel's lock was held;"
                + " Go's Stop and Reset drain only a non-empty channel (timerchandrain)");
    }
}
