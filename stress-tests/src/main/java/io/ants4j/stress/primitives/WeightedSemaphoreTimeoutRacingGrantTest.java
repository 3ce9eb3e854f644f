package io.ants4j.stress.primitives;

import io.ants4j.primitives.WeightedSemaphore;
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
 * WeightedSemaphore, the cancel-vs-grant race with a timeout: a waiter with a very short
 * timeout asks for the one held permit; the holder waits until it is queued (or already gone),
 * starts a patient waiter (a virtual thread, usually queued behind it) and releases, so the
 * release and the timeout expire together. Whatever wins, no permit is lost or duplicated and
 * the patient waiter is served.
 */
@JCStressTest
@Description("WeightedSemaphore: a waiter timing out as the permit is released loses no permit and wakes the next waiter.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The grant won: short waiter acquired (and released), patient one served, every permit back.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The timeout won: short waiter left (giving back a racing grant), patient one served, every permit back.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The patient waiter was never served: a wake-up or the permit was lost.")
@Outcome(expect = FORBIDDEN, desc = "Permits lost or duplicated, a waiter left queued, or an impossible outcome.")
@State
public class WeightedSemaphoreTimeoutRacingGrantTest {

    /** Long enough to queue and park sometimes, short enough to expire while the holder releases. */
    static final long SHORT_NANOS = 30_000;

    final WeightedSemaphore sem = new WeightedSemaphore(1);
    volatile boolean shortDone;
    volatile Thread patient;
    volatile int patientResult = -1;

    public WeightedSemaphoreTimeoutRacingGrantTest() {
        sem.tryAcquire(1);
    }

    @Actor
    public void shortWaiter(III_Result r) {
        r.r1 = WeightedSemaphores.use(sem, 1, SHORT_NANOS, TimeUnit.NANOSECONDS, () -> { });
        shortDone = true;
    }

    @Actor
    public void holder() {
        Spin.until(() -> shortDone || WeightedSemaphores.waiting(sem) == 1);
        patient = Helper.start(() -> patientResult = WeightedSemaphores.use(sem, 1, () -> { }));
        sem.release(1);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = WeightedSemaphores.whole(sem, 1) ? 1 : 0;
    }
}
