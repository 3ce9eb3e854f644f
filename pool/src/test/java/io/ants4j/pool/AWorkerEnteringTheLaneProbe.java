package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest} in a JVM of its own, under a
 * debugger that holds the worker thread named {@code probe-worker-*} that enters the fast lane at a given line
 * (just after its entry CAS, or in its spin loop): the interleaving an operating system may produce by preempting
 * that thread there. A pool (or a multi-pool of two
 * sub-pools of one, sharing the lane) of two platform workers: task c waits, a short task w runs on the second
 * worker and ends; once {@code idle() == 1} (w's worker in the lane), c calls {@code releaseTimeout(ZERO)}. Prints
 * {@code OUTCOME returned} or {@code OUTCOME <exception>}, then, once the debugger let the worker go, whether the
 * pool terminated.
 */
final class AWorkerEnteringTheLaneProbe {
    private AWorkerEnteringTheLaneProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean multi = args.length > 0 && args[0].equals("multi");
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).name("probe-worker-", 0).factory()).build();
        WorkerPool pool = multi
                ? MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options)
                : Pool.newPool(2, options);
        CountDownLatch closerRunning = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Runnable closer = () -> {
            closerRunning.countDown();
            try {
                if (!go.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never told to go");
                }
                pool.releaseTimeout(Duration.ZERO);
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                done.countDown();
            }
        };
        if (pool instanceof MultiPool m) {
            m.execute(closer); // round robin: sub-pool 0
            m.execute(ran::countDown); // sub-pool 1
        } else {
            Pool p = (Pool) pool;
            p.execute(closer);
            p.execute(ran::countDown);
        }
        check(closerRunning.await(30, TimeUnit.SECONDS), "c never ran");
        check(ran.await(30, TimeUnit.SECONDS), "w never ran");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pool.idle() != 1) { // w's worker in the lane (held by the debugger right after its entry)
            check(System.nanoTime() < deadline, "w's worker never went idle: " + pool);
            Thread.onSpinWait();
        }
        System.out.println("STATE before: idle=" + pool.idle() + " running=" + pool.running()
                + " inLanes=" + SpinningWorkers.inLanes());
        go.countDown();
        check(done.await(30, TimeUnit.SECONDS), "c's releaseTimeout(ZERO) never returned");
        Throwable t = thrown.get();
        System.out.println("STATE after: idle=" + pool.idle() + " running=" + pool.running() + " closed="
                + pool.isClosed());
        System.out.println("OUTCOME " + (t == null ? "returned" : t.toString()));
        System.out.flush();
        // the debugger lets the worker go once it has read OUTCOME
        System.out.println("TERMINATED " + pool.awaitTermination(30, TimeUnit.SECONDS));
        System.out.flush();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("PROBE FAILED: " + what);
            System.out.flush();
            System.exit(2);
        }
    }
}
