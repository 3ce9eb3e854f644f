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
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WaitGroup: a waiter whose very short timeout expires while the last done() runs removes itself
 * without stealing the other waiter's wake-up, and leaves the group consistent and reusable (no
 * IllegalStateException, the count back at zero, a new add/done/await cycle works). The patient
 * waiter is a virtual thread started when the state is made, so it is usually parked already.
 */
@JCStressTest
@Description("WaitGroup: timed-out waiter racing with the last done() loses no wake-up and corrupts no state.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Short waiter released by done(), patient waiter released, group reusable.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "Short waiter timed out in the race; patient waiter still released; group reusable.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "Patient waiter never released: its wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "The group is corrupt afterwards (exception, wrong count, or await blocks at zero).")
@State
public class WaitGroupTimedOutWaiterRaceTest {

    /** Long enough to park sometimes, short enough to expire while done() runs. */
    static final long SHORT_NANOS = 20_000;

    final WaitGroup wg = new WaitGroup();
    final Thread patient;
    volatile int patientResult = -1;

    public WaitGroupTimedOutWaiterRaceTest() {
        wg.add(1);
        patient = Helper.start(() -> patientResult = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS));
    }

    @Actor
    public void worker() {
        wg.done();
    }

    @Actor
    public void shortWaiter(III_Result r) {
        r.r1 = WaitGroups.await(wg, SHORT_NANOS, TimeUnit.NANOSECONDS);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = WaitGroups.reusable(wg) ? 1 : 0;
    }
}
