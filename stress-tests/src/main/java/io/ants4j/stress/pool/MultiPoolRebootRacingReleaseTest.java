package io.ants4j.stress.pool;

import io.ants4j.pool.MultiPool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * reboot() racing with release() on a closed multi-pool: the multi-pool ends either open (the release came
 * first and found it closed) with every part open, or closed again (the release came after the reboot) with
 * every part closed, so that it terminates. Never closed with an open part, where isTerminated() is never
 * true, release() does nothing and close() waits forever.
 */
@JCStressTest
@Description("MultiPool: reboot() racing with release() never leaves a closed multi-pool with an open part.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The release came first (a no-op): open, every part accepts.")
@Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "The release came after the reboot: closed, terminated at once.")
@Outcome(id = "0, [12]", expect = FORBIDDEN, desc = "Open, but a part is closed: execute() throws PoolClosedException.")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Closed with no worker, but termination reported late.")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "Closed, but never terminates: a part is still open.")
@Outcome(expect = FORBIDDEN, desc = "Any other exception.")
@State
public class MultiPoolRebootRacingReleaseTest {

    final MultiPool mp = MultiPools.perSample();

    public MultiPoolRebootRacingReleaseTest() {
        mp.release();
    }

    @Actor
    public void rebooter() {
        mp.reboot();
    }

    @Actor
    public void releaser() {
        mp.release();
    }

    /** r1: 1 closed, 0 open; r2: parts rejecting a task if open, {@link MultiPools#termination} if closed. */
    @Arbiter
    public void arbiter(II_Result r) {
        boolean closed = mp.isClosed();
        r.r1 = closed ? 1 : 0;
        r.r2 = closed ? MultiPools.termination(mp) : MultiPools.closedParts(mp);
        mp.release();
    }
}
