package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own with a small heap ({@link APoolsPurgerRetiresIdleWorkersAfterAFullHeapTest}). A pool
 * whose purger runs every 10 ms lives through moments of full heap (60 of 5 ms each, the heap let go in between),
 * then runs one task: its worker, idle after it, must be retired within a few periods (Pool's javadoc: "a
 * background purger retires workers idle for longer than" the expiry). The purger sleeps with
 * {@code LockSupport.parkNanos}; a virtual purger's wake-up is a task of the JDK's timer, whose unpark on a full
 * heap throws an {@code OutOfMemoryError} the timer swallows ({@code ForkJoinTask.doExec}): the purger stays
 * parked for good, and no idle worker is retired again until the pool is released. Prints {@code OK} if the idle
 * worker is retired within 10 s. {@code virtual}: the default (virtual) workers, purger and ticker;
 * {@code platform}: a platform thread factory (the control).
 */
final class PurgerAfterAFullHeapProbe {
    private static final long FULL_NANOS = Duration.ofMillis(5).toNanos();
    private static final int FULL_TIMES = 60;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private PurgerAfterAFullHeapProbe() {
    }

    public static void main(String[] args) throws Exception {
        PoolOptions.Builder options = PoolOptions.builder().expiryDuration(Duration.ofMillis(10));
        if (args[0].equals("platform")) {
            options.threadFactory(Thread.ofPlatform().daemon(true).factory());
        }
        Pool pool = Pool.newPool(4, options.build());
        pool.submit(() -> { }).get(WAIT.toMillis(), TimeUnit.MILLISECONDS); // the worker kind is known: purger on
        for (int full = 0; full < FULL_TIMES; full++) {
            LifecycleOutOfMemoryProbe.fillHeap();
            long until = System.nanoTime() + FULL_NANOS;
            while (System.nanoTime() - until < 0L) {
                Thread.onSpinWait();
            }
            LifecycleOutOfMemoryProbe.freeHeap();
            until = System.nanoTime() + FULL_NANOS;
            while (System.nanoTime() - until < 0L) {
                Thread.onSpinWait();
            }
        }
        pool.submit(() -> { }).get(WAIT.toMillis(), TimeUnit.MILLISECONDS); // an idle worker for the purger
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (pool.running() != 0 && System.nanoTime() - deadline < 0L) {
            Thread.sleep(10);
        }
        int running = pool.running();
        System.out.println(running == 0 ? "OK" : "FAILED: " + args[0] + " workers: after moments of full heap, a"
                + " worker idle for " + WAIT + " with an expiry of 10 ms is not retired: running " + running);
        System.exit(0);
    }
}
