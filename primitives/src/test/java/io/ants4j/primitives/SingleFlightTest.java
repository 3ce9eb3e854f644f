package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.TIMEOUT;
import static io.ants4j.primitives.Threads.assertNotDone;
import static io.ants4j.primitives.Threads.failure;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static io.ants4j.primitives.Threads.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Go's {@code singleflight_test.go}, mapped to Java, and the Java contracts of {@link SingleFlight}. */
class SingleFlightTest {
    private final SingleFlight<String, Object> flight = new SingleFlight<>();

    /** Waits until {@code thread} waits for a call another caller started. */
    static void untilJoined(Thread thread) {
        until(thread + " joins a call", () -> LockSupport.getBlocker(thread) instanceof FlightCall);
    }

    /** A caller running the function of a call for "key" in a thread of its own, held inside it until released. */
    private record HeldCall(Threads.Task<Result<Object>> caller, CountDownLatch gate) {
        void release() {
            gate.countDown();
        }
    }

    /** Starts a call for "key" whose function waits until released, then returns what {@code then} returns. */
    private HeldCall heldCall(Callable<Object> then) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Threads.Task<Result<Object>> caller = start(() -> flight.run("key", () -> {
            running.countDown();
            await(release);
            return then.call();
        }));
        await(running);
        return new HeldCall(caller, release);
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "latch not opened in time");
    }

    /** Go's TestDo. */
    @Test
    void runReturnsTheValue() throws Exception {
        Result<Object> result = flight.run("key", () -> "bar");
        assertEquals("bar", result.value());
        assertFalse(result.shared());
    }

    /** Go's TestDoErr. */
    @Test
    void aThrowingFunctionFailsTheCallWithItsException() {
        Exception someErr = new Exception("some error");
        ExecutionException e = assertThrows(ExecutionException.class, () -> flight.run("key", () -> {
            throw someErr;
        }));
        assertSame(someErr, e.getCause());
    }

    /** Go's TestDoDupSuppress: the callers that come while the call runs share its one execution. */
    @Test
    void callersThatComeWhileTheCallRunsShareItsOneExecution() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        HeldCall first = heldCall(() -> {
            calls.incrementAndGet();
            return "bar";
        });
        List<Threads.Task<Result<Object>>> joiners = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            Threads.Task<Result<Object>> joiner = start(() -> flight.run("key", () -> {
                calls.incrementAndGet();
                return "not bar";
            }));
            untilJoined(joiner.thread());
            joiners.add(joiner);
        }
        first.release();
        assertEquals(new Result<>("bar", true), get(first.caller()));
        for (Threads.Task<Result<Object>> joiner : joiners) {
            assertEquals(new Result<>("bar", true), get(joiner));
        }
        assertEquals(1, calls.get());
    }

    /** Go's TestForget: after forget, a call starts anew, and the next joins that new call. */
    @Test
    void forgetLetsTheNextCallStartAnew() throws Exception {
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch unblockFirst = new CountDownLatch(1);
        Threads.Task<Result<Object>> first = start(() -> flight.run("key", () -> {
            firstStarted.countDown();
            await(unblockFirst);
            return 1;
        }));
        await(firstStarted);
        flight.forget("key");

        CountDownLatch unblockSecond = new CountDownLatch(1);
        CompletableFuture<Result<Object>> second = flight.submit("key", () -> {
            await(unblockSecond);
            return 2;
        });
        unblockFirst.countDown();
        assertEquals(new Result<>(1, false), get(first));

        CompletableFuture<Result<Object>> third = flight.submit("key", () -> 3);
        unblockSecond.countDown();
        assertEquals(new Result<>(2, true), get(second));
        assertEquals(new Result<>(2, true), get(third), "the third call joins the second");
    }

    /** Go's TestDoChan. */
    @Test
    void submitCompletesWithTheValue() {
        assertEquals(new Result<>("bar", false), get(flight.submit("key", () -> "bar")));
    }

    /** Go's TestPanicDo: an Error reaches every caller of the call, and nobody hangs. */
    @Test
    void anErrorOfTheFunctionReachesEveryCaller() throws Exception {
        AssertionError panic = new AssertionError("invalid memory address or nil pointer dereference");
        HeldCall first = heldCall(() -> {
            throw panic;
        });
        List<Threads.Task<Result<Object>>> callers = new ArrayList<>(List.of(first.caller()));
        for (int i = 0; i < 4; i++) {
            Threads.Task<Result<Object>> joiner = start(() -> flight.run("key", () -> "not called"));
            untilJoined(joiner.thread());
            callers.add(joiner);
        }
        first.release();
        for (Threads.Task<Result<Object>> caller : callers) {
            Throwable thrown = failure(caller.result());
            assertInstanceOf(ExecutionException.class, thrown);
            assertSame(panic, thrown.getCause());
        }
        assertEquals(new Result<>("after", false), flight.run("key", () -> "after"));
    }

    /**
     * Go's TestGoexitDo, mapped to a Java thread's way of being stopped: the function throws
     * InterruptedException; its caller throws ExecutionException with its interrupt status set again,
     * and the callers that joined are not interrupted.
     */
    @Test
    void anInterruptedExceptionOfTheFunctionKeepsTheRunnersInterrupt() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Threads.Task<Boolean> runner = start(() -> {
            ExecutionException e = assertThrows(ExecutionException.class, () -> flight.run("key", () -> {
                running.countDown();
                await(release);
                throw new InterruptedException("stopped");
            }));
            assertInstanceOf(InterruptedException.class, e.getCause());
            return Thread.interrupted();
        });
        await(running);
        Threads.Task<Boolean> joiner = start(() -> {
            ExecutionException e = assertThrows(ExecutionException.class, () -> flight.run("key", () -> 0));
            assertInstanceOf(InterruptedException.class, e.getCause());
            return Thread.interrupted();
        });
        untilJoined(joiner.thread());
        release.countDown();
        assertTrue(get(runner), "the runner's interrupt status is set again");
        assertFalse(get(joiner), "a caller that joined is not interrupted");
    }

    /** Go's TestPanicDoChan: a failure of a submitted call fails its future, and the key is free after. */
    @Test
    void aFailureOfASubmittedCallFailsItsFuture() throws Exception {
        IllegalStateException panic = new IllegalStateException("panicking in submit");
        assertSame(panic, failure(flight.submit("key", () -> {
            throw panic;
        })));
        assertEquals(new Result<>("after", false), flight.run("key", () -> "after"));
    }

    /** Go's TestPanicDoSharedByDoChan: a submit that joins a failing run gets the failure, its own fn never called. */
    @Test
    void aSubmitThatJoinsAFailingRunGetsItsFailure() throws Exception {
        IllegalStateException panic = new IllegalStateException("panicking in run");
        HeldCall runner = heldCall(() -> {
            throw panic;
        });
        CompletableFuture<Result<Object>> joined = flight.submit("key", () -> {
            throw new AssertionError("submit unexpectedly called its function");
        });
        runner.release();
        assertSame(panic, failure(joined));
        assertSame(panic, failure(runner.caller().result()).getCause());
    }

    /** A caller given the outcome that calls again at once makes a new call: the key went first. */
    @Test
    void aCallMadeAfterACallerHasItsOutcomeIsANewCall() throws Exception {
        HeldCall runner = heldCall(() -> "old");
        Threads.Task<Result<Object>> again = start(() -> {
            assertEquals(new Result<>("old", true), flight.run("key", () -> "not called"));
            return flight.run("key", () -> "new");
        });
        untilJoined(again.thread());
        CompletableFuture<Result<Object>> fromCallback = flight.submit("key", () -> "not called")
                .thenCompose(old -> flight.submit("key", () -> "new from callback", Runnable::run));
        runner.release();
        assertEquals(new Result<>("old", true), get(runner.caller()));
        // The two new calls may overlap (the woken thread and the callback run at once), and then one joins the
        // other's: each is given a new call's value, never the old one.
        Set<Object> newValues = Set.of("new", "new from callback");
        Object againValue = get(again).value();
        Object callbackValue = get(fromCallback).value();
        assertTrue(newValues.contains(againValue), () -> "the call made again was given " + againValue);
        assertTrue(newValues.contains(callbackValue), () -> "the callback's call was given " + callbackValue);
    }

    /** submit registers the key before it returns: a run made then joins, even before the call started. */
    @Test
    void submitRegistersTheKeyBeforeItReturns() throws Exception {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> submitted = flight.submit("key", () -> "submitted", held::set);
        Threads.Task<Result<Object>> joiner = start(() -> flight.run("key", () -> "not called"));
        untilJoined(joiner.thread());
        held.get().run();
        assertEquals(new Result<>("submitted", true), get(submitted));
        assertEquals(new Result<>("submitted", true), get(joiner));
    }

    @Test
    void nullIsAValue() throws Exception {
        assertNull(flight.run("key", () -> null).value());
        assertNull(get(flight.submit("key", () -> null)).value());
    }

    @Test
    void keysCompareWithEquals() throws Exception {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> first = flight.submit(new String("key"), () -> 1, held::set);
        CompletableFuture<Result<Object>> second = flight.submit(new String("key"), () -> 2, Runnable::run);
        assertNotDone(second);
        held.get().run();
        assertEquals(new Result<>(1, true), get(second));
        assertEquals(new Result<>(1, true), get(first));
    }

    /** An interrupted waiter leaves; the call and the other waiters go on, and the value counts as given to it only if it took it. */
    @Test
    void anInterruptedWaiterLeavesAndTheOthersGoOn() throws Exception {
        HeldCall runner = heldCall(() -> "value");
        Threads.Task<Boolean> interrupted = start(() -> {
            assertThrows(InterruptedException.class, () -> flight.run("key", () -> "not called"));
            return Thread.currentThread().isInterrupted();
        });
        untilJoined(interrupted.thread());
        Threads.Task<Result<Object>> other = start(() -> flight.run("key", () -> "not called"));
        untilJoined(other.thread());
        interrupted.thread().interrupt();
        assertFalse(get(interrupted), "InterruptedException clears the interrupt status");
        assertNotDone(runner.caller().result());
        runner.release();
        assertEquals(new Result<>("value", true), get(runner.caller()));
        assertEquals(new Result<>("value", true), get(other));
    }

    @Test
    void aValueGivenOnlyToItsRunnerIsNotSharedThoughAWaiterLeft() throws Exception {
        HeldCall runner = heldCall(() -> "value");
        Threads.Task<Object> leaver = start(() -> flight.run("key", () -> "not called"));
        untilJoined(leaver.thread());
        leaver.thread().interrupt();
        assertInstanceOf(InterruptedException.class, failure(leaver.result()));
        CompletableFuture<Result<Object>> cancelled = flight.submit("key", () -> "not called");
        assertTrue(cancelled.cancel(true));
        runner.release();
        assertEquals(new Result<>("value", false), get(runner.caller()));
    }

    @Test
    void aWaiterInterruptedBeforeItCallsThrowsAtOnce() throws Exception {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> inFlight = flight.submit("key", () -> "value", held::set);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> flight.run("key", () -> "not called"));
        assertFalse(Thread.currentThread().isInterrupted());
        held.get().run();
        assertEquals(new Result<>("value", false), get(inFlight));
    }

    @Test
    void theCallerThatRunsTheFunctionKeepsItsInterruptForTheFunction() throws Exception {
        Thread.currentThread().interrupt();
        try {
            assertEquals(new Result<>("ran", false), flight.run("key", () -> {
                assertTrue(Thread.currentThread().isInterrupted(), "the function sees the interrupt");
                return "ran";
            }));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aRunForTheKeyFromInsideItsFunctionThrows() throws Exception {
        Result<Object> outer = flight.run("key", () -> {
            assertThrows(IllegalStateException.class, () -> flight.run("key", () -> "inner"));
            return flight.run("other", () -> "other").value();
        });
        assertEquals(new Result<>("other", false), outer);
        CompletableFuture<Result<Object>> submitted = flight.submit("key",
                () -> assertThrows(IllegalStateException.class, () -> flight.run("key", () -> "inner")).getClass(),
                Runnable::run);
        assertEquals(new Result<>(IllegalStateException.class, false), get(submitted));
    }

    /** An executor that refuses fails the call for whoever joined it, frees the key, and submit throws. */
    @Test
    void aRefusingExecutorFailsTheCallAndFreesTheKey() throws Exception {
        AtomicReference<CompletableFuture<Result<Object>>> joined = new AtomicReference<>();
        RejectedExecutionException refusal = new RejectedExecutionException("full");
        Executor refusing = task -> {
            joined.set(flight.submit("key", () -> "not called", Runnable::run));
            throw refusal;
        };
        assertSame(refusal, assertThrows(RejectedExecutionException.class,
                () -> flight.submit("key", () -> "not called", refusing)));
        assertSame(refusal, failure(joined.get()));
        assertEquals(new Result<>("after", false), flight.run("key", () -> "after"));
    }

    @Test
    void cancellingAJoinedFutureLeavesTheCallGoingOn() throws Exception {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> first = flight.submit("key", () -> "value", held::set);
        CompletableFuture<Result<Object>> second = flight.submit("key", () -> "not called");
        CompletableFuture<Result<Object>> third = flight.submit("key", () -> "not called");
        assertTrue(second.cancel(true));
        held.get().run();
        assertEquals(new Result<>("value", true), get(first));
        assertEquals(new Result<>("value", true), get(third));
        assertTrue(second.isCancelled());
    }

    @Test
    void submitRunsTheCallInAVirtualThread() {
        assertEquals(Boolean.TRUE, get(flight.submit("key", () -> Thread.currentThread().isVirtual())).value());
    }

    @Test
    void nullsAreRefused() {
        assertThrows(NullPointerException.class, () -> flight.run(null, () -> 1));
        assertThrows(NullPointerException.class, () -> flight.run("key", null));
        assertThrows(NullPointerException.class, () -> flight.submit(null, () -> 1));
        assertThrows(NullPointerException.class, () -> flight.submit("key", null));
        assertThrows(NullPointerException.class, () -> flight.submit("key", () -> 1, null));
        assertThrows(NullPointerException.class, () -> flight.forget(null));
    }

    @Test
    void toStringCountsTheCallsInFlight() {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> inFlight = flight.submit("key", () -> 1, held::set);
        assertTrue(flight.toString().endsWith("[keys in flight = 1]"), flight::toString);
        held.get().run();
        get(inFlight);
        assertTrue(flight.toString().endsWith("[keys in flight = 0]"), flight::toString);
    }
}
