package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WaitGroup: await() never returns while the counter is above 0. The counter starts at 2; the
 * worker writes a, calls done() (counter 1), writes b, calls done() (counter 0). The waiter must
 * never come back having seen only the first half: b must be visible and the count zero.
 */
@JCStressTest
@Description("WaitGroup: await() does not return while the counter is above zero.")
@Outcome(id = "1, 1, 0, 1", expect = ACCEPTABLE, desc = "await returned after the second done().")
@Outcome(id = ".*, .*, .*, 0", expect = FORBIDDEN, desc = "await timed out: the last done() did not wake it.")
@Outcome(expect = FORBIDDEN, desc = "await returned while the counter was still 1.")
@State
public class WaitGroupAwaitNotEarlyTest {

    final WaitGroup wg = new WaitGroup();
    int a;
    int b;

    public WaitGroupAwaitNotEarlyTest() {
        wg.add(2);
    }

    @Actor
    public void worker() {
        a = 1;
        wg.done();
        b = 1;
        wg.done();
    }

    @Actor
    public void waiter(IIII_Result r) {
        int released = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
        r.r1 = a;
        r.r2 = b;
        r.r3 = wg.count();
        r.r4 = released;
    }
}
