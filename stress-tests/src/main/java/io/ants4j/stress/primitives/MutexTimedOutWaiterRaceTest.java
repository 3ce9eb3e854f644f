package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
import io.ants4j.stress.support.Helper;
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
 * Mutex: a waiter whose very short timeout expires while the holder unlocks leaves without
 * taking the wake-up meant for the patient waiter (a virtual thread started when the state is
 * made, usually queued already): if unlock() chose it, it passes the wake-up on. The mutex ends
 * free with no waiter counted.
 */
@JCStressTest
@Description("Mutex: timed-out waiter racing unlock() loses no wake-up and corrupts no state.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The short waiter got the lock in time; the patient one too; consistent.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The short waiter timed out in the race; the patient one still got the lock; consistent.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The patient waiter never got the lock: its wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "The mutex is corrupt afterwards.")
@State
public class MutexTimedOutWaiterRaceTest {

    /** Long enough to park sometimes, short enough to expire while unlock() runs. */
    static final long SHORT_NANOS = 20_000;

    final Mutex lock = new Mutex();
    final Thread patient;
    volatile int patientResult = -1;

    public MutexTimedOutWaiterRaceTest() {
        lock.lock();
        patient = Helper.start(() -> patientResult = Locks.patientlyLockUnlock(lock));
    }

    @Actor
    public void holder() {
        lock.unlock();
    }

    @Actor
    public void shortWaiter(III_Result r) {
        r.r1 = Locks.lockUnlock(lock, SHORT_NANOS, TimeUnit.NANOSECONDS);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = Locks.consistent(lock) ? 1 : 0;
    }
}
