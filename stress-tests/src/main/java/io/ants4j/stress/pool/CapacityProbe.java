package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-sample bookkeeping of a capacity test: submits tasks that sample {@code running()} while they
 * run, counts how many ran, and keeps the largest {@code running()} anybody saw.
 */
final class CapacityProbe {

    final Pool pool;
    final AtomicInteger maxRunning = new AtomicInteger();
    final AtomicInteger ran = new AtomicInteger();
    final AtomicInteger rejected = new AtomicInteger();
    final CountDownLatch done;

    CapacityProbe(Pool pool, int tasks) {
        this.pool = pool;
        this.done = new CountDownLatch(tasks);
    }

    /** Submits one task, waiting at most the patience for a worker; then samples running(). */
    void submit() {
        boolean accepted;
        try {
            accepted = pool.tryExecute(() -> {
                Pools.recordMax(maxRunning, pool.running());
                Thread.yield();
                Pools.recordMax(maxRunning, pool.running());
                ran.incrementAndGet();
                done.countDown();
            }, Pools.PATIENCE);
        } catch (RuntimeException e) {
            accepted = false;
        }
        if (!accepted) {
            rejected.incrementAndGet();
            done.countDown();
        }
        Pools.recordMax(maxRunning, pool.running());
    }

    /** Waits for every task, then returns how many ran (-1 if some never finished). */
    int finish() {
        boolean all = Pools.await(done);
        Pools.recordMax(maxRunning, pool.running());
        pool.release();
        return all && rejected.get() == 0 ? ran.get() : -1;
    }
}
