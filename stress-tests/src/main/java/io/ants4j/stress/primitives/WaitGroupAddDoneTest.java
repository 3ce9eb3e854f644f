package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
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
 * WaitGroup: concurrent add/done keep the counter exact (one atomic add each, no lost update, no
 * misuse exception when nobody waits); the group then drains to zero and is reusable.
 */
@JCStressTest
@Description("WaitGroup: concurrent add() and done() keep the count exact.")
@Outcome(id = "4, 1", expect = ACCEPTABLE, desc = "Count exact (1 + 2 - 1 + 3 - 1 = 4), drains to zero, reusable.")
@Outcome(expect = FORBIDDEN, desc = "Lost or duplicated update, spurious exception, or corrupt afterwards.")
@State
public class WaitGroupAddDoneTest {

    final WaitGroup wg = new WaitGroup();
    volatile boolean failed;

    public WaitGroupAddDoneTest() {
        wg.add(1);
    }

    @Actor
    public void actor1() {
        try {
            wg.add(2);
            wg.done();
        } catch (RuntimeException e) {
            failed = true;
        }
    }

    @Actor
    public void actor2() {
        try {
            wg.add(3);
            wg.done();
        } catch (RuntimeException e) {
            failed = true;
        }
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = failed ? -1 : wg.count();
        try {
            for (int i = 0; i < 4; i++) {
                wg.done();
            }
            r.r2 = WaitGroups.reusable(wg) ? 1 : 0;
        } catch (RuntimeException e) {
            r.r2 = 0;
        }
    }
}
