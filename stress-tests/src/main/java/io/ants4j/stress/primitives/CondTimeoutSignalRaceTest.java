package io.ants4j.stress.primitives;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Cond: a signal racing with a waiter's timeout is passed on, never lost. The oldest waiter (an
 * actor) waits with a tiny timeout, a younger one (a virtual thread it starts) patiently.
 * Generation 1 is signalled by the other actor once both wait; only when someone has actually
 * woken from it is generation 2 signalled. If the short waiter timed out just as signal 1 chose
 * it, signal 1 must move on to the patient waiter: the patient waiter seeing generation 2 after
 * the short one timed out means signal 1 went to nobody.
 */
@JCStressTest
@Description("Cond: signal() racing with a timed-out waiter is passed on to the next waiter.")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "Short waiter got signal 1, patient waiter signal 2.")
@Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "Short waiter timed out; signal 1 went to the patient waiter.")
@Outcome(id = "0, 2", expect = FORBIDDEN, desc = "Signal 1 was lost with the timed-out waiter.")
@Outcome(expect = FORBIDDEN, desc = "One signal woke both, the patient waiter timed out, or the signaller gave up.")
@State
public class CondTimeoutSignalRaceTest {

    static final long SHORT_NANOS = 20_000;

    final SpinLock lock = new SpinLock();
    final Cond cond = new Cond(lock);
    // guarded by lock
    boolean shortArrived;
    boolean patientArrived;
    int woken;
    int generation;
    int shortSaw;
    Thread patient;
    volatile int patientSaw = -3;

    private boolean locked(BooleanSupplier check) {
        lock.lock();
        try {
            return check.getAsBoolean();
        } finally {
            lock.unlock();
        }
    }

    private void setGeneration(int g) {
        lock.lock();
        try {
            generation = g;
        } finally {
            lock.unlock();
        }
    }

    private int patientWait() {
        // Enqueue after the short waiter, so it is the younger of the two.
        if (!Spin.until(() -> locked(() -> shortArrived))) {
            return -4;
        }
        lock.lock();
        try {
            patientArrived = true;
            if (cond.await(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                woken++;
                return generation;
            }
            return -1;
        } catch (InterruptedException e) {
            return -2;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void shortWaiter() {
        patient = Helper.start(() -> patientSaw = patientWait());
        lock.lock();
        try {
            shortArrived = true;
            if (cond.await(SHORT_NANOS, TimeUnit.NANOSECONDS)) {
                woken++;
                shortSaw = generation;
            } else {
                shortSaw = 0;
            }
        } catch (InterruptedException e) {
            shortSaw = -2;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void signaller() {
        if (!Spin.until(() -> locked(() -> patientArrived))) {
            return;
        }
        setGeneration(1);
        cond.signal();
        // Signal 2 only after somebody woke from signal 1 (if signal 1 was lost: after the patience runs out).
        Spin.until(() -> locked(() -> woken >= 1));
        setGeneration(2);
        cond.signal();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = Helper.join(patient) ? patientSaw : -5;
        r.r1 = shortSaw;
    }
}
