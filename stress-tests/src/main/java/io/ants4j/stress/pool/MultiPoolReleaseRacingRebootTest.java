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
 * release() racing with reboot() on an open multi-pool: the two transitions are atomic with respect to each
 * other, so the multi-pool ends either closed (the reboot came first and found it open) with every part
 * closed, or open again (the reboot came after the release) with every part open. Never open with a closed
 * part, where execute() throws PoolClosedException from an open pool.
 */
@JCStressTest
@Description("MultiPool: release() racing with reboot() never leaves an open multi-pool with a closed part.")
@Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING, desc = "The reboot came after the release: open, every part accepts.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The reboot came first (a no-op): closed, and terminated at once.")
@Outcome(id = "0, [12]", expect = FORBIDDEN, desc = "Open, but a part is closed: execute() throws PoolClosedException.")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "Closed with no worker, but termination reported late.")
@Outcome(id = "1, 2", expect = FORBIDDEN, desc = "Closed, but never terminates: a part is still open.")
@Outcome(expect = FORBIDDEN, desc = "Any other exception.")
@State
public class MultiPoolReleaseRacingRebootTest {

    final MultiPool mp = MultiPools.perSample();

    @Actor
    public void releaser() {
        mp.release();
    }

    @Actor
    public void rebooter() {
        mp.reboot();
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
