package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WaitGroup: the done() that brings the counter to zero releases every waiter, each seeing the
 * write before it. Two actors wait; the worker is a virtual thread the first waiter starts just
 * before it waits (jcstress runs at most one actor per CPU), so done() races with both waits.
 */
@JCStressTest
@Description("WaitGroup: two waiters are both released by the last done() and both see its writes.")
@Outcome(id = "1, 1, 1, 1, 1", expect = ACCEPTABLE, desc = "Both waiters released, both saw the write.")
@Outcome(expect = FORBIDDEN, desc = "A waiter was not released (timed out) or missed the write.")
@State
public class WaitGroupTwoWaitersTest {

    final WaitGroup wg = new WaitGroup();
    int x;
    Thread worker;

    public WaitGroupTwoWaitersTest() {
        wg.add(1);
    }

    @Actor
    public void waiter1(IIIII_Result r) {
        worker = Helper.start(() -> {
            x = 1;
            wg.done();
        });
        r.r1 = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
        r.r2 = x;
    }

    @Actor
    public void waiter2(IIIII_Result r) {
        r.r3 = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
        r.r4 = x;
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        r.r5 = Helper.join(worker) ? 1 : 0;
    }
}
