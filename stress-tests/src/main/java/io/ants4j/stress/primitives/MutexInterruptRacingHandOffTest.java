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
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Mutex starvation mode: the starved waiter at the head is interrupted while unlock() hands the
 * lock to it, with a patient waiter queued behind it. Either the hand-off reached it first (it
 * keeps the lock: its timed tryLock returns true) or it left first (InterruptedException, and
 * the hand-off goes to the patient waiter); the hand-off is never lost and the mutex ends
 * consistent. The holder actor first builds the starvation mode (about 1.2 ms, see
 * {@link Locks#starve}) and the interrupter waits (sleeping) for it to be ready; see
 * {@link MutexStarvationHandOffTest} for why that is not done in the state's constructor.
 */
@JCStressTest
@Description("Mutex: interrupt of the starved waiter racing the hand-off loses no hand-off and corrupts no state.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "The hand-off reached the starved waiter first; the patient waiter got the lock after it; consistent.")
@Outcome(id = "2, 1, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The starved waiter left first; the patient waiter got the lock; consistent.")
@Outcome(id = "[12], 1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "The setup missed starvation mode (the waiter won the first race); normal-mode race instead.")
@Outcome(id = ".*, 0, .*, .*", expect = FORBIDDEN, desc = "The patient waiter never got the lock: the hand-off was lost.")
@Outcome(expect = FORBIDDEN, desc = "The mutex is corrupt afterwards, the setup never finished, or the starved waiter came back neither with the lock nor interrupted.")
@State
public class MutexInterruptRacingHandOffTest {

    final Mutex lock = new Mutex();
    Thread starved;
    Thread patient;
    volatile boolean ready;
    volatile int starvedResult = -1;
    volatile int patientResult = -1;

    @Actor
    public void holder() {
        starved = Locks.starve(lock, () -> starvedResult = Locks.patientlyLockUnlock(lock));
        patient = Helper.start(() -> patientResult = Locks.patientlyLockUnlock(lock));
        Locks.until(lock, starved == null ? "waiters=1" : "waiters=2");
        ready = true;
        lock.unlock();
    }

    @Actor
    public void interrupter() {
        if (Spin.sleepUntil(() -> ready) && starved != null) {
            starved.interrupt(); // the thread ends with this sample, so the interrupt cannot leak
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = starved == null ? 1 : Helper.join(starved) ? starvedResult : 0;
        r.r2 = patient != null && Helper.join(patient) ? patientResult : 0;
        r.r3 = starved == null ? 0 : 1;
        r.r4 = Locks.consistent(lock) ? 1 : 0;
    }
}
