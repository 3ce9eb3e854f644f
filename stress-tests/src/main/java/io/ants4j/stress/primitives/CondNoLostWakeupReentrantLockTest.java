package io.ants4j.stress.primitives;

import io.ants4j.primitives.Cond;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

import java.util.concurrent.locks.ReentrantLock;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** Cond works over any Lock: the guarded wait over a ReentrantLock terminates after broadcast(). */
@JCStressTest(Mode.Termination)
@Description("Cond over ReentrantLock: no lost wake-up with broadcast() under the lock.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The waiter woke up and saw the state change.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The waiter hung: the wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "await() threw.")
@State
public class CondNoLostWakeupReentrantLockTest {

    final ReentrantLock lock = new ReentrantLock();
    final Cond cond = new Cond(lock);
    boolean ready; // guarded by lock

    @Actor
    public void waiter() throws InterruptedException {
        lock.lock();
        try {
            while (!ready) {
                cond.await();
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
            cond.broadcast();
        } finally {
            lock.unlock();
        }
    }
}
