package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WaitGroup: a waiter whose very short timeout expires while the last done() of its round runs,
 * immediately followed by the next round's add(1), leaves without touching the next round: the
 * counter is 1 afterwards with no waiter, an await of the next round does not return while its
 * task runs, and that task's done() brings the group back to zero. The worker starts the race
 * once the waiter has registered (its timeout has then nearly or already expired), so the
 * waiter's leaving meets the release and the next add.
 */
@JCStressTest
@Description("WaitGroup: timed-out waiter vs last done() + next round's add(1): the next round is untouched.")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "Waiter released by done(); next round intact.")
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "Waiter timed out first; next round intact.")
@Outcome(id = "3, .*, .*, .*", expect = FORBIDDEN, desc = "The waiter threw (e.g. a reuse it took for misuse).")
@Outcome(id = ".*, .*, 1, .*", expect = FORBIDDEN, desc = "An await of the next round returned while its task still runs.")
@Outcome(expect = FORBIDDEN, desc = "Corrupt word: wrong count or waiters, the next task's done() threw, or not reusable.")
@State
public class WaitGroupTimedOutWaiterNextRoundTest {

    /** Shorter than the waiter's spin before it registers, so it usually times out on arrival. */
    static final long SHORT_NANOS = 1_000;

    final WaitGroup wg = new WaitGroup();
    volatile boolean waiterReturned;

    public WaitGroupTimedOutWaiterNextRoundTest() {
        wg.add(1);
    }

    @Actor
    public void worker() {
        // Busy-polls rather than yields: the waiter's leaving is a few hundred nanoseconds away.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Spin.PATIENCE_SECONDS);
        while (!waiterReturned && !wg.toString().endsWith("waiters=1]") && System.nanoTime() - deadline < 0L) {
            Thread.onSpinWait();
        }
        wg.done();
        wg.add(1);
    }

    @Actor
    public void shortWaiter(IIII_Result r) {
        try {
            r.r1 = WaitGroups.await(wg, SHORT_NANOS, TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
            r.r1 = 3;
        }
        waiterReturned = true;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r2 = wg.toString().endsWith("[count=1, waiters=0]") ? 1 : 0;
        try {
            r.r3 = wg.await(0, TimeUnit.NANOSECONDS) ? 1 : 0;
            wg.done();
            r.r4 = WaitGroups.reusable(wg) ? 1 : 0;
        } catch (InterruptedException | RuntimeException e) {
            r.r4 = 0;
        }
    }
}
