package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 71 (a measurement). Contract (Timers' notes: a channel whose lock is held for long holds up no other timer):
 * N timers due together fire about as soon while M ticks wait for held locks as with none. Each firing cost the
 * timer thread a look at every pending tick (N x M: 20,000 due together with 10,000 waiting fired their last 1.5-2.8
 * s late, against about 0.1 s); a pass now stops at the first tick tried before when no retry is due. The test allows
 * five times the lateness with none waiting, plus 200 ms.
 */
class TimersDueTogetherFireAsSoonBesideManyTicksWaitingForHeldLocksTest {
    private static final int HELD = 10_000;
    private static final int DUE = 20_000;

    @Test
    void timersDueTogetherFireAboutAsSoonWithManyTicksWaitingForHeldLocks() throws Exception {
        Threads.untilNoTimerPending();
        long free = lateness(0);
        long held = lateness(HELD);
        String m = String.format("the last of %d Chan.after due together fired %d ms after their deadline with no "
                + "tick waiting for a lock, %d ms with %d ticks waiting for held locks", DUE, free, held, HELD);
        System.out.println(m);
        assertTrue(held < 5 * free + 200, m);
    }

    /** How long after their common deadline the last of DUE afters fired, while {@code heldLocks} ticks wait. */
    private static long lateness(int heldLocks) throws Exception {
        List<Chan<Instant>> heldChans = new ArrayList<>();
        try {
            for (int i = 0; i < heldLocks; i++) {
                Chan<Instant> c = new Chan<>(1);
                heldChans.add(c);
                c.lock.lock();
                Timers.after(c, 1);
            }
            if (heldLocks > 0) {
                Threads.pause(TimeUnit.MILLISECONDS.toNanos(200)); // all pending, their back-offs growing
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            List<Chan<Instant>> due = new ArrayList<>();
            for (int i = 0; i < DUE; i++) {
                Chan<Instant> c = new Chan<>(1);
                due.add(c);
                Timers.after(c, deadline - System.nanoTime());
            }
            for (Chan<Instant> c : due) {
                assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "an after never fired");
            }
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deadline);
        } finally {
            for (Chan<Instant> c : heldChans) {
                c.lock.unlock();
            }
            for (Chan<Instant> c : heldChans) {
                assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "a held after never fired");
            }
        }
    }
}
