package io.ants4j.stress.primitives;

import io.ants4j.primitives.WeightedSemaphore;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.atomic.AtomicLong;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * WeightedSemaphore, permit accounting: of 2 permits one actor takes 1 and the other 2, each
 * holding them while it adds its weight to a shared count of permits in use. Their requests
 * never fit together, so each must see only its own weight in use (never 3); whichever comes
 * second waits, queued or on the lock-free path, and must be woken by the other's release
 * (a lost wake-up shows as 0). Afterwards every permit is back and nobody waits.
 */
@JCStressTest
@Description("WeightedSemaphore: the permits in use never exceed the size; the later of two requests that do not fit together is woken.")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "Each held its permits alone; every permit back.")
@Outcome(id = "3, .*, .*", expect = FORBIDDEN, desc = "3 permits in use out of 2.")
@Outcome(id = ".*, 3, .*", expect = FORBIDDEN, desc = "3 permits in use out of 2.")
@Outcome(id = "0, .*, .*", expect = FORBIDDEN, desc = "The one-permit request was never granted (lost wake-up).")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The two-permit request was never granted (lost wake-up).")
@Outcome(expect = FORBIDDEN, desc = "Permits lost or duplicated, or a waiter left queued.")
@State
public class WeightedSemaphoreAccountingTest {

    final WeightedSemaphore sem = new WeightedSemaphore(2);
    final AtomicLong inUse = new AtomicLong();

    /** Holds {@code n} permits for a moment: the permits in use seen meanwhile, 0 if never granted. */
    long use(long n) {
        long[] seen = new long[1];
        WeightedSemaphores.use(sem, n, () -> {
            seen[0] = inUse.addAndGet(n);
            inUse.addAndGet(-n);
        });
        return seen[0];
    }

    @Actor
    public void one(III_Result r) {
        r.r1 = (int) use(1);
    }

    @Actor
    public void two(III_Result r) {
        r.r2 = (int) use(2);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = WeightedSemaphores.whole(sem, 2) ? 1 : 0;
    }
}
