package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 67. Contract: the timer thread "does not spin/burn CPU while a tick waits for a lock held for seconds"
 * (Go's timer goroutine blocks on the channel's runtime lock, which sleeps on a futex after a short spin). A
 * Chan.after(20 ms) whose channel's lock the test holds (a preempted receiver) for 2 s past its deadline: the tick is
 * pending, and the timer thread's CPU time over those 2 s (ThreadMXBean) must stay under 5% of them. Polling the lock
 * every 100 us cost 10.7-11.7%; backing off to 6.4 ms, about 1% here (a slower host pays more for each wake-up).
 */
class ATickWaitingForAHeldLockBurnsNoCpuTest {
    private static final long HOLD_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Test
    void theTimerThreadSleepsWhileAPendingTicksChannelIsLocked() throws Exception {
        Threads.untilNoTimerPending();
        Chan<Instant> c = new Chan<>(1);
        double share;
        Thread timer = Threads.lockedWithTickPending(c, TimeUnit.MILLISECONDS.toNanos(20));
        try {
            share = Threads.cpuShare(timer, HOLD_NANOS);
        } finally {
            c.lock.unlock();
        }
        assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the pending tick was never sent");
        String m = String.format("while a Chan.after tick waited %d ms for its channel's lock, the timer thread used "
                + "%.1f%% of a core (it polls the lock every 100 us if it does not back off)",
                TimeUnit.NANOSECONDS.toMillis(HOLD_NANOS), 100 * share);
        System.out.println(m);
        assertTrue(share < 0.05, m);
    }
}
