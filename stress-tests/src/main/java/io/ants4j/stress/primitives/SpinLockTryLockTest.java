package io.ants4j.stress.primitives;

import io.ants4j.primitives.SpinLock;
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
 * SpinLock.tryLock never succeeds while the lock is held: two racing tryLock calls that never
 * unlock: exactly one wins (a free lock is never refused either), and the lock stays held.
 */
@JCStressTest
@Description("SpinLock: two racing tryLock() without unlock; exactly one succeeds, the lock ends held.")
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "Exactly one tryLock acquired the lock.")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "tryLock succeeded while the lock was held.")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Both tryLock failed although the lock was free.")
@Outcome(expect = FORBIDDEN, desc = "Lock not held at the end.")
@State
public class SpinLockTryLockTest {

    final SpinLock lock = new SpinLock();

    @Actor
    public void actor1(III_Result r) {
        r.r1 = lock.tryLock() ? 1 : 0;
    }

    @Actor
    public void actor2(III_Result r) {
        r.r2 = lock.tryLock() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = lock.isLocked() ? 1 : 0;
    }
}
