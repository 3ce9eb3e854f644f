package io.ants4j.stress.broken;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A DELIBERATELY BROKEN sample that proves the harness can fail: a plain {@code int} counter
 * incremented by two threads without any synchronization, while the outcomes claim the increment
 * is atomic. jcstress observes the lost update ({@code 1}) within seconds, and because that
 * outcome is declared {@code FORBIDDEN} the run exits non-zero.
 *
 * <p>It lives in its own package {@code io.ants4j.stress.broken}, which {@code run.sh quick} and
 * {@code run.sh full} never select. Run it on purpose with {@code stress-tests/run.sh broken}.
 */
@JCStressTest
@Description("BROKEN ON PURPOSE: a plain-field counter claimed atomic; must be reported as FAILED.")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "Both increments counted.")
@Outcome(id = "1", expect = FORBIDDEN, desc = "Lost update: the plain counter is not atomic (expected to be seen).")
@State
public class BrokenCounterSample {

    int counter;

    @Actor
    public void actor1() {
        counter++;
    }

    @Actor
    public void actor2() {
        counter++;
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = counter;
    }
}
