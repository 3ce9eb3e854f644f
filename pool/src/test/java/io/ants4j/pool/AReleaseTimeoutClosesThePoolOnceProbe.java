package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link AReleaseTimeoutClosesThePoolOnceTest} in a JVM of its own, under the debugger of
 * {@link AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest}, which holds the thread {@code probe-closer}
 * in {@code AbstractWorkerPool.releaseTimeout} after its {@code release()} and before {@code core.awaitReleased}.
 * That thread calls {@code releaseTimeout(200 ms)} on an open pool (or multi-pool); once the pool shows closed, the
 * main thread reboots it and prints {@code OUTCOME rebooted}; the debugger then lets the closer go. Prints the
 * closer's outcome, whether the pool is closed after it, and the outcome of an {@code execute} after it.
 */
final class AReleaseTimeoutClosesThePoolOnceProbe {
    private AReleaseTimeoutClosesThePoolOnceProbe() {
    }

    public static void main(String[] args) throws Exception {
        WorkerPool pool = args.length > 0 && args[0].equals("multi")
                ? MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.defaults())
                : Pool.newPool(2);
        AtomicReference<String> closer = new AtomicReference<>();
        Thread c = Thread.ofPlatform().name("probe-closer").start(() -> {
            try {
                // the timeout plays no part: the defect's second close came before the core's wait, whatever its
                // length; correct, the wait on the rebooted (open) pool runs out, so a short one saves that time
                pool.releaseTimeout(Duration.ofMillis(200));
                closer.set("returned");
            } catch (Throwable t) {
                closer.set(t.toString());
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!pool.isClosed()) {
            check(System.nanoTime() < deadline, "the closer never closed the pool");
            Thread.onSpinWait();
        }
        pool.reboot();
        System.out.println("REBOOTED closed=" + pool.isClosed());
        System.out.println("OUTCOME rebooted");
        System.out.flush();
        check(c.join(Duration.ofSeconds(30)), "the closer never returned");
        System.out.println("CLOSER " + closer.get());
        System.out.println("AFTER closed=" + pool.isClosed());
        CountDownLatch ran = new CountDownLatch(1);
        String submit;
        try {
            if (pool instanceof MultiPool m) {
                m.execute(ran::countDown);
            } else {
                ((Pool) pool).execute(ran::countDown);
            }
            submit = ran.await(30, TimeUnit.SECONDS) ? "ran" : "accepted, never ran";
        } catch (RejectedExecutionException e) {
            submit = e.toString();
        }
        System.out.println("SUBMIT " + submit);
        pool.release();
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
