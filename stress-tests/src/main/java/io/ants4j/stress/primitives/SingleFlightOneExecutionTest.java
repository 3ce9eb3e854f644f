package io.ants4j.stress.primitives;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.primitives.SingleFlight;
import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * SingleFlight.run by two racing callers of one key: either they overlap and share one execution (the same
 * value, both flagged shared), or one comes after the other's call ended and makes a new one (two values,
 * neither shared). Each caller sees the plain writes of the execution whose value it got. The result: the
 * two values, each caller's shared flag (1000) plus the data it saw (42), the number of executions.
 */
@JCStressTest
@Description("SingleFlight: two callers of one key share one execution, or run one each, one after the other.")
@Outcome(id = "1, 1, 1042, 1042, 1", expect = ACCEPTABLE, desc = "The callers overlapped: one execution, shared by both.")
@Outcome(id = {"1, 2, 42, 42, 2", "2, 1, 42, 42, 2"}, expect = ACCEPTABLE,
        desc = "One call ended before the other began: two executions, none shared.")
@Outcome(expect = FORBIDDEN, desc = "Executions, values and shared flags disagree, or a caller missed the execution's writes.")
@State
public class SingleFlightOneExecutionTest {

    final SingleFlight<String, Integer> flight = new SingleFlight<>();
    final AtomicInteger executions = new AtomicInteger();
    int data;

    private final Callable<Integer> fn = () -> {
        data = 42;
        return executions.incrementAndGet();
    };

    private Result<Integer> call() {
        try {
            return flight.run("key", fn);
        } catch (ExecutionException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Actor
    public void actor1(IIIII_Result r) {
        Result<Integer> result = call();
        r.r1 = result.value();
        r.r3 = (result.shared() ? 1000 : 0) + data;
    }

    @Actor
    public void actor2(IIIII_Result r) {
        Result<Integer> result = call();
        r.r2 = result.value();
        r.r4 = (result.shared() ? 1000 : 0) + data;
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r5 = executions.get();
    }
}
