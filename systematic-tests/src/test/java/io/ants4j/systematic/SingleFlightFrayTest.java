package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
        AtomicBoolean interruptSent = new AtomicBoolean();
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
                FrayThreads.until("the interrupt sent", interruptSent::get); // it may come after the value
                assertTrue(Thread.interrupted(), "took the value but lost its interrupt");
                waiterTook.set(true);
            } catch (InterruptedException e) {
                assertFalse(Thread.currentThread().isInterrupted(), "left with its interrupt status set");
            } finally {
                waiterDone.set(true);
            }
        });
        untilParked(waiter);
        Thread interrupter = start("interrupter", () -> {
            waiter.interrupt();
            interruptSent.set(true);
        });
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

    /**
     * A forget, then a newer call for the key: the forgotten call's completion, whenever it comes, leaves the
     * newer call's key alone ({@code remove(key, call)}), so a caller that comes while the newer call runs joins it
     * and is given its value, shared; no third execution runs beside it. The forgotten call's caller gets its own
     * value, not shared (coverage review 5, gap 5).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aForgottenCallsCompletionLeavesTheNewerCallsKey() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean forgottenRuns = new AtomicBoolean();
        AtomicBoolean releaseForgotten = new AtomicBoolean();
        AtomicBoolean newerRuns = new AtomicBoolean();
        AtomicBoolean lateCallerDone = new AtomicBoolean();
        Thread forgotten = start("forgotten", () -> {
            Result<Integer> result = flight.run("key", () -> {
                forgottenRuns.set(true);
                FrayThreads.until("the forgotten call is released", releaseForgotten::get);
                return 1;
            });
            assertEquals(new Result<>(1, false), result);
        });
        FrayThreads.until("the first call runs", forgottenRuns::get);
        flight.forget("key");
        AtomicReference<Thread> late = new AtomicReference<>();
        Thread newer = start("newer", () -> {
            Result<Integer> result = flight.run("key", () -> {
                newerRuns.set(true);
                // runs until the late caller has joined (parked) or, wrongly, ended
                FrayThreads.until("the late caller joins", () -> late.get() != null && (lateCallerDone.get()
                        || late.get().getState() == Thread.State.WAITING));
                newerRuns.set(false);
                return 2;
            });
            assertEquals(new Result<>(2, true), result, "the late caller did not join the newer call");
        });
        FrayThreads.until("the newer call runs", newerRuns::get);
        Thread releaser = start("releaser", () -> releaseForgotten.set(true));
        late.set(start("late", () -> {
            try {
                Result<Integer> result = flight.run("key", () -> {
                    assertFalse(newerRuns.get(), "a call made while the newer one ran started a third execution "
                            + "beside it: the forgotten call's completion removed the newer call's key");
                    return 3;
                });
                assertEquals(new Result<>(2, true), result);
            } finally {
                lateCallerDone.set(true);
            }
        }));
        join(releaser, forgotten, late.get(), newer);
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * A joined future cancelled, another completed by its holder, each racing the completion of the call (run by
     * a thread that waits for nothing else): {@code shared} counts a future only if it was still waiting. If both
     * stopped waiting before the call's function returned, the runner's result is not shared; a future that was
     * given the call's result was counted, so that result is shared, and it is the runner's record (coverage
     * review 5, gap 6).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aFutureThatStoppedWaitingIsNotCountedAsSharing() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        AtomicReference<Result<Integer>> runnerGot = new AtomicReference<>();
        Thread runner = start("runner", () -> runnerGot.set(flight.run("key", () -> {
            entered.set(true);
            FrayThreads.until("released", release::get);
            return 1;
        })));
        FrayThreads.until("the call runs", entered::get);
        CompletableFuture<Result<Integer>> cancelled =
                flight.submit("key", () -> fail("a joined future ran the function"), PLATFORM_THREAD_PER_CALL);
        CompletableFuture<Result<Integer>> completed =
                flight.submit("key", () -> fail("a joined future ran the function"), PLATFORM_THREAD_PER_CALL);
        Result<Integer> own = new Result<>(0, false);
        AtomicBoolean cancelReturned = new AtomicBoolean();
        AtomicBoolean completeReturned = new AtomicBoolean();
        Thread canceller = start("canceller", () -> {
            cancelled.cancel(false);
            cancelReturned.set(true);
        });
        Thread completer = start("completer", () -> {
            completed.complete(own);
            completeReturned.set(true);
        });
        boolean bothStoppedBeforeTheRelease = cancelReturned.get() && completeReturned.get();
        release.set(true);
        join(canceller, completer, runner);
        Result<Integer> result = runnerGot.get();
        assertEquals(1, result.value());
        if (bothStoppedBeforeTheRelease) {
            assertFalse(result.shared(), "shared, though both joined futures had stopped waiting before the call's "
                    + "function returned");
        }
        for (CompletableFuture<Result<Integer>> future : List.of(cancelled, completed)) {
            if (!future.isCancelled() && future.join() != own) {
                assertSame(result, future.join(), "a joined future got another record than the runner");
                assertTrue(result.shared(), "a joined future was given the result, yet it is not shared");
            }
        }
    }

    /**
     * {@code submit} to an executor that starts the task in a thread of its own, then throws: a thread that joined
     * the call meanwhile is given the function's value if the task started the call first, or the executor's
     * throwable if the refusal came first, and then the task does nothing when it runs: the function runs once
     * or never, never both with the refusal's outcome; {@code submit} throws the refusal either way (coverage
     * review 5, gap 7).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anExecutorThatStartsTheTaskAndThrowsLetsTheFirstOfThemDecide() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicInteger executions = new AtomicInteger();
        RejectedExecutionException refusal = new RejectedExecutionException("refused after starting the task");
        AtomicReference<Object> joinerGot = new AtomicReference<>();
        List<Thread> started = new CopyOnWriteArrayList<>();
        AtomicReference<Throwable> taskThrew = new AtomicReference<>();
        Executor startsThenThrows = task -> {
            Thread joiner = start("joiner", () -> {
                try {
                    joinerGot.set(flight.run("key", () -> fail("the joiner ran the function")));
                } catch (ExecutionException e) {
                    joinerGot.set(e.getCause());
                }
            });
            started.add(joiner);
            untilParked(joiner); // joined the call: nothing can complete it before the task starts
            started.add(Thread.ofPlatform().name("task").start(() -> {
                try {
                    task.run();
                } catch (Throwable t) {
                    taskThrew.set(t);
                }
            }));
            throw refusal;
        };
        try {
            flight.submit("key", () -> {
                executions.incrementAndGet();
                Thread.yield();
                return 1;
            }, startsThenThrows);
            fail("submit returned though its executor threw");
        } catch (Throwable e) { // the refusal, as it is, whoever started the call
            assertSame(refusal, e, () -> "submit threw " + e + ", not the executor's refusal");
        }
        join(started.toArray(Thread[]::new));
        Object got = joinerGot.get();
        if (executions.get() == 1) {
            // shared or not: submit cancels its own future, which nobody gets, racing the completion's count
            assertTrue(got instanceof Result<?> r && r.value().equals(1), "the task started the call, yet the "
                    + "joiner got " + got);
        } else {
            assertEquals(0, executions.get(), "the function ran more than once");
            assertSame(refusal, got, "the call never ran, yet the joiner got " + got);
        }
        assertNull(taskThrew.get(), () -> "the task threw " + taskThrew.get());
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * A {@code run} for a key from inside that key's function, in the thread running it, throws
     * IllegalStateException (it would wait for itself), also while another caller joins the call, and for a call
     * started by {@code submit} (its task's thread); the function goes on and every caller gets its value
     * (coverage review 5, gap 8).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aRunForTheKeyFromInsideItsFunctionThrows() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        Thread runner = start("runner", () -> assertEquals(1, flight.run("run", () -> {
            entered.set(true);
            Thread.yield(); // the joiner may join before the inner run, or after
            assertThrows(IllegalStateException.class, () -> flight.run("run", () -> fail("the inner run ran")),
                    "a run from inside its own function");
            return 1;
        }).value()));
        FrayThreads.until("the call runs", entered::get);
        Thread joiner = start("joiner", () -> {
            Result<Integer> result = flight.run("run", () -> 3); // 3: came after the call had completed
            assertTrue(result.equals(new Result<>(1, true)) || result.equals(new Result<>(3, false)),
                    "the joiner got " + result);
        });
        CompletableFuture<Result<Integer>> submitted = flight.submit("submit", () -> {
            assertThrows(IllegalStateException.class, () -> flight.run("submit", () -> fail("the inner run ran")),
                    "a run from inside its own function, run by submit's task");
            return 2;
        }, PLATFORM_THREAD_PER_CALL);
        join(runner, joiner);
        assertEquals(2, submitted.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS).value());
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * The runner's outcome and the joiner's, when the joiner came while the runner's call was registered: the
     * joiner joined it (the value, shared, for both) or came after its key was removed and made a new call (each
     * its own value, not shared); never left waiting.
     */
    private static void assertJoinedOrNewCall(Result<Integer> runnerGot, Result<Integer> joinerGot) {
        if (joinerGot.equals(new Result<>(1, true))) {
            assertEquals(new Result<>(1, true), runnerGot, "the joiner joined, yet the runner's result is not shared");
        } else {
            assertEquals(new Result<>(2, false), joinerGot, "the joiner got neither the call's value nor its own");
            assertEquals(new Result<>(1, false), runnerGot, "the joiner made its own call, yet the runner's is shared");
        }
    }

    /**
     * A caller joining a call (computeIfPresent under the lock of the key's bin) races the call's completion,
     * whose removal of the key succeeds and is followed by a release store of COMPLETED instead of an atomic
     * exchange (the implementation notes): the joiner is given the outcome or, if it came after the removal,
     * makes a new call; never left waiting with its join unseen.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aJoinRacingTheCompletionsRemovalIsGivenTheOutcomeOrMakesANewCall() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicReference<Result<Integer>> runnerGot = new AtomicReference<>();
        Thread runner = start("runner", () -> runnerGot.set(flight.run("key", () -> {
            entered.set(true);
            return 1;
        })));
        FrayThreads.until("the call runs", entered::get);
        Result<Integer> joinerGot = flight.run("key", () -> 2);
        join(runner);
        assertJoinedOrNewCall(runnerGot.get(), joinerGot);
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * As above, the call forgotten meanwhile: the completion's removal finds nothing and it publishes with an
     * atomic exchange; a joiner that joined before the forget is given the outcome, one that came after it makes
     * a new call; never left waiting.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aJoinRacingAForgetAndTheCompletionIsGivenTheOutcomeOrMakesANewCall() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicReference<Result<Integer>> runnerGot = new AtomicReference<>();
        Thread runner = start("runner", () -> runnerGot.set(flight.run("key", () -> {
            entered.set(true);
            Thread.yield();
            return 1;
        })));
        FrayThreads.until("the call runs", entered::get);
        Thread forgetter = start("forgetter", () -> flight.forget("key"));
        Result<Integer> joinerGot = flight.run("key", () -> 2);
        join(runner, forgetter);
        assertJoinedOrNewCall(runnerGot.get(), joinerGot);
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /** A key whose hash collides with every other; its equals throws in the thread it was armed for. */
    private static final class KeyThrowingIn {
        final String name;
        final AtomicReference<Thread> throwsIn;

        KeyThrowingIn(String name, AtomicReference<Thread> throwsIn) {
            this.name = name;
            this.throwsIn = throwsIn;
        }

        @Override
        public int hashCode() {
            return 42;
        }

        @Override
        public boolean equals(Object o) {
            if (throwsIn.get() == Thread.currentThread()) {
                throw new IllegalStateException("equals fails in " + Thread.currentThread().getName());
            }
            return o instanceof KeyThrowingIn other && other.name.equals(name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * Class javadoc: "Removing a completed call's key calls no method of the key". A caller joining a call whose
     * key's equals throws in the completing thread (against a key of the same hash in flight): the completion
     * removes the key all the same, so the joiner is given the outcome, or comes after the removal and makes a new
     * call; never left waiting, and only the other key's call stays in flight.
     */
    @FrayTest(iterations = 500 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aJoinRacingTheCompletionOfACallWhoseKeyThrowsInTheCompletingThreadIsGivenTheOutcomeOrMakesANewCall() throws Exception {
        SingleFlight<KeyThrowingIn, Integer> flight = new SingleFlight<>();
        AtomicReference<Thread> throwsIn = new AtomicReference<>();
        KeyThrowingIn before = new KeyThrowingIn("before", throwsIn);
        KeyThrowingIn key = new KeyThrowingIn("key", throwsIn);
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Integer>> earlier = flight.submit(before, () -> 0, held::set); // first in the bin
        AtomicBoolean entered = new AtomicBoolean();
        AtomicReference<Result<Integer>> runnerGot = new AtomicReference<>();
        Thread runner = start("runner", () -> runnerGot.set(flight.run(key, () -> {
            throwsIn.set(Thread.currentThread()); // a completion that compared key with before would throw
            entered.set(true);
            return 1;
        })));
        FrayThreads.until("the call runs", entered::get);
        Result<Integer> joinerGot = flight.run(key, () -> 2);
        join(runner);
        assertJoinedOrNewCall(runnerGot.get(), joinerGot);
        assertTrue(flight.toString().endsWith("[keys in flight = 1]"), "only before's call is in flight: " + flight);
        held.get().run();
        assertEquals(new Result<>(0, false), earlier.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    /** A key whose hash is the same for every name: all such keys share one stripe of the table and one bin. */
    private record Colliding(String name) {
        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * Keys of one hash share a bin of the calls in flight (a chain), and a call leaves it by identity from any
     * place: "calls for equal keys are collapsed" and for other keys are not, whatever the keys' hashes. k1's call
     * is linked first, k2's call then in front of it; k1's completion, racing a forget of k1, takes k1 out of the
     * middle of the chain (behind k2) while k2's call runs: a caller of k2 that comes meanwhile, before or after,
     * still joins k2's call and is given its value, shared; k2's own caller is never given k1's value; once
     * every caller is done no key is in flight (the count, read without the lock, agrees). Coverage review 17,
     * mutants CT-U (a call taken out of the middle of its bin takes the calls in front of it too) and CT-C (the
     * count given back only for the head of a bin).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aCallLeavingTheMiddleOfItsBinLeavesTheOtherKeysCallsInFlight() throws Exception {
        SingleFlight<Colliding, Integer> flight = new SingleFlight<>();
        Colliding k1 = new Colliding("k1");
        Colliding k2 = new Colliding("k2");
        AtomicBoolean firstRuns = new AtomicBoolean();
        AtomicBoolean releaseFirst = new AtomicBoolean();
        AtomicBoolean secondRuns = new AtomicBoolean();
        AtomicBoolean lateDone = new AtomicBoolean();
        AtomicReference<Thread> late = new AtomicReference<>();
        Thread first = start("first", () -> {
            Result<Integer> result = flight.run(k1, () -> {
                firstRuns.set(true);
                FrayThreads.until("the first call is released", releaseFirst::get);
                return 1;
            });
            assertEquals(new Result<>(1, false), result, "k1's caller");
        });
        FrayThreads.until("k1's call runs", firstRuns::get);
        Thread second = start("second", () -> {
            Result<Integer> result = flight.run(k2, () -> {
                secondRuns.set(true);
                // runs until the late caller has joined (parked) or, wrongly, ended
                FrayThreads.until("the late caller joins", () -> late.get() != null && (lateDone.get()
                        || late.get().getState() == Thread.State.WAITING));
                secondRuns.set(false);
                return 2;
            });
            assertEquals(new Result<>(2, true), result, "k2's caller: the late caller did not join k2's call");
        });
        FrayThreads.until("k2's call runs", secondRuns::get);
        Thread releaser = start("releaser", () -> releaseFirst.set(true));
        Thread forgetter = start("forgetter", () -> flight.forget(k1));
        late.set(start("late", () -> {
            try {
                Result<Integer> result = flight.run(k2, () -> {
                    assertFalse(secondRuns.get(), "a call for k2 made while k2's call ran started a second "
                            + "execution beside it: k2's call had left the table with k1's");
                    return 3;
                });
                assertEquals(new Result<>(2, true), result, "the late caller of k2");
            } finally {
                lateDone.set(true);
            }
        }));
        join(releaser, forgetter, first, late.get(), second);
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
        assertEquals(new Result<>(4, false), flight.run(k2, () -> 4), "a call for k2 after its outcome is new");
        assertEquals(new Result<>(5, false), flight.run(k1, () -> 5), "a call for k1 after its outcome is new");
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * Class javadoc: a function that throws gives "an ExecutionException whose cause is what it threw, an Error
     * too, in every caller, the one that ran the function included". A run's function throws an Error while a
     * caller of run and a future of submit have joined it, and a submitted call's function throws one while a
     * caller of run has joined it: every caller of each is given an ExecutionException caused by that very Error,
     * nobody is left waiting, no key stays in flight, and the next call is new. (Coverage review 20, mutant SF-ERR:
     * run's call of the function catching Exception, not Throwable: the runner is thrown the Error itself and its
     * joiners wait for ever: caught at iteration 0, the runner thrown the Error itself.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anErrorOfTheFunctionReachesEveryCallerOfItsCall() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        Error error = new Error("the function failed");
        AtomicBoolean entered = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        List<Throwable> causes = new CopyOnWriteArrayList<>();
        FrayThreads.Body joinRun = () -> {
            try {
                flight.run("key", () -> fail("a joiner ran the function"));
                fail("a caller of a call whose function threw returned");
            } catch (ExecutionException e) {
                causes.add(e.getCause());
            }
        };
        Thread runner = start("runner", () -> {
            try {
                flight.run("key", () -> {
                    entered.set(true);
                    FrayThreads.until("released", release::get);
                    throw error;
                });
                fail("the runner of a function that threw returned");
            } catch (ExecutionException e) {
                causes.add(e.getCause());
            }
        });
        FrayThreads.until("the call runs", entered::get);
        Thread joiner = start("joiner", joinRun);
        untilParked(joiner);
        CompletableFuture<Result<Integer>> joined =
                flight.submit("key", () -> fail("a joined future ran the function"), PLATFORM_THREAD_PER_CALL);
        AtomicBoolean submittedEntered = new AtomicBoolean();
        AtomicBoolean releaseSubmitted = new AtomicBoolean();
        CompletableFuture<Result<Integer>> submitted = flight.submit("submitted", () -> {
            submittedEntered.set(true);
            FrayThreads.until("the submitted call is released", releaseSubmitted::get);
            throw error;
        }, PLATFORM_THREAD_PER_CALL);
        FrayThreads.until("the submitted call runs", submittedEntered::get);
        Thread submittedJoiner = start("submitted's joiner", () -> {
            try {
                flight.run("submitted", () -> fail("a joiner ran the submitted function"));
                fail("a caller of a submitted call whose function threw returned");
            } catch (ExecutionException e) {
                causes.add(e.getCause());
            }
        });
        untilParked(submittedJoiner);
        Thread releaser = start("releaser", () -> releaseSubmitted.set(true));
        release.set(true);
        join(releaser, runner, joiner, submittedJoiner);
        for (CompletableFuture<Result<Integer>> future : List.of(joined, submitted)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> future.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "a future of a failed call");
            causes.add(e.getCause());
        }
        assertEquals(5, causes.size(), "callers given the failure: " + causes);
        for (Throwable cause : causes) {
            assertSame(error, cause, "a caller was given " + cause + ", not the function's Error");
        }
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
        assertEquals(new Result<>(2, false), flight.run("key", () -> 2), "a call after a failure is new");
        assertEquals(new Result<>(3, false), flight.run("submitted", () -> 3), "a call after a failure is new");
    }

    /**
     * Class javadoc: {@code shared} says "whether, when the call completed, more than one of its callers was
     * waiting for it (...; a caller that stopped waiting before, interrupted or its future cancelled or
     * completed, is not)": also the caller whose {@code submit} started the call. A submitted call runs, a caller
     * of run joins it, and the submit's own future is cancelled, racing the release of the function: if the
     * cancel returned before the release, the joiner's result is not shared; if the future was given the result,
     * it is the joiner's record, shared. (Coverage review 20, mutant SF-OWN: the submit's own future counted as
     * waiting though cancelled, caught at iteration 5; aFutureThatStoppedWaitingIsNotCountedAsSharing cancels
     * joined futures only.)
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSubmitsOwnFutureThatStoppedWaitingIsNotCountedAsSharing() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicBoolean release = new AtomicBoolean();
        CompletableFuture<Result<Integer>> owner = flight.submit("key", () -> {
            entered.set(true);
            FrayThreads.until("released", release::get);
            return 1;
        }, PLATFORM_THREAD_PER_CALL);
        FrayThreads.until("the call runs", entered::get);
        AtomicReference<Result<Integer>> joinerGot = new AtomicReference<>();
        Thread joiner = start("joiner",
                () -> joinerGot.set(flight.run("key", () -> fail("the joiner ran the function"))));
        untilParked(joiner);
        AtomicBoolean cancelReturned = new AtomicBoolean();
        Thread canceller = start("canceller", () -> {
            owner.cancel(false);
            cancelReturned.set(true);
        });
        AtomicBoolean cancelledBeforeTheRelease = new AtomicBoolean();
        Thread releaser = start("releaser", () -> {
            cancelledBeforeTheRelease.set(cancelReturned.get());
            release.set(true);
        });
        join(canceller, releaser, joiner);
        Result<Integer> result = joinerGot.get();
        assertEquals(1, result.value());
        if (cancelledBeforeTheRelease.get()) {
            assertFalse(result.shared(), "shared, though the submit's own future was cancelled before the call's "
                    + "function returned");
        }
        if (!owner.isCancelled()) {
            assertSame(result, owner.join(), "the submit's future got another record than the joiner");
            assertTrue(result.shared(), "the submit's future was given the result, yet it is not shared");
        }
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }

    /**
     * Class javadoc: "The caller that runs the function waits for nothing: its interrupt is the function's to
     * handle"; submit's javadoc: the completing thread's interrupt status "is kept from the dependents of the
     * other callers' futures and set again when the completion returns". A run's function runs while a future of
     * submit (with a dependent action) joins it; another thread interrupts the runner at any moment, before the
     * function returns or during the hand-over: run returns the value, shared, and the runner still has its
     * interrupt status once the interrupt was sent. (Coverage review 20, mutant SF-INT: the completion, which
     * clears the status before it completes the futures, not setting it again: caught at iteration 0.)
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theRunnersInterruptOutlivesTheHandOverToAJoinedFuture() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicBoolean joined = new AtomicBoolean();
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread runner = start("runner", () -> {
            Result<Integer> result = flight.run("key", () -> {
                entered.set(true);
                FrayThreads.until("the future joined", joined::get);
                Thread.yield(); // the interrupt may come now, or during the hand-over, or after it
                return 1;
            });
            assertEquals(new Result<>(1, true), result);
            FrayThreads.until("the interrupt is sent", interruptSent::get);
            assertTrue(Thread.interrupted(), "the runner lost its interrupt to the hand-over");
        });
        FrayThreads.until("the call runs", entered::get);
        CompletableFuture<Result<Integer>> future =
                flight.submit("key", () -> fail("a joined future ran the function"), PLATFORM_THREAD_PER_CALL);
        AtomicInteger dependents = new AtomicInteger();
        CompletableFuture<Void> dependent = future.thenRun(dependents::incrementAndGet);
        Thread interrupter = start("interrupter", () -> {
            runner.interrupt();
            interruptSent.set(true);
        });
        joined.set(true);
        join(interrupter, runner);
        assertEquals(new Result<>(1, true), future.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
        dependent.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(1, dependents.get());
        assertFalse(Thread.currentThread().isInterrupted(), "the main thread got an interrupt");
    }

    /**
     * Class javadoc: "if the function throws {@code InterruptedException}, {@code run} sets the caller's interrupt
     * status again and throws the {@code ExecutionException}, so the interrupt is not lost". A run's function
     * waits for an interrupt while a caller of run and a future of submit join it; another thread interrupts the
     * runner, whose function then throws InterruptedException with the status cleared, as a blocking call does:
     * the runner is thrown an ExecutionException caused by it and has its interrupt status set; the joiners are
     * given the same cause and no interrupt. (Coverage review 20, mutant SF-IE: completeAfterCall not setting the
     * status again, caught at iteration 0; no other SingleFlightFrayTest has a function throw
     * InterruptedException. A first version whose function waited in CountDownLatch.await let the mutant survive
     * 100 iterations, the runner's status found set all the same, apparently Fray's latch leaving it set as it
     * threw (not analysed further): the function clears it itself here.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aFunctionInterruptedInItsWaitFailsItsCallAndTheRunnerKeepsTheInterrupt() throws Exception {
        SingleFlight<String, Integer> flight = new SingleFlight<>();
        AtomicBoolean entered = new AtomicBoolean();
        AtomicReference<InterruptedException> thrown = new AtomicReference<>();
        Thread runner = start("runner", () -> {
            ExecutionException e = assertThrows(ExecutionException.class, () -> flight.run("key", () -> {
                entered.set(true);
                // waits for the interrupt as a blocking call does, and throws with the status cleared, as it does
                FrayThreads.until("the runner is interrupted", Thread::interrupted);
                thrown.set(new InterruptedException("the function was interrupted"));
                throw thrown.get();
            }), "the runner of a function that threw");
            assertSame(thrown.get(), e.getCause(), "the runner was given another cause");
            assertTrue(Thread.interrupted(), "run lost the interrupt its function threw as InterruptedException");
        });
        FrayThreads.until("the call runs", entered::get);
        Thread joiner = start("joiner", () -> {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> flight.run("key", () -> fail("the joiner ran the function")), "a joiner");
            assertSame(thrown.get(), e.getCause(), "the joiner was given another cause");
            assertFalse(Thread.currentThread().isInterrupted(), "the joiner got the runner's interrupt");
        });
        untilParked(joiner);
        CompletableFuture<Result<Integer>> future =
                flight.submit("key", () -> fail("a joined future ran the function"), PLATFORM_THREAD_PER_CALL);
        Thread interrupter = start("interrupter", runner::interrupt);
        join(interrupter, runner, joiner);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> future.get(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "a joined future");
        assertSame(thrown.get(), e.getCause(), "the joined future was given another cause");
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), "a key stayed in flight: " + flight);
    }
}
