package io.ants4j.stress.primitives;

import io.ants4j.primitives.SpinLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * SpinLock.unlock publishes the critical section's plain writes to the next thread that locks:
 * the reader sees none or all of them, in any order it reads them.
 */
@JCStressTest
@Description("SpinLock: plain writes made under the lock are all visible to the next locker.")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Reader locked first.")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "Reader locked after the writer's unlock and saw both writes.")
@Outcome(expect = FORBIDDEN, desc = "Reader saw part of the writer's critical section: unlock did not publish it.")
@State
public class SpinLockPublishTest {

    final SpinLock lock = new SpinLock();
    int x;
    int y;

    @Actor
    public void writer() {
        lock.lock();
        try {
            x = 1;
            y = 2;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void reader(II_Result r) {
        lock.lock();
        try {
            r.r1 = y;
            r.r2 = x;
        } finally {
            lock.unlock();
        }
    }
}
