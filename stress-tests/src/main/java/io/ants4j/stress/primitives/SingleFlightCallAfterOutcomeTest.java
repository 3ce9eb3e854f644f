package io.ants4j.stress.primitives;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.primitives.SingleFlight;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * SingleFlight: the key goes before any caller has the outcome, so a caller that calls again at once,
 * racing another caller of the key, makes a new call: its second value is a later execution than its first,
 * whatever the other caller joined. The result: the again caller's two values, the other caller's value.
 */
@JCStressTest
@Description("SingleFlight: a call made after the caller had an outcome is a new execution.")
@Outcome(id = {"1, 2, 1", "1, 2, 2", "1, 2, 3", "1, 3, 2", "2, 3, 1"}, expect = ACCEPTABLE,
        desc = "The second call was a new execution; every execution's value reached a caller.")
@Outcome(expect = FORBIDDEN, desc = "A call after an outcome joined the execution that gave it, or a value was lost.")
@State
public class SingleFlightCallAfterOutcomeTest {

    final SingleFlight<String, Integer> flight = new SingleFlight<>();
    final AtomicInteger executions = new AtomicInteger();
    private final Callable<Integer> fn = executions::incrementAndGet;

    private int call() {
        try {
            return flight.run("key", fn).value();
        } catch (ExecutionException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void again(III_Result r) {
        r.r1 = call();
        r.r2 = call();
    }

    @Actor
    public void other(III_Result r) {
        r.r3 = call();
    }
}
