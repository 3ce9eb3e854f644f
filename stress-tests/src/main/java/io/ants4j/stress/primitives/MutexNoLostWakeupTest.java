package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
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
 * Mutex: a thread that finds the lock held (and spins, counts itself in and parks) always gets it
 * when the holder unlocks, whatever point of that path the unlock races with.
 */
@JCStressTest(Mode.Termination)
@Description("Mutex: no lost wake-up when unlock() races with a thread on its way to park.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The waiter got the lock.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The waiter hung: the wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "lock() or unlock() threw.")
@State
public class MutexNoLostWakeupTest {

    final Mutex lock = new Mutex();

    public MutexNoLostWakeupTest() {
        lock.lock();
    }

    @Actor
    public void waiter() {
        lock.lock();
        lock.unlock();
    }

    @Signal
    public void holder() {
        lock.unlock();
    }
}
