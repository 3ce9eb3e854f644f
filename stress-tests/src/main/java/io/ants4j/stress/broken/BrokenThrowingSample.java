package io.ants4j.stress.broken;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;

/**
 * A DELIBERATELY BROKEN sample: its actor throws, which jcstress reports as an ERROR (not a
 * FORBIDDEN outcome). Shows that an erroring test also makes the run exit non-zero. Never part of
 * the default selection; run it with {@code stress-tests/run.sh broken}.
 */
@JCStressTest
@Description("BROKEN ON PURPOSE: the actor throws; must be reported as an ERROR.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "Unreachable: the actor always throws.")
@State
public class BrokenThrowingSample {

    @Actor
    public void actor(I_Result r) {
        throw new IllegalStateException("thrown on purpose by a broken sample");
    }
}
