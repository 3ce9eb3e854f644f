package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
import io.ants4j.stress.support.Helper;
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
 * waiter has had it. Each sample first builds the starvation mode (about 1.2 ms, see
 * {@link Locks#starve}), so this test runs few samples.
 */
@JCStressTest
@Description("Mutex: in starvation mode unlock() hands the lock to the starved waiter; a racing tryLock() never barges in first.")
@Outcome(id = "2, 1, 1, 1", expect = ACCEPTABLE, desc = "The newcomer found the lock held or handed over; the waiter got it; consistent.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "The newcomer got the lock after the waiter had had it; consistent.")
@Outcome(id = "[12], 1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "The setup missed starvation mode (the waiter won the first race); nothing to check.")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "The newcomer barged in ahead of the starved waiter.")
@Outcome(expect = FORBIDDEN, desc = "The waiter never got the lock, or the mutex is corrupt afterwards.")
@State
public class MutexStarvationHandOffTest {

    final Mutex lock = new Mutex();
    final Thread waiter;
    volatile boolean waiterHadIt;
    volatile int waiterResult = -1;

    public MutexStarvationHandOffTest() {
        waiter = Locks.starve(lock, () -> {
            int result = 0;
            try {
                if (lock.tryLock(Locks.CONSTRUCTED_WAITER_PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                    waiterHadIt = true;
                    lock.unlock();
                    result = 1;
                }
            } catch (InterruptedException e) {
                result = 2;
            }
            waiterResult = result;
        });
    }

    @Actor
    public void holder() {
        lock.unlock();
    }

    @Actor
    public void newcomer(IIII_Result r) {
        if (lock.tryLock()) {
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
}
