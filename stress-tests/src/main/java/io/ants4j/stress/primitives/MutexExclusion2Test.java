package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Mutex mutual exclusion: two threads doing a two-step read-modify-write of a plain field under
 * the lock never lose an update, and the lock ends free with nobody counted as waiting.
 */
@JCStressTest
@Description("Mutex: two actors increment a plain int under lock(); no update is ever lost.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "Both increments counted; the mutex is consistent afterwards.")
@Outcome(expect = FORBIDDEN, desc = "Lost update (both inside at once), or the mutex left locked or with a waiter counted.")
@State
public class MutexExclusion2Test {

    final Mutex lock = new Mutex();
    final Locks.GuardedCounter counter = new Locks.GuardedCounter();

    @Actor
    public void actor1() {
        counter.increment(lock);
    }

    @Actor
    public void actor2() {
        counter.increment(lock);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = counter.value;
        r.r2 = Locks.consistent(lock) ? 1 : 0;
    }
}
