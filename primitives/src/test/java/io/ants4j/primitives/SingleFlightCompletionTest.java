package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.TIMEOUT;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * What the completion of a {@link SingleFlight} call keeps for the thread that runs it (an interrupt sent to it
 * while the completion runs is kept), and how a submit whose executor throws after the call ran counts.
 */
class SingleFlightCompletionTest {
    private final SingleFlight<String, Object> flight = new SingleFlight<>();

    /** Parks (without touching the interrupt status) until {@code flag} is set, at most {@link Threads#TIMEOUT}. */
    private static void parkUntil(AtomicBoolean flag) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!flag.get() && System.nanoTime() - deadline < 0L) {
            LockSupport.parkNanos(1_000_000L);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Class javadoc: "The caller that runs the function waits for nothing: its interrupt is the function's to
    // handle, as in any method"; submit: an interrupt status "that is set while they run ... is kept from the
    // next one and set again when the completion returns". An interrupt another thread sends to the runner
    // after its function returned and before run returns (a pool's shutdownNow, a cancel(true) of the task
    // calling run) stays set when run returns. The window is held open by a dependent of a joined future and,
    // in the second test, with no future at all, by the key's equals called by the map's remove.
    // ---------------------------------------------------------------------------------------------

    @Test
    void anInterruptSentToTheRunnerWhileTheCompletionRunsADependentIsKept() throws Exception {
        CountDownLatch inDependent = new CountDownLatch(1);
        AtomicBoolean sent = new AtomicBoolean();
        Threads.Task<Boolean> runner = start(() -> {
            Result<Object> ran = flight.run("key", () -> {
                CompletableFuture<Result<Object>> joined = flight.submit("key", () -> "not called");
                joined.thenRun(() -> { // another caller's dependent: it leaves the interrupt status alone
                    inDependent.countDown();
                    parkUntil(sent);
                });
                return "value";
            });
            assertEquals(new Result<>("value", true), ran);
            return Thread.currentThread().isInterrupted();
        });
        assertTrue(inDependent.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        runner.thread().interrupt(); // the runner's own interrupt, after its function returned
        sent.set(true);
        assertTrue(get(runner), "run returned normally and the interrupt sent to its thread during the call was lost");
    }

    @Test
    void aSubmitWhoseExecutorRanTheCallAndThenThrewCountsAsWaiting() throws Exception {
        submitWhoseExecutorThrowsOnceTheCallRan((task, waiter) -> task.run());
    }

    /** The same on another thread: the executor's thread runs the call to its end before the executor throws. */
    @Test
    void aSubmitWhoseExecutorThrewAfterTheCallEndedOnItsThreadCountsAsWaiting() throws Exception {
        // e.g. a ThreadPoolExecutor that queued the task, which a worker ran, then failed to add a worker
        submitWhoseExecutorThrowsOnceTheCallRan((task, waiter) -> {
            Thread.ofPlatform().daemon(true).start(task);
            Threads.until("the call ends", () -> waiter.get() != null && waiter.get().result().isDone());
        });
    }

    /**
     * A submit whose executor runs the call with {@code runsTheCall} (a {@code run} caller joins it meanwhile) and
     * then throws: submit throws that, and the joined caller is told the value was shared.
     */
    private void submitWhoseExecutorThrowsOnceTheCallRan(
            BiConsumer<Runnable, AtomicReference<Threads.Task<Result<Object>>>> runsTheCall) throws Exception {
        RejectedExecutionException refusal = new RejectedExecutionException("thrown after the task ran the call");
        AtomicReference<Threads.Task<Result<Object>>> waiter = new AtomicReference<>();
        try {
            flight.submit("key", () -> {
                waiter.set(start(() -> flight.run("key", () -> "not called")));
                SingleFlightTest.untilJoined(waiter.get().thread());
                return "value";
            }, task -> {
                runsTheCall.accept(task, waiter);
                throw refusal;
            });
            fail("submit returned though its executor threw");
        } catch (RejectedExecutionException e) {
            assertSame(refusal, e);
        }
        assertEquals(new Result<>("value", true), get(waiter.get()),
                "the submitter, thrown at after the call completed, counted as waiting then");
    }
}
