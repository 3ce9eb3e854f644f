package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** WaitGroup: plain writes before done() are visible once await() returns. */
@JCStressTest
@Description("WaitGroup: writes before done() happen-before the return of await().")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "await returned after done and saw both writes.")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "await timed out: done() did not wake the waiter.")
@Outcome(expect = FORBIDDEN, desc = "await returned but a write before done() is not visible.")
@State
public class WaitGroupDoneAwaitVisibilityTest {

    final WaitGroup wg = new WaitGroup();
    int x;
    int y;

    public WaitGroupDoneAwaitVisibilityTest() {
        wg.add(1);
    }

    @Actor
    public void worker() {
        x = 1;
        y = 2;
        wg.done();
    }

    @Actor
    public void waiter(III_Result r) {
        int released = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
        r.r1 = x;
        r.r2 = y;
        r.r3 = released;
    }
}
