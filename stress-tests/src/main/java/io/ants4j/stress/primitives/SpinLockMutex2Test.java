package io.ants4j.stress.primitives;

import io.ants4j.primitives.SpinLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** SpinLock mutual exclusion: two threads incrementing a plain field under the lock never lose an update. */
@JCStressTest
@Description("SpinLock: two actors increment a plain int under lock(); no update is ever lost.")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "Both increments counted.")
@Outcome(id = "1", expect = FORBIDDEN, desc = "Lost update: both threads were inside the critical section.")
@Outcome(expect = FORBIDDEN, desc = "Anything else is a bug.")
@State
public class SpinLockMutex2Test {

    final SpinLock lock = new SpinLock();
    int counter;

    @Actor
    public void actor1() {
        lock.lock();
        try {
            counter++;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void actor2() {
        lock.lock();
        try {
            counter++;
        } finally {
            lock.unlock();
        }
    }

    @Arbiter
    public void arbiter(I_Result r) {
        r.r1 = counter;
    }
}
