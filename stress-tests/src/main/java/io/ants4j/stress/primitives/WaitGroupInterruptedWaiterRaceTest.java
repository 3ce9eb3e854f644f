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
 * WaitGroup: a waiter interrupted while the last done() runs removes itself without stealing the
 * other waiter's wake-up and leaves the group consistent and reusable. The interrupt is delivered
 * only while the victim is inside this sample's await (guarded by the state's monitor), so no
 * interrupt leaks into a later sample. The patient waiter is a virtual thread started when the
 * state is made.
 */
@JCStressTest
@Description("WaitGroup: interrupted waiter racing with the last done() loses no wake-up and corrupts no state.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Interruptible waiter released by done() first; other waiter released; group reusable.")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "Interruptible waiter got InterruptedException; other waiter still released; group reusable.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "Patient waiter never released: its wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "The group is corrupt afterwards, or the waiter came back neither released nor interrupted.")
@State
public class WaitGroupInterruptedWaiterRaceTest {

    final WaitGroup wg = new WaitGroup();
    final Thread patient;
    volatile int patientResult = -1;
    Thread victim;      // guarded by this
    boolean victimDone; // guarded by this

    public WaitGroupInterruptedWaiterRaceTest() {
        wg.add(1);
        patient = Helper.start(() -> patientResult = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS));
    }

    @Actor
    public void worker() {
        // Interrupt the victim if it is waiting now, then the last done(): both race with its await.
        synchronized (this) {
            if (victim != null && !victimDone) {
                victim.interrupt();
            }
        }
        wg.done();
    }

    @Actor
    public void interruptibleWaiter(III_Result r) {
        synchronized (this) {
            victim = Thread.currentThread();
        }
        int outcome = WaitGroups.await(wg, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
        synchronized (this) {
            victimDone = true;
            Thread.interrupted(); // an interrupt that came after await returned stays in this sample
        }
        r.r1 = outcome;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = WaitGroups.reusable(wg) ? 1 : 0;
    }
}
