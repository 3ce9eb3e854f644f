package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Timers' notes: each pending tick backs off on its own, and "ticks whose next tries are close are tried together, so
 * many ticks waiting for held locks cost few wake-ups". Fifty Chan.after ticks, due 1 ms apart, wait for their
 * channels' locks (all held by the test): once their back-offs have reached the cap, the timer thread wakes about as
 * often as for one such tick (fifty back-offs out of phase, each tried on its own, would wake it up to fifty times as
 * often). The test counts the thread's wake-ups (its parks: voluntary context switches, from Linux's /proc) with one
 * tick waiting, then with fifty, and allows twice the one plus 100 a second.
 */
class ManyTicksWaitingForHeldLocksCostFewWakeUpsTest {
    private static final int TICKS = 50;
    private static final long PHASE_NANOS = TimeUnit.MILLISECONDS.toNanos(1000);
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    @Test
    void fiftyTicksWaitingForHeldLocksWakeTheThreadAboutAsOftenAsOne() throws Exception {
        Threads.untilNoTimerPending();
        Chan<Instant> first = new Chan<>(1);
        List<Chan<Instant>> others = new ArrayList<>();
        Double one;
        Double many;
        Threads.lockedWithTickPending(first, TimeUnit.MILLISECONDS.toNanos(1));
        try {
            Threads.pause(SETTLE_NANOS);
            one = Threads.timerThreadWakeUpsPerSecond(PHASE_NANOS);
            for (int i = 1; i < TICKS; i++) {
                Chan<Instant> c = new Chan<>(1);
                others.add(c);
                c.lock.lock();
                Timers.after(c, TimeUnit.MILLISECONDS.toNanos(i));
            }
            Threads.pause(SETTLE_NANOS);
            many = Threads.timerThreadWakeUpsPerSecond(PHASE_NANOS);
        } finally {
            for (Chan<Instant> c : others) {
                c.lock.unlock();
            }
            first.lock.unlock();
        }
        for (Chan<Instant> c : others) {
            assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "a pending tick was never sent");
        }
        assertNotNull(first.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the first pending tick was never sent");
        assumeTrue(one != null, "no /proc to count the timer thread's wake-ups");
        String m = String.format("timer thread wake-ups a second: one tick waiting for a held lock %.0f; %d ticks %.0f",
                one, TICKS, many);
        System.out.println(m);
        assertTrue(many < 2 * one + 100, m);
    }
}
