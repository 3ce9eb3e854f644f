package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Ticker;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * Review 71: the start of the timer thread that fails (e2918d2: the failing schedule starts another, up to 3 in all,
 * while the failed thread is still the one named). Two Chan.after and a Ticker's reset race with no timer thread at
 * work; the first start of a timer thread fails (the package's {@code Timers.starter}, set by reflection), later ones
 * work. Contract: every call returns normally (a retry serves it) and fires; never two timer threads at once.
 */
@ExtendWith(FrayTestExtension.class)
class TimersFailingStartFrayTest {
    private static final String TIMER_THREAD = "ants4j-channels-timer";

    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void schedulesRacingAStartThatFailsOnceAreAllServed() throws Exception {
        racingFailingStarts(1);
    }

    /** The same with the first two starts failing: the third, still within a failing call's STARTS, serves all. */
    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void schedulesRacingStartsThatFailTwiceAreAllServed() throws Exception {
        racingFailingStarts(2);
    }

    /**
     * A schedule made as the idle timer thread ends (1 s after its last timer, give or take a millisecond) whose start
     * of a new thread fails once, beside a second schedule: both fire.
     */
    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStartFailingAsTheIdleThreadEndsServesTheSchedules() throws Exception {
        Field starter = Class.forName("io.ants4j.channels.Timers").getDeclaredField("starter");
        starter.setAccessible(true);
        for (long offset = -1; offset <= 1; offset++) {
            long park = TimeUnit.MILLISECONDS.toNanos(1000 + offset);
            assertNotNull(Chan.after(Duration.ofMillis(1)).poll(1, TimeUnit.SECONDS), "the first timer did not fire");
            AtomicInteger starts = new AtomicInteger();
            starter.set(null, (Consumer<Thread>) t -> {
                if (starts.incrementAndGet() == 1) {
                    throw new OutOfMemoryError("unable to create native thread (the test's)");
                }
                t.start();
            });
            try {
                Thread[] late = new Thread[2];
                for (int i = 0; i < late.length; i++) {
                    late[i] = start("late scheduler " + i, () -> {
                        java.util.concurrent.locks.LockSupport.parkNanos(park);
                        Chan<Instant> c = Chan.after(Duration.ofMillis(1));
                        assertTrue(timerThreads().size() <= 2, () -> "timer threads: " + timerThreads());
                        assertNotNull(c.poll(1, TimeUnit.SECONDS),
                                "a timer scheduled as the idle timer thread ended, a start failing, never fired");
                    });
                }
                join(late);
            } finally {
                starter.set(null, null);
            }
        }
        joinTimerThreads();
    }

    private static void racingFailingStarts(int failures) throws Exception {
        Field starter = Class.forName("io.ants4j.channels.Timers").getDeclaredField("starter");
        starter.setAccessible(true);
        AtomicInteger starts = new AtomicInteger();
        Consumer<Thread> failOnce = t -> {
            if (starts.incrementAndGet() <= failures) {
                throw new OutOfMemoryError("unable to create native thread (the test's)");
            }
            t.start();
        };
        Ticker ticker = new Ticker(Duration.ofHours(1)); // before the failing starts: a thread runs it
        ticker.stop();
        joinTimerThreads(); // the stopped ticker's timer is gone: the thread ends idle
        starter.set(null, failOnce);
        try {
            Thread[] schedulers = new Thread[3];
            for (int i = 0; i < 2; i++) {
                schedulers[i] = start("scheduler " + i, () -> {
                    Chan<Instant> c = Chan.after(Duration.ofMillis(1));
                    assertTrue(timerThreads().size() <= 1, () -> "two timer threads: " + timerThreads());
                    assertNotNull(c.poll(1, TimeUnit.SECONDS), "a timer scheduled beside a failing start never fired");
                });
            }
            schedulers[2] = start("resetter", () -> {
                ticker.reset(Duration.ofMillis(1));
                assertNotNull(ticker.chan().poll(1, TimeUnit.SECONDS),
                        "a ticker reset beside a failing start never ticked");
                ticker.stop();
            });
            join(schedulers);
            assertTrue(starts.get() >= failures + 1, "the failing start was not exercised: starts " + starts.get());
        } finally {
            starter.set(null, null);
        }
        joinTimerThreads();
    }

    private static List<Thread> timerThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(TIMER_THREAD)).toList();
    }

    private static void joinTimerThreads() throws InterruptedException {
        for (Thread t : timerThreads()) {
            join(t);
        }
    }
}
