package io.ants4j.stress.primitives;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.primitives.SingleFlight;
import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A submit (run inline) racing a run of one key whose completion removes the key and publishes with a read and a
 * release store (no atomic exchange: the implementation notes argue no join can follow the removal). Whoever
 * joined is given the outcome: once both actors returned, the submit's future is done, with the value of the
 * call it joined or of its own, and the shared flags agree. A join the completion missed leaves the future
 * incomplete (r2 = -1). r1, r2: value * 10 + shared; r3: the plain write of the execution the submit got,
 * seen through its future.
 */
@JCStressTest
@Description("SingleFlight: a submit racing a run's completion joins it (and is given its outcome) or makes a new call.")
@Outcome(id = "11, 11, 1", expect = ACCEPTABLE, desc = "The submit joined the run's call.")
@Outcome(id = "21, 21, 2", expect = ACCEPTABLE, desc = "The run joined the submit's call.")
@Outcome(id = {"10, 20, 2"}, expect = ACCEPTABLE, desc = "One call after the other, none shared.")
@Outcome(expect = FORBIDDEN, desc = "A join lost (future not done), flags or values disagree, or the write unseen.")
@State
public class SingleFlightSubmitJoinRacingCompletionTest {
    final SingleFlight<String, Integer> flight = new SingleFlight<>();
    int data1;
    int data2;
    CompletableFuture<Result<Integer>> submitted;

    @Actor
    public void runner(III_Result r) {
        try {
            Result<Integer> result = flight.run("key", () -> {
                data1 = 1;
                return 1;
            });
            r.r1 = result.value() * 10 + (result.shared() ? 1 : 0);
        } catch (ExecutionException | InterruptedException e) {
            r.r1 = -2;
        }
    }

    @Actor
    public void submitter(III_Result r) {
        submitted = flight.submit("key", () -> {
            data2 = 2;
            return 2;
        }, Runnable::run);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        CompletableFuture<Result<Integer>> future = submitted;
        if (!future.isDone()) {
            r.r2 = -1;
            return;
        }
        Result<Integer> result = future.join();
        r.r2 = result.value() * 10 + (result.shared() ? 1 : 0);
        r.r3 = result.value() == 1 ? data1 : data2;
    }
}
