package io.ants4j.stress.pool;

import io.ants4j.pool.Pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Drives a long-lived pool whose purger retires idle workers every millisecond, so that every
 * submit (detach from the worker queue), every worker return (insert) and every purge
 * (refresh: cut the expired prefix) race under the pool lock. A worker lost from the queue
 * shrinks the pool for good: later submits time out. A worker in the queue twice gets two tasks
 * in its one-slot hand-off: one is lost. Either way a task never runs and the sample fails.
 *
 * <p>Each task's result is how often it ran (1), or -1 when tryExecute gave up waiting for a
 * worker (capacity leaked), or -2 when it threw.
 */
final class WorkerQueueProbe {

    static final int CAPACITY = 2;

    final Task task1 = new Task();
    final Task task2 = new Task();
    final AtomicInteger maxRunning = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(2);

    final class Task implements Runnable {
        final AtomicInteger runs = new AtomicInteger();
        volatile int refused;

        @Override
        public void run() {
            runs.incrementAndGet();
            done.countDown();
        }

        void submit(Pool pool) {
            try {
                if (!pool.tryExecute(() -> {
                    Pools.recordMax(maxRunning, pool.running());
                    run();
                }, Pools.PATIENCE)) {
                    refused = -1;
                    done.countDown();
                }
            } catch (RuntimeException e) {
                refused = -2;
                done.countDown();
            }
        }

        int result() {
            return refused != 0 ? refused : runs.get();
        }
    }

    /** 1 if every task finished in time and running() never exceeded the capacity, else 0. */
    int verdict(Pool pool) {
        boolean finished = Pools.await(done);
        Pools.recordMax(maxRunning, pool.running());
        return finished && maxRunning.get() <= CAPACITY ? 1 : 0;
    }
}
