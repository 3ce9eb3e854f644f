package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Timers' notes: "one daemon thread sends their values ... An error in the thread's loop (no memory for the Instant,
 * or for the condition's node) leaves the due timer in the heap: the thread backs off a millisecond". A channel of
 * {@link Chan#after} or a {@link Ticker} is the user's to close (Go's are receive-only; ours are not), and one closed
 * between the timer thread's {@code isClosed()} and its {@code offer} made that offer throw
 * {@link ChanClosedException}: the thread took it for a failure and backed off, parked a millisecond with every other
 * timer of the JVM due meanwhile held back. The test holds the channel's lock while the thread fires, closes the
 * channel under it and lets go; the thread must drop the timer and never back off (a park with no blocker: its
 * waits for the next deadline park on the timers' condition).
 */
class ATimerWhoseChannelIsClosedAsItFiresHoldsNoOtherTimerBackTest {

    @Test
    void theTimerIsDroppedAndTheThreadDoesNotBackOff() throws InterruptedException {
        Chan<Instant> chan = new Chan<>(1);
        Thread timerThread;
        chan.lock.lock();
        try {
            Timers.Timer timer = Timers.after(chan, 1L); // due at once: the thread finds it open, the lock held
            timerThread = timerThread();
            long bound = System.nanoTime() + Threads.TIMEOUT_NANOS;
            while (timer.pendingTick == null && !chan.lock.hasQueuedThread(timerThread)) {
                if (System.nanoTime() - bound > 0L) {
                    throw new AssertionError("setup: the timer thread never fired the timer: "
                            + Threads.stack(timerThread));
                }
                Thread.onSpinWait();
            }
            chan.close();
        } finally {
            chan.lock.unlock();
        }
        long watch = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        boolean backedOff = false;
        while (System.nanoTime() - watch < 0L && !backedOff) {
            // no blocker before and after the state: a park on the condition sets its blocker before it parks
            backedOff = LockSupport.getBlocker(timerThread) == null
                    && timerThread.getState() == Thread.State.TIMED_WAITING
                    && LockSupport.getBlocker(timerThread) == null;
        }
        assertFalse(backedOff, "the timer thread backed off (parked a millisecond, holding every other timer back)"
                + " for a channel its user closed as the timer fired");
        assertEquals(0, chan.len(), "nothing was sent on the closed channel");
        Chan<Instant> after = Chan.after(Duration.ofMillis(1));
        assertNotNull(after.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the timers still fire");
    }

    /** The timers' thread (not one that ended idle and is still on its way out: it has the same name). */
    private static Thread timerThread() {
        Thread t = Timers.thread();
        if (t == null) {
            throw new AssertionError("setup: no timer thread after a schedule");
        }
        return t;
    }
}
