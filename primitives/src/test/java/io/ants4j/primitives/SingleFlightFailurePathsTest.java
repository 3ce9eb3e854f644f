package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.TIMEOUT;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static io.ants4j.primitives.Threads.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** SingleFlight under failures and races its unit tests leave out: cancelled takers, throwing executors, the stack limit, interrupts through a failing completion. */
class SingleFlightFailurePathsTest {
    private final SingleFlight<String, Object> flight = new SingleFlight<>();

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "latch not opened in time");
    }

    // ---------------------------------------------------------------------------------------------
    // shared: "whether the value was given to more than one caller"; "Cancelling a future of submit
    // stops that caller's wait only, as an interrupt does"; "the value counts as given to it only if
    // it took it". A submit whose future was cancelled took nothing: a single taker is not shared.
    // ---------------------------------------------------------------------------------------------

    /** The submit that started the call cancelled its future; one run joined: the value went to one caller. */
    @Test
    void aWaiterIsTheOnlyTakerWhenTheStartersFutureWasCancelled() throws Exception {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> starter = flight.submit("key", () -> "value", held::set);
        assertTrue(starter.cancel(true));
        Threads.Task<Result<Object>> waiter = start(() -> flight.run("key", () -> "not called"));
        SingleFlightTest.untilJoined(waiter.thread());
        held.get().run();
        assertEquals(new Result<>("value", false), get(waiter),
                "the value went to the waiter alone (the starter's future was cancelled)");
    }

    /** The submit that started the call cancelled its future; one submit joined: its future is the only taker. */
    @Test
    void aJoinedFutureIsTheOnlyTakerWhenTheStartersFutureWasCancelled() {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> starter = flight.submit("key", () -> "value", held::set);
        CompletableFuture<Result<Object>> joined = flight.submit("key", () -> "not called");
        assertTrue(starter.cancel(true));
        held.get().run();
        assertEquals(new Result<>("value", false), get(joined),
                "the value went to the joined future alone (the starter's future was cancelled)");
    }

    /** Passes: the run that ran the function is told "not shared" when its only joiner cancelled. */
    @Test
    void theRunnerIsNotSharedWhenItsOnlyJoinedFutureWasCancelled() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Threads.Task<Result<Object>> runner = start(() -> flight.run("key", () -> {
            running.countDown();
            await(release);
            return "value";
        }));
        await(running);
        CompletableFuture<Result<Object>> joined = flight.submit("key", () -> "not called");
        assertTrue(joined.cancel(true));
        release.countDown();
        assertEquals(new Result<>("value", false), get(runner));
    }

    // ---------------------------------------------------------------------------------------------
    // A throwing executor. Javadoc of submit(key, fn, executor): "If executor throws instead of
    // accepting the call, the call completes with that throwable as its failure ..., its key is
    // removed, and this method throws it." Class javadoc: "Every caller of a call is given the same
    // outcome"; run/submit: "fn ... called only if no call for key is in flight".
    // ---------------------------------------------------------------------------------------------

    /**
     * An executor that runs the task in the caller (as a caller-runs fallback does) and then throws: the call
     * is completed twice, and submit throws an internal ClassCastException instead of the executor's throwable.
     */
    @Test
    void anExecutorThatRanTheCallAndThenThrowsHasItsThrowableRethrown() {
        RejectedExecutionException thrown = new RejectedExecutionException("after running the task");
        Executor runsThenThrows = task -> {
            task.run();
            throw thrown;
        };
        Throwable t = assertThrows(Throwable.class, () -> flight.submit("key", () -> "value", runsThenThrows));
        assertSame(thrown, t, () -> "submit threw " + t);
    }

    /**
     * A ThreadPoolExecutor with no worker queues the task, then its ThreadFactory fails (as on
     * "unable to create native thread"): execute throws with the task queued. SingleFlight fails the call
     * and frees the key, but the queued function still runs later, while a newer call for the key is in
     * flight: two executions of the key's function at once, and no forget.
     */
    @Test
    void aCallFailedByItsExecutorDoesNotRunItsFunctionBesideANewerCall() throws Exception {
        AtomicInteger threadsMade = new AtomicInteger();
        RuntimeException factoryFailure = new IllegalStateException("unable to create a thread");
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), r -> {
            if (threadsMade.getAndIncrement() == 0) {
                throw factoryFailure;
            }
            Thread t = new Thread(r, "pool-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            AtomicInteger running = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            CountDownLatch newerRunning = new CountDownLatch(1);
            CountDownLatch staleDone = new CountDownLatch(1);
            assertSame(factoryFailure, assertThrows(IllegalStateException.class, () -> flight.submit("key", () -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                running.decrementAndGet();
                staleDone.countDown();
                return "stale";
            }, pool)));
            Threads.Task<Result<Object>> newer = start(() -> flight.run("key", () -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                newerRunning.countDown();
                // the pool gets a worker now and runs what it queued
                pool.execute(() -> { });
                // negative wait: with the defect the stale function, queued first, runs on the worker just
                // started, within milliseconds (a thread's start): 1 s is ample
                staleDone.await(1, TimeUnit.SECONDS);
                running.decrementAndGet();
                return "newer";
            }));
            await(newerRunning);
            assertEquals(new Result<>("newer", false), get(newer));
            assertEquals(1, mostAtOnce.get(), "functions of the key running at once");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The task such an executor kept, run after its call failed: it completes the failed call a second time
     * (overwriting the outcome the callers read) and throws an internal ClassCastException in the worker.
     */
    @Test
    void aTaskKeptByAFailedExecutorThrowsNothingWhenItRunsLater() throws Exception {
        AtomicReference<Runnable> queued = new AtomicReference<>();
        RejectedExecutionException refusal = new RejectedExecutionException("queued, then failed");
        Executor queuesThenThrows = task -> {
            queued.set(task);
            throw refusal;
        };
        assertThrows(RejectedExecutionException.class, () -> flight.submit("key", () -> "late value", queuesThenThrows));
        // the task the executor kept runs later (a pool worker picks it up): it must neither throw
        // an internal error nor run the function of a call that has already failed
        AtomicReference<Throwable> thrownByTask = new AtomicReference<>();
        try {
            queued.get().run();
        } catch (Throwable t) {
            thrownByTask.set(t);
        }
        assertEquals(null, thrownByTask.get(), "the late task threw");
    }

    /**
     * "Every caller of a call is given the same outcome." The executor runs the call in the caller, then
     * throws: the second completion overwrites the outcome after the first one handed it over. A waiter
     * (a virtual thread, kept off a carrier until then by spinning virtual threads) that reads the outcome
     * late is given the executor's throwable, while the starter's future holds the function's value.
     */
    @Test
    void aWaiterThatReadsLateIsGivenTheSameOutcomeAsTheStarter() throws Exception {
        CountDownLatch executing = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        Executor runsThenThrows = task -> {
            executing.countDown();
            try {
                proceed.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            task.run();
            throw new RejectedExecutionException("after running the task");
        };
        Threads.Task<CompletableFuture<Result<Object>>> starter =
                start(() -> flight.submit("key", () -> "value", runsThenThrows));
        await(executing);
        Threads.Task<Result<Object>> waiter = start(Thread.ofVirtual(), () -> flight.run("key", () -> "not called"));
        SingleFlightTest.untilJoined(waiter.thread());
        int carriers = Runtime.getRuntime().availableProcessors();
        CountDownLatch spinning = new CountDownLatch(carriers);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread[] spinners = new Thread[carriers];
        try {
            // every carrier taken: the waiter, once woken, reads the outcome only after the spinners stop
            for (int i = 0; i < carriers; i++) {
                spinners[i] = Thread.ofVirtual().start(() -> {
                    spinning.countDown();
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                });
            }
            await(spinning);
            proceed.countDown();
            Threads.join(starter.thread());
        } finally {
            stop.set(true);
            for (Thread s : spinners) {
                if (s != null) {
                    Threads.join(s);
                }
            }
        }
        Object given;
        try {
            given = waiter.result().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            given = e.getCause();
        }
        assertEquals(new Result<>("value", true), given,
                "the waiter's outcome (the function returned \"value\"); submit gave " + starter.result());
    }

    // ---------------------------------------------------------------------------------------------
    // run's javadoc: "if the function throws InterruptedException, run sets the caller's interrupt status
    // again and throws the ExecutionException, so the interrupt is not lost". run sets it only after the
    // completion returned: a completion that throws (an OutOfMemoryError in the hand-over, which the sweep
    // does not reach; here, deterministically, a key whose hashCode fails once, in the completion's
    // remove) loses the function's interrupt.
    // ---------------------------------------------------------------------------------------------

    /** A key whose second hashCode throws (the first is put's, the second the completion's remove). */
    private static final class FailsOnSecondHash {
        private final AtomicInteger hashes = new AtomicInteger();

        @Override
        public int hashCode() {
            if (hashes.incrementAndGet() == 2) {
                throw new IllegalStateException("hashCode failed");
            }
            return 1;
        }
    }

    @Test
    void theFunctionsInterruptIsNotLostWhenTheCompletionThrows() {
        SingleFlight<Object, Object> keyed = new SingleFlight<>();
        Throwable thrown;
        try {
            keyed.run(new FailsOnSecondHash(), () -> {
                throw new InterruptedException("the function's");
            });
            thrown = null;
        } catch (Throwable t) {
            thrown = t;
        }
        boolean interrupted = Thread.interrupted();
        assertTrue(interrupted, "the function threw InterruptedException; run threw " + thrown
                + " and the caller's interrupt status is lost");
    }

    // ---------------------------------------------------------------------------------------------
    // StackOverflowError. Class javadoc: "A call is in flight from the moment its caller registers the
    // key ... until its function has returned or thrown. Then the key is removed". A run made with the
    // stack nearly full, whose function returns: at some depth the function returns but the completion
    // overflows. The README's "Failures" says an overflow inside a primitive's own code may leave its
    // change in place (StackOverflowLimitTest, disabled); here the change is a key in flight for ever:
    // every later caller of that key joins a call that never completes.
    // ---------------------------------------------------------------------------------------------

    /** Warms {@code deep} up, makes {@code attempt} at every depth near the stack limit, returns the keys left in flight. */
    private static java.util.List<Integer> keysInFlightAfterAttemptsNearTheStackLimit(SingleFlight<Integer, Object> deep,
            java.util.function.IntConsumer attempt) throws Exception {
        for (int i = 0; i < 3; i++) {
            deep.run(-1, () -> "warm-up");
            get(deep.submit(-1, () -> "warm-up", Runnable::run));
        }
        assertTrue(StackLimit.atEveryDepth(attempt) > 0, "no attempt overflowed: the test proves nothing");
        java.util.List<Integer> stuck = new java.util.ArrayList<>();
        for (int k = 0; k < StackLimit.DEPTHS; k++) {
            CompletableFuture<Result<Object>> later = deep.submit(k, () -> "later", Runnable::run);
            if (!later.isDone()) {
                stuck.add(k);
            }
        }
        return stuck;
    }

    @Test
    void aRunNearTheStackLimitLeavesNoKeyInFlightForEver() throws Exception {
        SingleFlight<Integer, Object> deep = new SingleFlight<>();
        java.util.List<Integer> stuck = keysInFlightAfterAttemptsNearTheStackLimit(deep, k -> {
            try {
                deep.run(k, () -> "value");
            } catch (ExecutionException | InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(java.util.List.of(), stuck, "keys whose later calls join a call that never completes; " + deep);
    }

    @Test
    void aSubmitNearTheStackLimitLeavesNoKeyInFlightForEver() throws Exception {
        SingleFlight<Integer, Object> deep = new SingleFlight<>();
        AtomicInteger internalErrors = new AtomicInteger();
        java.util.List<Integer> stuck = keysInFlightAfterAttemptsNearTheStackLimit(deep, k -> {
            try {
                deep.submit(k, () -> "value", Runnable::run);
            } catch (ClassCastException e) {
                internalErrors.incrementAndGet();
            }
        });
        assertEquals(0, internalErrors.get(), "submits that threw ClassCastException");
        assertEquals(java.util.List.of(), stuck, "keys whose later calls join a call that never completes; " + deep);
    }

    // ---------------------------------------------------------------------------------------------
    // Passing checks of claims the unit tests do not cover.
    // ---------------------------------------------------------------------------------------------

    /** Recursion detection: a run for the key from a thread the function waits for is a join, not an error. */
    @Test
    void aRunForTheKeyFromAnotherThreadOfTheFunctionJoins() throws Exception {
        AtomicReference<Threads.Task<Result<Object>>> inner = new AtomicReference<>();
        Result<Object> outer = flight.run("key", () -> {
            inner.set(start(() -> flight.run("key", () -> "not called")));
            SingleFlightTest.untilJoined(inner.get().thread());
            return "value";
        });
        assertEquals(new Result<>("value", true), outer);
        assertEquals(new Result<>("value", true), get(inner.get()));
    }

    /** A run for the key after a forget, from inside its function, is a new call, not an error. */
    @Test
    void aRunFromInsideItsFunctionAfterForgetIsANewCall() throws Exception {
        Result<Object> outer = flight.run("key", () -> {
            flight.forget("key");
            return flight.run("key", () -> "inner").value();
        });
        assertEquals(new Result<>("inner", false), outer);
    }

    /** A blocking dependent of one joined future does not keep a waiting thread from its outcome. */
    @Test
    void aBlockingDependentDoesNotDelayWaitingThreads() throws Exception {
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> starter = flight.submit("key", () -> "value", held::set);
        CountDownLatch unblock = new CountDownLatch(1);
        flight.submit("key", () -> "not called").thenRun(() -> {
            try {
                unblock.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Threads.Task<Result<Object>> waiter = start(() -> flight.run("key", () -> "not called"));
        SingleFlightTest.untilJoined(waiter.thread());
        Thread completing = Thread.ofPlatform().daemon(true).start(held.get());
        try {
            assertEquals(new Result<>("value", true), get(waiter));
            assertFalse(starter.isDone(), "the starter's future is completed after the joined ones");
        } finally {
            unblock.countDown();
            Threads.join(completing);
        }
        assertEquals(new Result<>("value", true), get(starter));
    }
}
