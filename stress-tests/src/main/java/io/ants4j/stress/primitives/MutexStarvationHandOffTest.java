package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Mutex starvation mode: with a waiter that starved at the head of the queue, unlock() hands the
 * lock to it, and a newcomer's tryLock() racing that unlock never gets the lock before the
 * waiter has had it. The holder actor builds the starvation mode itself (about 1.2 ms, see
 * {@link Locks#starve}) while the newcomer sleeps until it is ready (see {@link Spin#sleepUntil}),
 * so the race is between the holder's unlock() and the newcomer's tryLock() just after; this test
 * runs few samples. The setup is not done in the state's constructor: jcstress builds a whole
 * batch of states before their actors run, and a batch of waiters parked for seconds either gave
 * up (ending starvation mode) or outlived the fork's time limit.
 */
@JCStressTest
@Description("Mutex: in starvation mode unlock() hands the lock to the starved waiter; a racing tryLock() never barges in first.")
@Outcome(id = "2, 1, 1, 1", expect = ACCEPTABLE, desc = "The newcomer found the lock held or handed over; the waiter got it; consistent.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "The newcomer got the lock after the waiter had had it; consistent.")
@Outcome(id = "[12], 1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "The setup missed starvation mode (the waiter won the first race); nothing to check.")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "The newcomer barged in ahead of the starved waiter.")
@Outcome(expect = FORBIDDEN, desc = "The waiter never got the lock, the setup never finished, or the mutex is corrupt afterwards.")
@State
public class MutexStarvationHandOffTest {

    final Mutex lock = new Mutex();
    Thread waiter;
    volatile boolean ready;
    volatile boolean waiterHadIt;
    volatile int waiterResult = -1;

    @Actor
    public void holder() {
        waiter = Locks.starve(lock, () -> waiterResult = waitForTheLock());
        ready = true;
        lock.unlock();
    }

    @Actor
    public void newcomer(IIII_Result r) {
        if (!Spin.sleepUntil(() -> ready)) {
            r.r1 = 3;
        } else if (lock.tryLock()) {
            r.r1 = waiterHadIt ? 1 : 0;
            lock.unlock();
        } else {
            r.r1 = 2;
        }
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r2 = waiter == null || Helper.join(waiter) ? waiterResult : 0;
        r.r3 = waiter == null ? 0 : 1;
        r.r4 = Locks.consistent(lock) ? 1 : 0;
    }

    /** The waiter's part: 1 it had the lock, 0 it timed out, 2 it was interrupted. */
    private int waitForTheLock() {
        try {
            if (!lock.tryLock(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                return 0;
            }
        } catch (InterruptedException e) {
            return 2;
        }
        waiterHadIt = true;
        lock.unlock();
        return 1;
    }
}
