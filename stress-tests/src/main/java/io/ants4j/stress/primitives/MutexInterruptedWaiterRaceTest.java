package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
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
 * Mutex: a waiter interrupted while the holder unlocks leaves without taking the wake-up meant
 * for the patient waiter, and the mutex ends consistent. The interrupt is delivered only while
 * the victim is inside this sample's wait (guarded by the state's monitor), so no interrupt leaks
 * into a later sample.
 */
@JCStressTest
@Description("Mutex: interrupted waiter racing unlock() loses no wake-up and corrupts no state.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The interruptible waiter got the lock first; the patient one too; consistent.")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The interruptible waiter got InterruptedException; the patient one still got the lock; consistent.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The patient waiter never got the lock: its wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "The mutex is corrupt afterwards, or the waiter came back neither with the lock nor interrupted.")
@State
public class MutexInterruptedWaiterRaceTest {

    final Mutex lock = new Mutex();
    final Thread patient;
    volatile int patientResult = -1;
    Thread victim;      // guarded by this
    boolean victimDone; // guarded by this

    public MutexInterruptedWaiterRaceTest() {
        lock.lock();
        patient = Helper.start(() -> patientResult = Locks.patientlyLockUnlock(lock));
    }

    @Actor
    public void holder() {
        synchronized (this) {
            if (victim != null && !victimDone) {
                victim.interrupt();
            }
        }
        lock.unlock();
    }

    @Actor
    public void interruptibleWaiter(III_Result r) {
        synchronized (this) {
            victim = Thread.currentThread();
        }
        int outcome = Locks.lockUnlock(lock, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
        synchronized (this) {
            victimDone = true;
            Thread.interrupted();
        }
        r.r1 = outcome;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = Locks.consistent(lock) ? 1 : 0;
    }
}
