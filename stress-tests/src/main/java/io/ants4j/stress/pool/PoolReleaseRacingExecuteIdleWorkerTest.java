package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * release() racing with execute() when the pool has an idle worker (one task ran to completion
 * when the state was made): release() stops idle workers and resets the worker queue while the
 * submitter may be detaching that very worker. The task is either accepted and run exactly once,
 * or rejected with PoolClosedException and never run.
 */
@JCStressTest
@Description("Pool: release() racing with execute() (idle worker) neither loses nor duplicates the task.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "execute() won: the task ran exactly once.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "release() won: PoolClosedException, the task never ran.")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "Accepted but never run: the task was lost.")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "Rejected but run anyway.")
@Outcome(expect = FORBIDDEN, desc = "Ran twice, another exception, the warm-up failed, or the pool not closed.")
@State
public class PoolReleaseRacingExecuteIdleWorkerTest {

    final Pool pool = Pools.perSample(1);
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch ran = new CountDownLatch(1);
    final boolean warm;

    public PoolReleaseRacingExecuteIdleWorkerTest() {
        boolean ok;
        try {
            pool.submit(() -> { }).get(Pools.PATIENCE.toNanos(), TimeUnit.NANOSECONDS);
            ok = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ok = false;
        } catch (ExecutionException | TimeoutException e) {
            ok = false;
        }
        warm = ok;
    }

    @Actor
    public void submitter(III_Result r) {
        r.r1 = PoolReleaseRacingExecuteTest.submit(pool, runs, ran);
    }

    @Actor
    public void releaser() {
        pool.release();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        if (r.r1 == 1) {
            Pools.await(ran);
        }
        r.r2 = runs.get();
        r.r3 = pool.isClosed() && warm ? 1 : 0;
    }
}
