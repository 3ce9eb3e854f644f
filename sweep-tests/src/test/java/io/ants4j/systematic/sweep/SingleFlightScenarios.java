package io.ants4j.systematic.sweep;

import static io.ants4j.systematic.sweep.Probe.check;
import static io.ants4j.systematic.sweep.Probe.noneOrOutOfMemory;
import static io.ants4j.systematic.sweep.Probe.until;

import io.ants4j.primitives.SingleFlight;
import io.ants4j.primitives.SingleFlight.Result;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The sweep's {@link SingleFlight} scenarios: a call run by the caller, a call completed for a thread that
 * joined it, and a submitted call. After each: no key is left in flight (a call that failed on the exhausted
 * heap is gone, not cached), nobody that joined is left waiting, and a new call for the key runs its function.
 * Each but the completion for a waiting thread must make at least one of its allocations fail
 * ({@link Scenario#failingAnAllocation()}); that one hits its one allocation in most runs, not all.
 */
final class SingleFlightScenarios {
    private static final String KEY = "key";
    private static final Executor PLATFORM_THREAD_PER_CALL = r -> Thread.ofPlatform().daemon(true).start(r);

    private SingleFlightScenarios() {
    }

    /** A SingleFlight, a function that counts its calls, and what the scenario started. */
    static final class FlightState {
        final SingleFlight<String, Object> flight = new SingleFlight<>();
        final AtomicInteger calls = new AtomicInteger();
        final Object value = new Object();
        final Callable<Object> fn = () -> {
            calls.incrementAndGet();
            return value;
        };
        final AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> submitted;
        Probe.Helper waiter;
        volatile Object waiterGot;
        /** The function's InterruptedException, made with memory to spare. */
        final InterruptedException interrupt = new InterruptedException("the function's");
        volatile boolean fnThrewInterrupt;
        volatile boolean interruptedAfterRun;
        CompletableFuture<Result<Object>> joined;
    }

    static List<Scenario<?>> all() {
        return List.of(
                Scenario.of("SingleFlight.run", FlightState::new, f -> f.flight.run(KEY, f.fn), (f, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    flightWorks(f);
                }).failingAnAllocation(),
                // The completion's one allocation is the hand-over's Result; if it fails, the waiting thread is
                // woken all the same and makes its own (or gets the OutOfMemoryError of that), and the completion
                // throws nothing (the class notes)
                Scenario.of("SingleFlight.run (a forgotten call completed for a waiting thread)",
                        SingleFlightScenarios::withWaiter, f -> f.held.get().run(), (f, thrown) -> {
                            check(thrown == null, "the completion threw " + thrown);
                            f.waiter.join();
                            check(f.waiterGot instanceof Result<?> r && r.value() == f.value && !r.shared()
                                            || f.waiterGot instanceof OutOfMemoryError,
                                    "the waiting thread got " + f.waiterGot);
                            flightWorks(f);
                        }), // not marked failingAnAllocation: a collection may still find it memory now and then
                // run's javadoc: "if the function throws InterruptedException, run sets the caller's interrupt
                // status again and throws the ExecutionException, so the interrupt is not lost"; a future
                // joined the call, so the hand-over allocates (the future's failure record)
                Scenario.of("SingleFlight.run (a function that throws InterruptedException, a joined future)",
                        FlightState::new, f -> {
                            try {
                                f.flight.run(KEY, () -> {
                                    f.joined = f.flight.submit(KEY, f.fn, PLATFORM_THREAD_PER_CALL);
                                    f.fnThrewInterrupt = true;
                                    throw f.interrupt;
                                });
                            } catch (ExecutionException e) {
                                if (e.getCause() != f.interrupt) {
                                    throw e;
                                }
                            } finally {
                                f.interruptedAfterRun = Thread.interrupted();
                            }
                        }, (f, thrown) -> {
                            check(!f.fnThrewInterrupt || f.interruptedAfterRun,
                                    "the function threw InterruptedException; run threw " + thrown
                                            + " and the caller's interrupt status is lost");
                            flightWorks(f);
                        }).failingAnAllocation(),
                Scenario.of("SingleFlight.submit", FlightState::new,
                        f -> f.submitted = f.flight.submit(KEY, f.fn, PLATFORM_THREAD_PER_CALL), (f, thrown) -> {
                            noneOrOutOfMemory(thrown);
                            if (f.submitted != null) {
                                awaitDone(f.submitted);
                            }
                            until(() -> "the key leaves: " + f.flight, () -> f.flight.toString().endsWith("= 0]"));
                            flightWorks(f);
                        }).failingAnAllocation());
    }

    /**
     * A call submitted to an executor that holds it, a thread that joined it and waits, then the key forgotten and
     * the submit's future cancelled: the completion's one allocation is then the hand-over's Result, and nothing
     * the completion lets go before it (the forgotten call is unlinked already) can make room for it; a future
     * still waiting would be completed after it, with an error it may have no memory to record (it then stays
     * incomplete, as documented).
     */
    private static FlightState withWaiter() {
        FlightState f = new FlightState();
        f.submitted = f.flight.submit(KEY, f.fn, f.held::set);
        f.waiter = Probe.start("waiter", () -> {
            try {
                f.waiterGot = f.flight.run(KEY, () -> {
                    throw new AssertionError("the waiter ran the function");
                });
            } catch (OutOfMemoryError e) {
                f.waiterGot = e;
            }
        });
        until("the waiter joins the call", () -> LockSupport.getBlocker(f.waiter.thread()) != null);
        f.flight.forget(KEY);
        f.submitted.cancel(false);
        return f;
    }

    private static void awaitDone(CompletableFuture<?> future) throws InterruptedException {
        try {
            future.get(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            check(e.getCause() instanceof OutOfMemoryError, "the submitted call failed with " + e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the submitted call never completed: " + future, e);
        }
    }

    /** No key is in flight, and a call for the key runs its function and returns its value, not shared. */
    private static void flightWorks(FlightState f) throws Exception {
        check(f.flight.toString().endsWith("[keys in flight = 0]"), "at the end: " + f.flight);
        int before = f.calls.get();
        Result<Object> result = f.flight.run(KEY, f.fn);
        check(result.value() == f.value && !result.shared(), "a new call returned " + result);
        check(f.calls.get() == before + 1, "a new call did not run its function");
    }
}
