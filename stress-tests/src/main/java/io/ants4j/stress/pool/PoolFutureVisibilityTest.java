package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A task's plain writes are visible to the submitter through Future.get (Pool.submit, the
 * ExecutorService path). Two submitters share one long-lived pool of two workers.
 */
@JCStressTest
@Description("Pool: the task's writes are visible after Future.get().")
@Outcome(id = "21, 21", expect = ACCEPTABLE, desc = "Both submitters saw both writes of their task.")
@Outcome(id = {"-1, .*", ".*, -1"}, expect = FORBIDDEN, desc = "A Future never completed (task lost) or failed.")
@Outcome(expect = FORBIDDEN, desc = "A submitter missed a write its task made.")
@State
public class PoolFutureVisibilityTest {

    static final Pool POOL = Pool.newPool(2);

    int a1;
    int b1;
    int a2;
    int b2;

    private static boolean get(Future<?> f) {
        try {
            f.get(Pools.PATIENCE.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    @Actor
    public void submitter1(II_Result r) {
        Future<?> f = POOL.submit(() -> {
            a1 = 1;
            b1 = 2;
        });
        r.r1 = get(f) ? b1 * 10 + a1 : -1;
    }

    @Actor
    public void submitter2(II_Result r) {
        Future<?> f = POOL.submit(() -> {
            a2 = 1;
            b2 = 2;
        });
        r.r2 = get(f) ? b2 * 10 + a2 : -1;
    }
}
