package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import io.ants4j.channels.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The blocking contracts of the channels' timers ({@link Chan#after}, {@link Ticker}), explored by Fray with the timer
 * thread of the library itself ({@code ants4j-channels-timer}, a platform thread) on Fray's virtual clock. The thread
 * ends once it has had no timer for 1 s (virtual: Fray jumps there when every thread waits), so every iteration ends
 * by joining it, and a schedule in the next iteration starts another. A timed wait ends only when Fray's clock jumps
 * (when no thread can run), to the nearest deadline, in whole milliseconds, and every wait due by then ends at once:
 * so a stop or a reset races a firing by parking a whole number of periods of a 1 ms ticker, which ends its park in
 * the same jump as the timer thread's, and Fray then chooses their order (a thread that yields instead never lets
 * the clock jump, and so always comes before the firing).
 */
@ExtendWith(FrayTestExtension.class)
class TimersFrayTest {
    private static final String TIMER_THREAD = "ants4j-channels-timer";
    /** Timers.IDLE_NANOS (package-private there): how long the timer thread waits with no timer before it ends. */
    private static final long IDLE_MILLIS = 1000;

    /** Chan.after: "a channel of capacity 1 that will hold one value": of two receivers exactly one gets it. */
    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void afterSendsOneValueThatOneOfTwoReceiversGets() throws InterruptedException {
        Chan<Instant> c = Chan.after(Duration.ofMillis(1));
        AtomicReference<Instant> first = new AtomicReference<>();
        AtomicReference<Instant> second = new AtomicReference<>();
        Thread r1 = start("receiver 1", () -> first.set(c.poll(50, TimeUnit.MILLISECONDS)));
        Thread r2 = start("receiver 2", () -> second.set(c.poll(50, TimeUnit.MILLISECONDS)));
        join(r1, r2);
        assertTrue(first.get() != null ^ second.get() != null, "received: " + first.get() + ", " + second.get());
        joinTimerThreads();
        assertNull(c.poll(), "after sent a second value");
    }

