package io.ants4j.stress.primitives;

import io.ants4j.primitives.RWMutex;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * RWMutex reader/writer exclusion: a reader never sees half of a writer's two plain writes, and
 * sees both once it comes after the writer (the write unlock happens-before the read lock).
 */
@JCStressTest
@Description("RWMutex: a reader under the read lock sees a writer's two writes all or nothing.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "The reader came first.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The reader came after the writer and sees both writes.")
@Outcome(expect = FORBIDDEN, desc = "The reader saw half a write (reader and writer inside at once), or the lock is corrupt afterwards.")
@State
public class RWMutexExclusionTest {

    final RWMutex rw = new RWMutex();
    int a;
    int b;

    @Actor
    public void writer() {
        rw.writeLock().lock();
        try {
            a = 1;
            Thread.onSpinWait();
            b = 1;
        } finally {
            rw.writeLock().unlock();
        }
    }

    @Actor
    public void reader(III_Result r) {
        rw.readLock().lock();
        try {
            r.r1 = a;
            Thread.onSpinWait();
            r.r2 = b;
        } finally {
            rw.readLock().unlock();
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Locks.consistent(rw) ? 1 : 0;
    }
}
