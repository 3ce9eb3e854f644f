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
 * RWMutex: a writer waiting for the reader inside, whose very short timeout expires while that
 * reader unlocks, either gets the lock (the last reader's release reached it first) or gives up:
 * it lets in the readers it held back (a patient reader, started just before the writer's attempt
 * so that it usually arrives after the writer has announced itself) and
 * releases its place among writers. Afterwards nobody is left counted and both views work.
 */
@JCStressTest
@Description("RWMutex: timed-out writer racing the last read unlock lets the held-back readers in and leaves the lock consistent.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The writer got the lock in time; the patient reader got in; consistent.")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The writer gave up in the race; the patient reader got in; consistent.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The patient reader never got in: the writer that gave up did not let it in.")
@Outcome(expect = FORBIDDEN, desc = "Someone is left counted, the writers' lock left held, or the lock is corrupt afterwards.")
@State
public class RWMutexTimedOutWriterRaceTest {

    /** Long enough to park sometimes, short enough to expire while the read unlock runs. */
    static final long SHORT_NANOS = 20_000;

    final RWMutex rw = new RWMutex();
    Thread patient;
    volatile int patientResult = -1;

    public RWMutexTimedOutWriterRaceTest() {
        rw.readLock().lock();
    }

    @Actor
    public void reader() {
        rw.readLock().unlock();
    }

    @Actor
    public void shortWriter(III_Result r) {
        patient = Helper.start(() -> patientResult = Locks.patientlyLockUnlock(rw.readLock()));
        r.r1 = Locks.lockUnlock(rw.writeLock(), SHORT_NANOS, TimeUnit.NANOSECONDS);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(patient) ? patientResult : 0;
        r.r3 = Locks.consistent(rw) ? 1 : 0;
    }
}
