package io.ants4j.stress.primitives;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Cond: callers may signal without holding the lock (as in Go): the state change is made under the
 * lock, the signal() after unlock(), and the guarded wait still always terminates.
 */
@JCStressTest(Mode.Termination)
@Description("Cond: no lost wake-up when signal() is called after unlock().")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The waiter woke up and saw the state change.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The waiter hung: the wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "await() threw.")
@State
public class CondNoLostWakeupUnlockedSignalTest {

    final SpinLock lock = new SpinLock();
    final Cond cond = new Cond(lock);
    boolean ready; // guarded by lock

    @Actor
    public void waiter() {
        lock.lock();
        try {
            while (!ready) {
                cond.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    @Signal
    public void signaller() {
        lock.lock();
        try {
            ready = true;
        } finally {
            lock.unlock();
        }
        cond.signal();
    }
}
