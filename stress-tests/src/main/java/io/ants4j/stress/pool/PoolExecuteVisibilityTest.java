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

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Pool.execute hands the task to a worker with a happens-before edge: plain writes the submitter
 * made before execute() are visible to the task, whichever worker (new or reused from the worker
 * stack) runs it. Two submitters share one long-lived pool of two workers.
 */
@JCStressTest
@Description("Pool: writes before execute() are visible inside the task.")
@Outcome(id = "21, 21, 1", expect = ACCEPTABLE, desc = "Both tasks saw both writes of their submitter.")
@Outcome(id = ".*, .*, 0", expect = FORBIDDEN, desc = "A task never ran (lost).")
@Outcome(expect = FORBIDDEN, desc = "A task missed a write made before execute().")
@State
public class PoolExecuteVisibilityTest {

    static final Pool POOL = Pool.newPool(2);

    final CountDownLatch ran = new CountDownLatch(2);
    int x1;
    int y1;
    int x2;
    int y2;
    int saw1; // written by task 1 before ran.countDown()
    int saw2; // written by task 2 before ran.countDown()

    @Actor
    public void submitter1() {
        x1 = 1;
        y1 = 2;
        POOL.execute(() -> {
            saw1 = y1 * 10 + x1;
            ran.countDown();
        });
    }

    @Actor
    public void submitter2() {
        x2 = 1;
        y2 = 2;
        POOL.execute(() -> {
            saw2 = y2 * 10 + x2;
            ran.countDown();
        });
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = Pools.await(ran) ? 1 : 0;
        r.r1 = saw1;
        r.r2 = saw2;
    }
}
