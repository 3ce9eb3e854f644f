package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Review 67. Contract: "no timer operation blocks on, or waits for, a channel's lock ... except a stop/reset of a
 * ticker whose OWN channel's lock is held" -- and then only where Go's does. Go 1.23's Ticker.Stop and Reset take the
 * channel's lock only to drain a value the channel holds: runtime.timerchandrain reads c.qcount atomically and returns
 * at once when it is 0, and the timer's sendLock is held only while a send is in flight. So in Go a Stop or Reset of a
 * ticker that has not ticked (its channel empty, no send in flight) never waits for the channel's lock. Here
 * Chan.takeStaleTick always takes the lock, even when the ticker has never sent a tick (its LastTick empty): a stop
 * or reset waits as long as its channel's lock is held (a receiver preempted in its critical section, or a select
 * queued on another channel's lock while it holds this one).
 */
class AStopOfATickerWithNoTickDoesNotWaitForItsChannelsLockTest {

    @Test
    void aStopOfATickerThatNeverTickedReturnsWhileItsChannelsLockIsHeld() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1)); // never ticks in this test: its channel stays empty
        Threads.Failing stopper;
        boolean returned;
        ticker.chan.lock.lock(); // a receiver that finds the channel empty, preempted in its critical section
        try {
            stopper = Threads.start(ticker::stop);
            stopper.thread.join(2_000);
            returned = !stopper.thread.isAlive();
        } finally {
            ticker.chan.lock.unlock();
        }
        stopper.join();
        assertEquals(0, ticker.chan.len());
        assertTrue(returned, "a stop of a ticker that never ticked (its channel empty) had not returned after 2 s "
                + "while its channel's lock was held; Go's Stop drains only a non-empty channel (timerchandrain)");
    }

    @Test
    void aResetOfATickerThatNeverTickedReturnsWhileItsChannelsLockIsHeld() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1));
        Threads.Failing resetter;
        boolean returned;
        ticker.chan.lock.lock();
        try {
            resetter = Threads.start(() -> ticker.reset(Duration.ofHours(2)));
            resetter.thread.join(2_000);
            returned = !resetter.thread.isAlive();
        } finally {
            ticker.chan.lock.unlock();
        }
        resetter.join();
        ticker.stop();
        assertTrue(returned, "a reset of a ticker that never ticked (its channel empty) had not returned after 2 s "
                + "while its channel's lock was held; Go's Reset drains only a non-empty channel (timerchandrain)");
    }

    /** "Stopping a stopped ticker does nothing": it does wait for the channel's lock, as long as that is held. */
    @Test
    void aSecondStopReturnsWhileTheChannelsLockIsHeld() throws Exception {
        Ticker ticker = new Ticker(Duration.ofHours(1));
        ticker.stop();
        Threads.Failing stopper;
        boolean returned;
        ticker.chan.lock.lock();
        try {
            stopper = Threads.start(ticker::stop);
            stopper.thread.join(2_000);
            returned = !stopper.thread.isAlive();
        } finally {
            ticker.chan.lock.unlock();
        }
        stopper.join();
        assertTrue(returned, "stopping a stopped ticker (\"does nothing\") had not returned after 2 s while its "
                + "channel's lock was held");
    }
}
