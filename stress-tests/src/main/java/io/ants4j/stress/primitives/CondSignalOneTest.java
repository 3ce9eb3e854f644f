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
import java.util.function.BooleanSupplier;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Cond.signal wakes at most one waiter, and the oldest one (FIFO). Two waiters (the first actor
 * and a virtual thread it starts) enqueue under the lock, so the order they arrive in is the order
 * they wait in. Once both wait, the signaller signals generation 1, waits until one waiter has
 * woken, then signals generation 2. Each waiter records the generation current when it woke: the
 * first to arrive must see 1 and the second 2; one signal waking both shows up as "1, 1".
 */
@JCStressTest
@Description("Cond: signal() wakes exactly one waiter, the longest waiting (FIFO).")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "First signal woke the oldest waiter only; second woke the other.")
@Outcome(id = "2, 1, .*", expect = FORBIDDEN, desc = "Not FIFO: the first signal woke the younger waiter.")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "One signal woke both waiters.")
@Outcome(expect = FORBIDDEN, desc = "A waiter timed out (lost signal), or the signaller gave up.")
@State
public class CondSignalOneTest {

    final SpinLock lock = new SpinLock();
    final Cond cond = new Cond(lock);
    // guarded by lock
    int arrived;
    int woken;
    int generation;
    int firstSaw;
    int secondSaw;
    Thread otherWaiter;

    private void await() {
        lock.lock();
        try {
            int order = ++arrived;
            int seen;
            try {
                seen = cond.await(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS) ? generation : -1;
            } catch (InterruptedException e) {
                seen = -2;
            }
            woken++;
            if (order == 1) {
                firstSaw = seen;
            } else {
                secondSaw = seen;
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean locked(BooleanSupplier check) {
        lock.lock();
        try {
            return check.getAsBoolean();
        } finally {
            lock.unlock();
        }
    }

    private void setGeneration(int g) {
        lock.lock();
        try {
            generation = g;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void waiter() {
        otherWaiter = Helper.start(this::await);
        await();
    }

    @Actor
    public void signaller() {
        if (!Spin.until(() -> locked(() -> arrived == 2))) {
            return;
        }
        setGeneration(1);
        cond.signal();
        Spin.until(() -> locked(() -> woken >= 1));
        setGeneration(2);
        cond.signal();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Helper.join(otherWaiter) ? 1 : 0;
        r.r1 = firstSaw;
        r.r2 = secondSaw;
    }
}
