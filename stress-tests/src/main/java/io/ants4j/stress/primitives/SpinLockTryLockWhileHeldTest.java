package io.ants4j.stress.primitives;

import io.ants4j.primitives.SpinLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * SpinLock.tryLock racing with a full lock/unlock cycle: when tryLock succeeds it never finds the
 * holder's critical section half done (it either precedes the holder entirely or sees all of it).
 */
@JCStressTest
@Description("SpinLock: tryLock() racing with lock(); x=1; y=1; unlock(): never sees a half-done critical section.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "tryLock won before the holder's critical section.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "tryLock won after unlock and saw both writes.")
@Outcome(id = "-1, -1", expect = ACCEPTABLE_INTERESTING, desc = "tryLock failed: the lock was held at that moment.")
@Outcome(expect = FORBIDDEN, desc = "tryLock succeeded inside the holder's critical section, or missed its writes.")
@State
public class SpinLockTryLockWhileHeldTest {

    final SpinLock lock = new SpinLock();
    int x;
    int y;

    @Actor
    public void holder() {
        lock.lock();
        try {
            x = 1;
            Thread.onSpinWait();
            y = 1;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void trier(II_Result r) {
        if (lock.tryLock()) {
            try {
                r.r1 = x;
                r.r2 = y;
            } finally {
                lock.unlock();
            }
        } else {
            r.r1 = -1;
            r.r2 = -1;
        }
    }
}
