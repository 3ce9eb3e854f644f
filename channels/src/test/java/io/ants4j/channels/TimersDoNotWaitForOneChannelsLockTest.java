package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 66, contract 1 (lateness: "no timer that can still send is late by more than scheduling noise"; Go's
 * time.After returns at once and its timer fires on time whatever another channel is doing). The timer thread
 * offers a tick into its channel under the timers' one lock, so it takes that channel's lock while it holds the
 * timers' lock: a thread that holds one timer channel's lock (a receiver preempted in its critical section, which
 * with many threads happens) holds up every timer of the JVM and every Chan.after, new Ticker, stop and reset call,
 * on any channel. Measured with the public API only (TimerContentionMeasure, 16 platform threads polling one 20 us
 * ticker's channel, 2,000 Chan.after(100 us) from another thread): the Chan.after call's p99 goes from 0.02-0.035 ms
 * (the same 16 threads polling an unrelated channel) to 38-60 ms, max 87-152 ms, and the lateness p99 from 6-8 ms to
 * 48-64 ms; with 10,000 platform threads each making one Chan.after at once, the call itself took p50 200-1000 ms,
 * max 0.6-2.4 s, where ScheduledThreadPoolExecutor.schedule took p99 under 0.2 ms in the same JVM. A
 * ScheduledThreadPoolExecutor runs its tasks outside its queue's lock: its schedule never waits for a task.
 *
 * Made deterministic here: the test holds a ticker's channel lock (as a preempted receiver would) until the timer
 * thread has fired the ticker (it queued on that lock before the fix; now it keeps the tick pending); then a
 * Chan.after(1 h) from another thread must return within 2 s, and a Chan.after(30 ms) made before must be sent. Both
 * failed before the fix: the call waited as long as the unrelated channel's lock was held.
 */
class TimersDoNotWaitForOneChannelsLockTest {

    @Test
    void chanAfterDoesNotWaitWhileAnotherTimersChannelIsLocked() throws Exception {
        Threads.untilNoTimerPending();
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        Chan<Instant> unrelated = Chan.after(Duration.ofMillis(30));
        Chan<Instant> busy = ticker.chan();
        Thread timer = Timers.thread();
        assertNotNull(timer);
        Threads.Failing caller;
        boolean returned;
        Instant sent;
        busy.lock.lock(); // a receiver of the ticker's channel, preempted in its critical section
        try {
            Threads.until("the timer thread fires the ticker (waiting for its channel's lock, or keeping the tick)",
                    () -> busy.lock.hasQueuedThread(timer) || ticker.timer.pendingTick != null);
            caller = Threads.start(() -> Chan.after(Duration.ofHours(1)));
            caller.thread.join(2_000);
            returned = !caller.thread.isAlive();
            sent = unrelated.poll(2, TimeUnit.SECONDS);
        } finally {
            busy.lock.unlock();
        }
        caller.join();
        ticker.stop();
        assertFalse(!returned && sent == null, "while one ticker's channel was locked, a Chan.after(1 h) call from "
                + "another thread had not returned after 2 s, and a Chan.after(30 ms) made before was not sent after 2 s");
        assertFalse(!returned, "while one ticker's channel was locked, a Chan.after(1 h) call had not returned after 2 s");
        assertNotNull(sent, "while one ticker's channel was locked, an unrelated Chan.after(30 ms) was not sent in 2 s");
    }
}
