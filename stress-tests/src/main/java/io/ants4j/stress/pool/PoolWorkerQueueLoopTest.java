package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolOptions;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.time.Duration;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The LoopQueue (preAlloc true) under the pool lock never loses or duplicates a worker while
 * submits detach, returning workers insert and the purger refreshes (expiry 1 ms) all at once.
 * The queue is package-private in io.ants4j.pool (and the module does not open it), so it is
 * driven through the public Pool API; see {@link WorkerQueueProbe}.
 */
@JCStressTest
@Description("Pool (preAlloc true, LoopQueue): insert/detach/refresh racing never lose or duplicate a worker.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Both tasks ran exactly once; running() stayed within capacity.")
@Outcome(id = {"-1, .*", ".*, -1, .*"}, expect = FORBIDDEN, desc = "tryExecute found no worker for 10 s: a worker was lost from the queue.")
@Outcome(expect = FORBIDDEN, desc = "0: accepted but never ran (lost, e.g. a worker queued twice); 2: ran twice; "
        + "-2: submit threw; last 0: running() exceeded the capacity or a task never finished.")
@State
public class PoolWorkerQueueLoopTest {

    static final Pool POOL = Pool.newPool(WorkerQueueProbe.CAPACITY, PoolOptions.builder()
            .preAlloc(true)
            .expiryDuration(Duration.ofMillis(1))
            .build());

    final WorkerQueueProbe probe = new WorkerQueueProbe();

    @Actor
    public void submitter1() {
        probe.task1.submit(POOL);
    }

    @Actor
    public void submitter2() {
        probe.task2.submit(POOL);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = probe.verdict(POOL);
        r.r1 = probe.task1.result();
        r.r2 = probe.task2.result();
    }
}
