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

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Mutex mutual exclusion with four threads, more than the cores here, so holders get descheduled
 * inside the critical section and the others spin, park, are woken and lose to newcomers: each of
 * the two actors starts a virtual thread (jcstress runs at most one actor per CPU) and all four do
 * a two-step read-modify-write of a plain field under the lock.
 */
@JCStressTest
@Description("Mutex: four threads (2 actors + 2 virtual threads) increment a plain int under lock(); no update lost.")
@Outcome(id = "4, 1, 1", expect = ACCEPTABLE, desc = "All four increments counted; mutex consistent; helpers finished.")
@Outcome(expect = FORBIDDEN, desc = "Lost update, mutex left locked or with a waiter counted, or a helper thread did not finish.")
@State
public class MutexExclusion4Test {

    final Mutex lock = new Mutex();
    final Locks.GuardedCounter counter = new Locks.GuardedCounter();
    Thread helper1;
    Thread helper2;

    private void increment() {
        counter.increment(lock);
    }

    @Actor
    public void actor1() {
        helper1 = Helper.start(this::increment);
        increment();
    }

    @Actor
    public void actor2() {
        helper2 = Helper.start(this::increment);
        increment();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        boolean joined = Helper.join(helper1) & Helper.join(helper2);
        r.r1 = counter.value;
        r.r2 = Locks.consistent(lock) ? 1 : 0;
        r.r3 = joined ? 1 : 0;
    }
}
