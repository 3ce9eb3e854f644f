package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Review 66: one Thread.start of the timer thread took 3.7 s after 10,000 platform threads had ended, and every
 * Chan.after, new Ticker, stop and reset of the JVM waited for it, the thread being started under the timers' lock
 * (ThreadPoolExecutor starts its workers after its lock). Contract: no timer operation waits for an unrelated one;
 * a timer call made while another call starts the thread returns at once, no second thread is started, and both
 * timers fire once the thread runs. The test makes the start slow (the package's {@code Timers.starter}); a start
 * that fails (no memory for the native thread) reaches its caller, and the next timer call starts a thread.
 */
@ExtendWith(Threads.NoTimerThreadAndRealStarts.class)
class ASlowStartOfTheTimerThreadHoldsNoOtherTimerCallBackTest {
    private static final long WAIT_MILLIS = 2_000;

    @Test
    void aTimerCallDoesNotWaitForAnotherCallsStartOfTheThread() throws Exception {
        Threads.SlowStart slow = new Threads.SlowStart();
        Timers.starter = slow;
        AtomicReference<Chan<Instant>> first = new AtomicReference<>();
        Threads.Failing starter = Threads.start(() -> first.set(Chan.after(Duration.ofMillis(10))));
        boolean returned;
        Chan<Instant> second = new Chan<>(1);
        try {
            slow.awaitStarting();
            Threads.Failing other = Threads.start(() -> {
                Ticker ticker = new Ticker(Duration.ofHours(1));
                ticker.reset(Duration.ofHours(2));
                ticker.stop();
                Timers.after(second, TimeUnit.MILLISECONDS.toNanos(10));
            });
            other.thread.join(WAIT_MILLIS);
            returned = !other.thread.isAlive();
            slow.release.countDown();
            other.join();
        } finally {
            slow.release.countDown();
            starter.join();
        }
        assertTrue(returned, "a new Ticker, its reset and stop and a Chan.after from another thread had not returned "
                + "after " + WAIT_MILLIS + " ms while a Chan.after started the timer thread");
        assertEquals(1, slow.starts.get(), "a second timer thread was started while the first was being started");
        assertNotNull(first.get().poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the first after never fired");
        assertNotNull(second.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the second after never fired");
    }

    /**
     * Review 70: a timer call made while another call's start of the thread is under way relies on that start; when
     * it fails (here once), the failing call starts another thread, so the relying call's timer fires (it waited for
     * the next timer call of the JVM), and the failing call, its timer then put in, returns normally.
     */
    @Test
    void aStartThatFailsOnceIsMadeAgainForTheCallsThatReliedOnIt() throws Exception {
        Threads.SlowStart slow = new Threads.SlowStart() {
            @Override
            void startOrFail(Thread t, int n) {
                if (n == 1) {
                    throw new OutOfMemoryError("unable to create native thread (the test's)");
                }
                t.start();
            }
        };
        Timers.starter = slow;
        AtomicReference<Chan<Instant>> failing = new AtomicReference<>();
        Threads.Failing first = Threads.start(() -> failing.set(Chan.after(Duration.ofMillis(10))));
        slow.awaitStarting();
        Chan<Instant> relying = Chan.after(Duration.ofMillis(10));
        slow.release.countDown();
        first.join();
        assertNotNull(relying.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS), "a Chan.after made while another call's start "
                + "of the timer thread was under way never fired once that start failed");
        assertNotNull(failing.get().poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the call whose start failed "
                + "and was made again never fired");
        assertEquals(2, slow.starts.get(), "starts");
    }

    @Test
    void aFailedStartReachesItsCallerAndTheNextCallStartsAThread() throws Exception {
        Timers.starter = t -> {
            throw new OutOfMemoryError("unable to create native thread (the test's)");
        };
        assertThrows(OutOfMemoryError.class, () -> Chan.after(Duration.ofMillis(10)));
        Timers.starter = null;
        Chan<Instant> next = Chan.after(Duration.ofMillis(10));
        assertNotNull(next.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "no timer fired after a failed start");
    }
}
