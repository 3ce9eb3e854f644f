package io.ants4j.stress.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * tune() shrinking the pool from 2 to 1 while submitters race: running() may stay above the new
 * capacity while surplus workers finish, but never exceeds the larger capacity (2); the new
 * capacity holds afterwards and every task runs.
 */
@JCStressTest
@Description("Pool: tune(2 -> 1) racing with submitters never lets running() exceed 2; no task lost.")
@Outcome(id = {"1, 1, 3", "2, 1, 3"}, expect = ACCEPTABLE, desc = "running() stayed within 2; cap() is 1; all three tasks ran.")
@Outcome(id = "[3-9], .*", expect = FORBIDDEN, desc = "running() exceeded the larger capacity.")
@Outcome(expect = FORBIDDEN, desc = "Wrong capacity afterwards, or a task lost or rejected.")
@State
public class PoolTuneDownRacingSubmitTest {

    final CapacityProbe probe = new CapacityProbe(Pools.perSample(2), 3);

    @Actor
    public void tuner() {
        probe.pool.tune(1);
        probe.submit();
    }

    @Actor
    public void submitter() {
        probe.submit();
        probe.submit();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = probe.pool.cap();
        r.r3 = probe.finish();
        r.r1 = probe.maxRunning.get();
    }
}