    /**
     * Ticker.stop: "no tick is sent after this method returns, and a tick left in the channel is taken out", with the
     * stop racing the timer thread's firing of a 1 ms ticker: once stop returns the channel is empty, and it stays so
     * after the timer thread has ended.
     */
    @FrayTest(iterations = 60 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStopRacingAFiringLeavesNoTickAndNoneIsSentAfter() throws InterruptedException {
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        Thread stopper = start("stopper", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3));
            ticker.stop();
            assertNull(ticker.chan().poll(), "a tick was left in the channel after stop returned");
        });
        join(stopper);
        joinTimerThreads();
        assertNull(ticker.chan().poll(), "a tick was sent after stop returned");
    }

    /**
     * Ticker.reset: "stops the ticker and starts it again with a new period, the next tick one period from now; a tick
     * left in the channel is taken out", racing a firing of the old 1 ms period: the first tick taken after reset
     * returns, at once or later, is of the new period (5 ms): its time is 5 ms or more after the reset began. (Not
     * "the channel is empty when reset returns": Fray's clock moves with every scheduling step, so a tick of the new
     * period may come before the resetter looks.)
     */
    @FrayTest(iterations = 60 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aResetRacingAFiringLeavesNoTickOfTheOldPeriod() throws InterruptedException {
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        Thread resetter = start("resetter", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3));
            Instant before = Instant.now(); // Fray's clock: one with System.nanoTime, in whole milliseconds
            ticker.reset(Duration.ofMillis(5));
            Instant left = ticker.chan().poll();
            Instant next = left != null ? left : ticker.chan().poll(1, TimeUnit.SECONDS);
            assertNotNull(next, "no tick of the new period");
            assertFalse(next.isBefore(before.plusMillis(5)), () -> "a tick of " + next + " taken after the reset of "
                    + before + (left != null ? ", left in the channel" : ", received later"));
            ticker.stop();
        });
        join(resetter);
        joinTimerThreads();
        assertNull(ticker.chan().poll(), "a tick was sent after stop returned");
    }

    /**
     * A stop from another thread while a receiver waits in a select on the ticker's channel and a timeout case (a
     * Chan.after of 3 ms): the select returns with one case; the tick it got, if any, was sent before the stop; the
     * timeout's channel, if the tick won, still gets its one value; no tick is left or sent after the stop.
     */
    @FrayTest(iterations = 60 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStopWhileAReceiverSelectsWithATimeoutCase() throws InterruptedException {
        Ticker ticker = new Ticker(Duration.ofMillis(2));
        AtomicReference<Chan<Instant>> timeout = new AtomicReference<>();
        AtomicReference<Instant> tick = new AtomicReference<>();
        AtomicInteger chosen = new AtomicInteger(-1);
        Thread receiver = start("receiver", () -> {
            Chan<Instant> t = Chan.after(Duration.ofMillis(3));
            timeout.set(t);
            chosen.set(Select.select(ticker.chan().onReceive(tick::set), t.onReceive(v -> { })));
        });
        Thread stopper = start("stopper", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            ticker.stop();
            assertNull(ticker.chan().poll(), "a tick was left in the channel after stop returned");
        });
        join(receiver, stopper);
        joinTimerThreads();
        if (chosen.get() == 0) {
            assertNotNull(tick.get());
            assertEquals(1, timeout.get().len(), "the timeout case lost, yet its channel did not get its value");
        } else {
            assertEquals(1, chosen.get());
            assertNull(tick.get());
            assertEquals(0, timeout.get().len(), "the timeout's channel got a second value");
        }
        assertNull(ticker.chan().poll(), "a tick was sent after stop returned");
    }

    /**
     * The timer thread's idle end racing a schedule: a Chan.after made as the thread's idle time (1 s) runs out, just
     * before or just after it decides to end, is fired (by it, or by a thread the schedule starts). The schedule comes
     * from a thread that parked 1 s less 1, 0 and 1 ms from when the first timer fired, in three rounds.
     */
    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimerScheduledAsTheIdleThreadEndsIsFired() throws InterruptedException {
        for (long offset = -1; offset <= 1; offset++) {
            long park = TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS + offset);
            assertNotNull(Chan.after(Duration.ofMillis(1)).poll(1, TimeUnit.SECONDS), "the first timer did not fire");
            Thread late = start("late scheduler", () -> {
                LockSupport.parkNanos(park);
                Chan<Instant> c = Chan.after(Duration.ofMillis(1));
                assertNotNull(c.poll(1, TimeUnit.SECONDS),
                        "a timer scheduled as the idle timer thread ended never fired");
            });
            join(late);
        }
        joinTimerThreads();
    }

    /**
     * Two schedules at once with no timer thread at work: the first to find none makes the thread and starts it after
     * its unlock; the other, between the two, finds it not yet started and makes none (never two timer threads, each
     * with its own pending ticks); both timers fire.
     */
    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoSchedulesAtOnceStartOneThreadThatFiresBoth() throws InterruptedException {
        Thread[] schedulers = new Thread[2];
        for (int i = 0; i < schedulers.length; i++) {
            schedulers[i] = start("scheduler " + i, () -> {
                Chan<Instant> c = Chan.after(Duration.ofMillis(1));
                assertTrue(timerThreads().size() <= 1, () -> "two timer threads: " + timerThreads());
                assertNotNull(c.poll(1, TimeUnit.SECONDS), "a timer scheduled beside another never fired");
            });
        }
        join(schedulers);
        joinTimerThreads();
    }

    /**
     * Review 67: concurrent stop, reset and stop of one 1 ms ticker from three threads, racing its firings: the
     * ticker ends in the state of one of the orders -- stopped (no tick left or sent afterwards) or ticking with one
     * timer (ticks no closer than its period) -- and a final stop leaves no tick and lets the timer thread end.
     */
    @FrayTest(iterations = 60 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void concurrentStopResetStopEndInTheStateOfOneOrder() throws InterruptedException {
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        Thread s1 = start("stopper 1", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            ticker.stop();
        });
        Thread r = start("resetter", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            ticker.reset(Duration.ofMillis(3));
        });
        Thread s2 = start("stopper 2", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            ticker.stop();
        });
        join(s1, r, s2);
        Instant a = ticker.chan().poll(20, TimeUnit.MILLISECONDS);
        if (a != null) { // the reset came last: one timer of 3 ms
            Instant b = ticker.chan().poll(20, TimeUnit.MILLISECONDS);
            assertNotNull(b, "a reset ticker ticked once and stopped ticking");
            assertFalse(b.isBefore(a.plusMillis(3)), () -> "two ticks " + a + ", " + b + " closer than the period");
        }
        ticker.stop();
        assertNull(ticker.chan().poll(), "a tick was left after the last stop");
        joinTimerThreads();
        assertNull(ticker.chan().poll(), "a tick was sent after the last stop");
    }

    /**
     * Review 69: several resets in a row (to 1 ms) from two threads racing the firings of a 1 ms ticker, one thread
     * ending with a reset to 10 s, the other with a stop: whatever the order, once both returned the ticker is stopped
     * or ticks every 10 s, so the channel holds no tick and none comes within 5 ms.
     */
    @FrayTest(iterations = 60 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void resetsInARowFromTwoThreadsRacingFiringsEndInTheStateOfOneOrder() throws InterruptedException {
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        Thread a = start("resetter", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            ticker.reset(Duration.ofMillis(1));
            ticker.reset(Duration.ofMillis(1));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            ticker.reset(Duration.ofSeconds(10));
        });
        Thread b = start("resetter-stopper", () -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            ticker.reset(Duration.ofMillis(1));
            ticker.stop();
        });
        join(a, b);
        assertNull(ticker.chan().poll(), "a tick was left after the last reset/stop returned");
        assertNull(ticker.chan().poll(5, TimeUnit.MILLISECONDS), "a 1 ms tick came after the last reset/stop");
        ticker.stop();
        joinTimerThreads();
        assertNull(ticker.chan().poll(), "a tick was sent after stop returned");
    }

    private static List<Thread> timerThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(TIMER_THREAD)).toList();
    }

    /** Every iteration ends with the timer thread gone: it ends once idle for 1 s (virtual) with no timer left. */
    private static void joinTimerThreads() throws InterruptedException {
        for (Thread t : timerThreads()) {
            join(t);
        }
    }
}
