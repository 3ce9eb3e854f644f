package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Review 71. Contract (Chan.after: the time is sent once the delay has passed; Go's time.After in a polling select
 * loop: {@code for { select { case <-timeout: return; case v := <-work: ...; default: } }}). A loop that polls its
 * channels with a select and an otherwise case takes and lets go of the after channel's lock over and over. The timer
 * thread tries that lock once with a short spin, then with a single tryLock every back-off (up to 6.4 ms): it finds the
 * lock free only by luck, so the timeout comes late. The test measures how late, its loop using the public API only.
 */
class ABusySelectLoopGetsItsTimeoutInTimeTest {
    private static final long DELAY_MILLIS = 20;
    private static final long ALLOWED_MILLIS = 200;

    @Test
    void aSelectLoopWithAnOtherwiseCaseGetsItsTimeoutSoonAfterTheDelay() throws Exception {
        Threads.untilNoTimerPending();
        long worst = 0;
        for (int round = 0; round < 5; round++) {
            Chan<Instant> work1 = new Chan<>(1);
            Chan<Instant> work2 = new Chan<>(1);
            Chan<Instant> work3 = new Chan<>(1);
            AtomicLong polls = new AtomicLong();
            long start = System.nanoTime();
            Chan<Instant> timeout = Chan.after(Duration.ofMillis(DELAY_MILLIS));
            long deadline = start + TimeUnit.SECONDS.toNanos(10);
            boolean[] fired = new boolean[1];
            while (System.nanoTime() - deadline < 0) {
                int i = Select.select(timeout.onReceive(v -> fired[0] = true), work1.onReceive(v -> { }),
                        work2.onReceive(v -> { }), work3.onReceive(v -> { }), Select.otherwise(polls::incrementAndGet));
                if (i == 0) {
                    break;
                }
            }
            long late = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) - DELAY_MILLIS;
            System.out.println("round " + round + ": the timeout came " + late + " ms late, after " + polls.get()
                    + " polls; fired " + fired[0]);
            worst = Math.max(worst, late);
            assertTrue(fired[0], "the timeout of a busy select loop never came in 10 s");
        }
        assertTrue(worst < ALLOWED_MILLIS, "the Chan.after(" + DELAY_MILLIS + " ms) of a select loop with an otherwise "
                + "case came up to " + worst + " ms late (5 rounds)");
    }
}
