package io.ants4j.stress.primitives;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Cond.broadcast wakes every waiter present before it and none that starts waiting afterwards.
 * Two waiters (the first actor and a virtual thread it starts) enqueue; the broadcaster, holding
 * the lock, sets generation 1, broadcasts and then itself awaits with a short timeout: both
 * earlier waiters must wake seeing generation 1, and the broadcaster's own later wait must not be
 * ended by that broadcast (nor by a spurious wake-up): it must time out.
 */
@JCStressTest
@Description("Cond: broadcast() wakes all current waiters and none that arrive after it.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "Both earlier waiters woke; the later wait timed out.")
@Outcome(id = ".*, .*, 1", expect = FORBIDDEN, desc = "broadcast() (or a spurious wake-up) ended a wait that began after it.")
@Outcome(expect = FORBIDDEN, desc = "An earlier waiter was not woken (timed out), or the broadcaster gave up.")
@State
public class CondBroadcastTest {

    static final long LATE_WAIT_NANOS = 200_000;

    final SpinLock lock = new SpinLock();
    final Cond cond = new Cond(lock);
    // guarded by lock
    int arrived;
    int generation;
    Thread otherWaiter;
    volatile int otherSaw = -3;
    int firstSaw;
    int lateWait;

    private int await() {
        lock.lock();
        try {
            arrived++;
            return cond.await(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS) ? generation : -1;
        } catch (InterruptedException e) {
            return -2;
        } finally {
            lock.unlock();
        }
    }

    private boolean bothWaiting() {
        lock.lock();
        try {
            return arrived == 2;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void waiter() {
        otherWaiter = Helper.start(() -> otherSaw = await());
        firstSaw = await();
    }

    @Actor
    public void broadcaster() {
        if (!Spin.until(this::bothWaiting)) {
            lateWait = -1;
            return;
        }
        lock.lock();
        try {
            generation = 1;
            cond.broadcast();
            lateWait = cond.await(LATE_WAIT_NANOS, TimeUnit.NANOSECONDS) ? 1 : 0;
        } catch (InterruptedException e) {
            lateWait = -2;
        } finally {
            lock.unlock();
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r2 = Helper.join(otherWaiter) ? otherSaw : -4;
        r.r1 = firstSaw;
        r.r3 = lateWait;
    }
}
