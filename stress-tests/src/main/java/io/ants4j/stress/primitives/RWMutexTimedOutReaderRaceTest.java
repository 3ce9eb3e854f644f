package io.ants4j.stress.primitives;

import io.ants4j.primitives.RWMutex;
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
 * RWMutex: a reader held back by the writer, whose very short timeout expires while the writer
 * unlocks, either gets in (the writer's unlock counted it first) or leaves the count of readers
 * before the unlock counts it; a patient reader held back too always gets in, and afterwards no
 * reader is left counted (the write lock can be taken).
 */
@JCStressTest
@Description("RWMutex: timed-out reader racing the write unlock loses no reader's wake-up and leaves no reader counted.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The short reader got in; the patient reader too; consistent.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The short reader timed out in the race; the patient reader got in; consistent.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The patient reader never got in: its wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "A reader is left counted or the lock is corrupt afterwards.")
@State
public class RWMutexTimedOutReaderRaceTest {

    /** Long enough to park sometimes, short enough to expire while unlock() runs. */
    static final long SHORT_NANOS = 20_000;

    final RWMutex rw = new RWMutex();
    final Thread patient;
    volatile int patientResult = -1;

    public RWMutexTimedOutReaderRaceTest() {
        rw.writeLock().lock();
        patient = Helper.start(() -> patientResult = Locks.patientlyLockUnlock(rw.readLock()));
    }

    @Actor
    public void writer() {
        rw.writeLock().unlock();
    }

    @Actor
    public void shortReader(III_Result r) {
        r.r1 = Locks.lockUnlock(rw.readLock(), SHORT_NANOS, TimeUnit.NANOSECONDS);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = Locks.consistent(rw) ? 1 : 0;
    }
}
