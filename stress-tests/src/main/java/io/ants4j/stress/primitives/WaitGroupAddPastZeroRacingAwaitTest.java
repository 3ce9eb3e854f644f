package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WaitGroup: a done() on a zero counter is rejected without touching the group, so a thread that
 * reads the counter or awaits at the same time sees the counter at zero: it never reads -1, and
 * its await returns at once instead of registering on a counter that was never really non-zero
 * (such a waiter would never be released). The group is usable afterwards.
 */
@JCStressTest
@Description("WaitGroup: done() on a zero counter racing await() publishes nothing.")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "done() rejected, the waiter saw zero and returned at once, group usable.")
@Outcome(id = ".*, -1, .*, .*", expect = FORBIDDEN, desc = "The rejected done() published a counter of -1.")
@Outcome(id = ".*, .*, 0, .*", expect = FORBIDDEN, desc = "The waiter registered on the transient counter and was not released.")
@Outcome(expect = FORBIDDEN, desc = "done() not rejected as Go does, an exception in await, or the group corrupt afterwards.")
@State
public class WaitGroupAddPastZeroRacingAwaitTest {

    final WaitGroup wg = new WaitGroup();

    @Actor
    public void misuser(IIII_Result r) {
        try {
            wg.done();
            r.r1 = 0;
        } catch (IllegalStateException e) {
            r.r1 = "negative WaitGroup counter".equals(e.getMessage()) ? 1 : 2;
        }
    }

    @Actor
    public void waiter(IIII_Result r) {
        int before = wg.count();
        int released;
        try {
            released = wg.await(0, TimeUnit.NANOSECONDS) ? 1 : 0;
        } catch (InterruptedException | RuntimeException e) {
            released = 2;
        }
        r.r2 = Math.min(before, wg.count());
        r.r3 = released;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r4 = wg.toString().endsWith("waiters=0]") && WaitGroups.reusable(wg) ? 1 : 0;
    }
}
