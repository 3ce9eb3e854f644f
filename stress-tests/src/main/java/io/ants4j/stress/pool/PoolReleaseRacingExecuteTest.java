package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolClosedException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * release() racing with execute() on a fresh pool (the submitter has to start a new worker): the
 * task is either accepted and then run exactly once, or rejected with PoolClosedException and never
 * run. Never accepted-but-lost, never rejected-but-run, never run twice.
 */
@JCStressTest
@Description("Pool: release() racing with execute() (new worker) neither loses nor duplicates the task.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "execute() won: the task ran exactly once.")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "release() won: PoolClosedException, the task never ran.")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "Accepted but never run: the task was lost.")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "Rejected but run anyway.")
@Outcome(expect = FORBIDDEN, desc = "Ran twice, another exception, or the pool not closed.")
@State
public class PoolReleaseRacingExecuteTest {

    final Pool pool = Pools.perSample(1);
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch ran = new CountDownLatch(1);

    /** 1 accepted, 0 rejected with PoolClosedException, -1 any other exception. */
    static int submit(Pool pool, AtomicInteger runs, CountDownLatch ran) {
        try {
            pool.execute(() -> {
                runs.incrementAndGet();
                ran.countDown();
            });
            return 1;
        } catch (PoolClosedException e) {
            return 0;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    @Actor
    public void submitter(III_Result r) {
        r.r1 = submit(pool, runs, ran);
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
        r.r3 = pool.isClosed() ? 1 : 0;
    }
}
