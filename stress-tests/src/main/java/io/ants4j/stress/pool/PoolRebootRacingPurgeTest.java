package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolClosedException;
import io.ants4j.pool.PoolOptions;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * release() and reboot() racing with a submitter on a pool whose purger and ticker run every millisecond
 * (expiry 1 ms) while a worker is idle and expiring: the reboot starts a new purger and ticker while those
 * of before the release may still be in the middle of a run. A task is either accepted and run once, or
 * rejected with PoolClosedException (it came while the pool was closed); the reopened pool accepts a task;
 * and every worker, idle again, is purged, so running() returns to 0 (no worker lost or counted twice, the
 * idle stack's stamps still sorted for the purger's binary search).
 */
@JCStressTest
@Description("Pool: release() + reboot() racing with execute() while purges run: nothing lost, every idle worker purged.")
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE, desc = "The task was accepted and ran; the reopened pool works and purges all.")
@Outcome(id = "0, 0, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "The task came while closed: rejected; then as above.")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "Accepted but never run.")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "Rejected but run.")
@Outcome(id = "[01], [01], 0, .*", expect = FORBIDDEN, desc = "The reopened pool rejected a task (or never ran it).")
@Outcome(id = "[01], [01], 1, -?[1-9][0-9]*", expect = FORBIDDEN, desc = "running() never returned to 0: a worker lost or never purged.")
@Outcome(expect = FORBIDDEN, desc = "Ran twice, another exception, or the warm-up failed.")
@State
public class PoolRebootRacingPurgeTest {

    final Pool pool = Pool.newPool(2, PoolOptions.builder().expiryDuration(Duration.ofMillis(1)).build());
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch ran = new CountDownLatch(1);
    final boolean warm;

    /** Leaves one idle worker, which expires about when the actors run. */
    public PoolRebootRacingPurgeTest() {
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
    public void cycler() {
        pool.release();
        pool.reboot();
    }

    @Actor
    public void submitter(IIII_Result r) {
        r.r1 = PoolReleaseRacingExecuteTest.submit(pool, runs, ran);
    }

    /** r2: runs of the actor's task; r3: 1 if the reopened pool ran a task; r4: running() once all is idle. */
    @Arbiter
    public void arbiter(IIII_Result r) {
        if (r.r1 == 1) {
            Pools.await(ran);
        }
        r.r2 = runs.get();
        CountDownLatch again = new CountDownLatch(1);
        try {
            r.r3 = pool.tryExecute(again::countDown, Pools.PATIENCE) && Pools.await(again) && warm ? 1 : 0;
        } catch (PoolClosedException e) {
            r.r3 = 0;
        } catch (RuntimeException e) {
            r.r3 = -1;
        }
        Spin.until(() -> pool.running() == 0);
        r.r4 = pool.running();
        pool.release();
    }
}
