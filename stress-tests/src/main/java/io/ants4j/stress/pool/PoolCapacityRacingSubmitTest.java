package io.ants4j.stress.pool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * running() never exceeds cap() while several submitters start workers at once (ants' bug #374:
 * the new worker must be counted under the pool lock). A fresh pool of capacity 1, two submitters
 * with two tasks each; every task runs.
 */
@JCStressTest
@Description("Pool: concurrent submitters on a fresh pool of 1 never make running() exceed 1.")
@Outcome(id = "1, 4", expect = ACCEPTABLE, desc = "running() stayed at most 1; all four tasks ran.")
@Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "running() exceeded the capacity.")
@Outcome(expect = FORBIDDEN, desc = "A task was lost or rejected, or no worker ever ran.")
@State
public class PoolCapacityRacingSubmitTest {

    final CapacityProbe probe = new CapacityProbe(Pools.perSample(1), 4);

    @Actor
    public void submitter1() {
        probe.submit();
        probe.submit();
    }

    @Actor
    public void submitter2() {
        probe.submit();
        probe.submit();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = probe.finish();
        r.r1 = probe.maxRunning.get();
    }
}
