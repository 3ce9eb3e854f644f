package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * submit's javadoc: "Dependent actions added to it without an executor may run in the thread that completes the
 * call: an interrupt status that thread had, or that is set while they run (one of them may leave it set), is kept
 * from the dependents of the other callers' futures and set again when the completion returns; the dependents of one
 * future run one after another, so an interrupt status one of them leaves set reaches the later dependents of the
 * same future." That it is kept from another caller's future's dependents is
 * SingleFlightFuturesTest.anInterruptLeftByOneCallersDependentDoesNotReachTheNextAndIsSetAgainAfterTheCompletion.
 */
class SingleFlightDependentInterruptTest {
    private final SingleFlight<String, Object> flight = new SingleFlight<>();

    @Test
    void anInterruptLeftByOneDependentOfAFutureReachesTheNextDependentOfThatFutureAndIsSetAgain() throws Exception {
        AtomicInteger sawAnInterrupt = new AtomicInteger();
        AtomicReference<CompletableFuture<Void>> dependents = new AtomicReference<>();
        Runnable dependent = () -> { // notes whether the interrupt reached it, then leaves it set
            if (Thread.currentThread().isInterrupted()) {
                sawAnInterrupt.incrementAndGet();
            }
            Thread.currentThread().interrupt();
        };
        Thread.interrupted();
        Result<Object> ran = flight.run("key", () -> {
            CompletableFuture<Result<Object>> joined = flight.submit("key", () -> "not called"); // joins, here
            dependents.set(CompletableFuture.allOf(joined.thenRun(dependent), joined.thenRun(dependent)));
            return "value";
        });
        boolean runnerInterrupted = Thread.interrupted();
        assertEquals(new Result<>("value", true), ran);
        assertTrue(dependents.get().isDone(), "setup: both dependents ran in the completing thread");
        assertTrue(runnerInterrupted, "set again when the completion returns");
        assertEquals(1, sawAnInterrupt.get(),
                "the first dependent ran without the interrupt; the one it left set reached the second dependent of"
                        + " the same future (CompletableFuture runs them in one go)");
    }
}
