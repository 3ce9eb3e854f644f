package io.ants4j.stress.pool;

import io.ants4j.pool.MultiPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * tune(2) racing with release() followed by tune(3) on a multi-pool of parts of capacity 1: the transitions
 * are atomic with respect to each other, so the multi-pool ends closed with every part at the capacity of
 * whichever tune came last. Never parts of different capacities (two tune walks crossing).
 */
@JCStressTest
@Description("MultiPool: tune() racing with release() and tune() leaves every part the same capacity.")
@Outcome(id = "1, 3, 3", expect = ACCEPTABLE, desc = "tune(2), then release and tune(3): closed, every part at 3.")
@Outcome(id = "1, 2, 2", expect = ACCEPTABLE_INTERESTING, desc = "tune(3), then tune(2): closed, every part at 2.")
@Outcome(id = "1, 2, 3", expect = FORBIDDEN, desc = "The parts have different capacities.")
@Outcome(id = "1, 3, 2", expect = FORBIDDEN, desc = "The parts have different capacities.")
@Outcome(expect = FORBIDDEN, desc = "Not closed, or a capacity that no tune set.")
@State
public class MultiPoolReleaseRacingTuneTest {

    final MultiPool mp = MultiPools.perSample();

    @Actor
    public void tuner() {
        mp.tune(2);
    }

    @Actor
    public void releaserThenTuner() {
        mp.release();
        mp.tune(3);
    }

    /** r1: 1 closed; r2, r3: free slots of parts 0 and 1, which are their capacities (no worker ever ran). */
    @Arbiter
    public void arbiter(III_Result r) {
        r.r1 = mp.isClosed() ? 1 : 0;
        r.r2 = mp.free(0);
        r.r3 = mp.free(1);
    }
}
