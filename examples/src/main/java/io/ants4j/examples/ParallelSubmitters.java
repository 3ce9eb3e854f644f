package io.ants4j.examples;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.primitives.WaitGroup;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link MultiPool} fed by many submitters at once. A single pool has one lock that every submitter takes;
 * a multi-pool spreads them over independent sub-pools, each with its own lock and workers, chosen round-robin
 * or by the fewest running tasks. {@link WaitGroup#go(java.util.concurrent.Executor, Runnable)} counts each
 * task and runs it on the multi-pool, so one {@code await} waits for all of them.
 */
public final class ParallelSubmitters {
    private ParallelSubmitters() {
    }

    /**
     * Eight submitters each hand 10,000 tasks to four sub-pools of 16 workers, then print how many ran.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting for the tasks
     */
    public static void main(String[] args) throws InterruptedException {
        System.out.println(submit(8, 10_000, 4, 16) + " tasks ran");
    }

    /**
     * Starts {@code submitters} virtual threads that each submit {@code tasksEach} tasks to a multi-pool of
     * {@code pools} sub-pools of {@code workersPerPool} workers, and waits until every task has run.
     *
     * @param submitters     how many threads submit at once
     * @param tasksEach      how many tasks each submits
     * @param pools          how many sub-pools
     * @param workersPerPool each sub-pool's capacity
     * @return how many tasks ran
     * @throws InterruptedException if interrupted while waiting for the tasks
     */
    public static long submit(int submitters, int tasksEach, int pools, int workersPerPool)
            throws InterruptedException {
        LongAdder ran = new LongAdder();
        try (MultiPool pool = MultiPool.newMultiPool(pools, workersPerPool, LoadBalancing.LEAST_TASKS)) {
            WaitGroup tasks = new WaitGroup();
            WaitGroup submitting = new WaitGroup();
            for (int s = 0; s < submitters; s++) {
                submitting.go(() -> {
                    for (int t = 0; t < tasksEach; t++) {
                        tasks.go(pool, ran::increment);   // add(1), run on the pool, done() when it returns
                    }
                });
            }
            submitting.await();   // every task is counted before anyone waits for the tasks (Go's rule)
            tasks.await();
        }
        return ran.sum();
    }
}
