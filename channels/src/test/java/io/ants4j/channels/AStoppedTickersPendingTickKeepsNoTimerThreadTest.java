package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 67. Contract: "the timer thread ends once no timer that can send is pending (a pending tick included)".
 * A ticker fires while its channel's lock is held (a receiver preempted in its critical section), so its tick is
 * pending; the ticker is then stopped (from another thread, which marks it stopped and then waits for that lock to
 * take a stale tick out). The tick can never be sent (offerTick drops a stopped timer's tick) and no other timer is
 * in the heap, yet the thread keeps the tick and retries the lock every 100 us for as long as it is held: it never
 * ends (nor sleeps) while the lock is held, though it has nothing left that can send. Bounded: the thread must have
 * ended within 4 s (its idle time is 1 s) of the stop marking the timer stopped.
 */
class AStoppedTickersPendingTickKeepsNoTimerThreadTest {

    @Test
    void theThreadEndsOnceTheOnlyPendingTickIsOfAStoppedTicker() throws Exception {
        Threads.untilNoTimerPending();
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        Thread timer = Timers.thread();
        assertNotNull(timer);
        Timers.Timer t = ticker.timer;
        Threads.Failing stopper;
        boolean ended;
        ticker.chan.lock.lock();
        try {
            Threads.until("the ticker's tick is pending", () -> t.pendingTick != null);
            stopper = Threads.start(ticker::stop);
            Threads.until("the stop marks the timer stopped", () -> t.stopped);
            timer.join(4_000);
            ended = !timer.isAlive();
        } finally {
            ticker.chan.lock.unlock();
        }
        stopper.join();
        assertFalse(!ended, "4 s after the ticker was stopped, with no timer left that can send, the timer thread "
                + "was still alive, retrying the stopped ticker's pending tick: " + Threads.stack(timer));
    }
}
