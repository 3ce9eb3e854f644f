package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ants4j.primitives.SingleFlight;
import io.ants4j.primitives.SingleFlight.Result;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The contracts of {@link SingleFlight}, explored by Fray: one execution at a time per key, shared by the
 * callers that came while it ran, its outcome given to every one of them with an exact {@code shared}
 * flag; a call made after an outcome is new; an interrupted waiter leaves or takes the value, never both.
 */
@ExtendWith(FrayTestExtension.class)
class SingleFlightFrayTest {
    /** Runs each submitted call in a platform thread of its own (Fray hangs on virtual threads). */
    private static final Executor PLATFORM_THREAD_PER_CALL = task -> Thread.ofPlatform().start(task);

    /**
     * Outcomes seen: each execution (numbered from 1) and the shared flags of the callers it was given to.
     * Checks, once every caller is done, that each execution's flags say whether it went to more than one.
     */
    private static final class Outcomes {
        final AtomicInteger executions = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final Map<Integer, List<Boolean>> given = new ConcurrentHashMap<>();
        /** Whether executions must not overlap (they may once the key is forgotten). */
        final boolean exclusive;

        Outcomes(boolean exclusive) {
            this.exclusive = exclusive;
        }

        /** The function of a call: a yield inside, returns its number; one execution at a time if exclusive. */
        Integer execute() {
            int now = running.incrementAndGet();
            if (exclusive) {
                assertEquals(1, now, "two executions for one key at once");
            }
            int execution = executions.incrementAndGet();
            Thread.yield(); // callers come while the call runs
            running.decrementAndGet();
            return execution;
        }

        /** Notes that {@code result} was given to a caller. */
        int took(Result<Integer> result) {
            given.computeIfAbsent(result.value(), e -> new CopyOnWriteArrayList<>()).add(result.shared());
            return result.value();
        }

        void assertSharedFlagsExact() {
            assertEquals(executions.get(), given.size(), "an execution's value reached nobody: " + given);
            given.forEach((execution, flags) -> {
                for (boolean shared : flags) {
                    assertEquals(flags.size() > 1, shared, "execution " + execution + " given as " + flags);
                }
            });
        }
    }

    /**
     * Three callers of one key, two by run, one by submit: executions never overlap, every caller gets the
     * value of an execution, each execution's shared flag is exact, and a caller that calls again after it
     * had its outcome makes a new call (a later execution).
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void callersShareOneExecutionAndACallAfterAnOutcomeIsNew() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        Outcomes outcomes = new Outcomes(true);
        Thread again = start("again", () -> {
            int first = outcomes.took(flight.run("key", outcomes::execute));
            int second = outcomes.took(flight.run("key", outcomes::execute));
            assertTrue(second > first, "a call after an outcome joined an execution begun before: "
                    + first + " then " + second);
        });
        Thread other = start("other", () -> outcomes.took(flight.run("key", outcomes::execute)));
        CompletableFuture<Result<Integer>> submitted =
                flight.submit("key", outcomes::execute, PLATFORM_THREAD_PER_CALL);
        join(again, other);
        outcomes.took(submitted.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
        outcomes.assertSharedFlagsExact();
    }

    /**
     * A caller waiting for a call is interrupted racing the call's completion: it either leaves with
     * InterruptedException and its interrupt status cleared, the value then not counted as given to it, or
     * takes the value with its interrupt status set; the runner's shared flag says which. The call itself is
     * not disturbed.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedWaiterLeavesOrTakesTheValueNeverBoth() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        AtomicBoolean waiterTook = new AtomicBoolean();
        AtomicBoolean waiterDone = new AtomicBoolean();
        Thread runner = start("runner", () -> {
            Result<Integer> result = flight.run("key", () -> {
                entered.set(true);
                FrayThreads.until("released", release::get);
                return 1;
            });
            assertEquals(1, result.value());
            assertFalse(Thread.currentThread().isInterrupted(), "the runner got an interrupt");
            FrayThreads.until("the waiter is done", waiterDone::get);
            assertEquals(waiterTook.get(), result.shared(), "shared says the waiter took it: " + waiterTook.get());
        });
        FrayThreads.until("the call runs", entered::get);
        Thread waiter = start("waiter", () -> {
            try {
                Result<Integer> result = flight.run("key", () -> fail("the waiter ran the function"));
                assertEquals(new Result<>(1, true), result);
                assertTrue(Thread.interrupted(), "took the value but lost its interrupt");
                waiterTook.set(true);
            } catch (InterruptedException e) {
                assertFalse(Thread.currentThread().isInterrupted(), "left with its interrupt status set");
            } finally {
                waiterDone.set(true);
            }
        });
        untilParked(waiter);
        Thread interrupter = start("interrupter", waiter::interrupt);
        release.set(true);
        join(interrupter, waiter, runner);
    }

    /**
     * A forget racing the calls: two executions may then overlap, but a caller still gets the value of an
     * execution, and each execution's shared flag is exact; no caller is left waiting.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aForgetRacingTheCallsLosesNoCaller() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        Outcomes outcomes = new Outcomes(false);
        FrayThreads.Body call = () -> outcomes.took(flight.run("key", outcomes::execute));
        Thread a = start("a", call);
        Thread b = start("b", call);
        Thread forgetter = start("forgetter", () -> flight.forget("key"));
        call.run();
        join(a, b, forgetter);
        outcomes.assertSharedFlagsExact();
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * A failing call: every caller that joined it gets ExecutionException with the same cause; the next call
     * after the failure is a new execution (nothing cached).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aFailureReachesEveryCallerOfItsCallAndIsNotKept() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicInteger executions = new AtomicInteger();
        Map<Throwable, AtomicInteger> failures = new ConcurrentHashMap<>();
        FrayThreads.Body call = () -> {
            try {
                flight.run("key", () -> {
                    executions.incrementAndGet();
                    Thread.yield();
                    throw new IllegalStateException("failed");
                });
                fail("a failing call returned");
            } catch (ExecutionException e) {
                failures.computeIfAbsent(e.getCause(), c -> new AtomicInteger()).incrementAndGet();
            }
        };
        Thread a = start("a", call);
        Thread b = start("b", call);
        join(a, b);
        assertEquals(executions.get(), failures.size(), "callers of one execution got different causes");
        assertNotEquals(0, executions.get());
        int before = executions.get();
        call.run();
        assertEquals(before + 1, executions.get(), "a failure was kept");
    }
}
