package io.ants4j.benchmarks.million;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolWithFunc;
import io.ants4j.pool.WorkerPool;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Issue 5, benchmark 5, one case in this JVM: {@code tasks} tasks that each sleep {@code sleepMs}
 * (ants' own benchmark: 1,000,000 tasks of 10 ms through a pool of 50,000), submitted by one
 * thread; the clock stops when the last task has counted down. Prints one line
 * {@code RESULT case=... wallMs=... vmHwmKiB=... vmRssKiB=... gcCount=... gcMs=...}; the peak
 * resident set {@code VmHWM} is read from {@code /proc/self/status} at the end.
 *
 * <p>Run by {@link MillionTasksRunner}, one fresh JVM per case and run, same heap flags for all.
 *
 * <pre>java -cp benchmarks.jar io.ants4j.benchmarks.million.MillionTasks CASE [tasks] [sleepMs] [capacity]</pre>
 */
public final class MillionTasks {

    /** The cases, in report order. */
    public enum Case {
        /** {@code Pool.newPool(capacity)}, {@code execute(task)}. */
        pool,
        /** {@code PoolWithFunc.newPool(capacity, fn)}, {@code invoke(latch)}. */
        poolWithFunc,
        /** {@code MultiPool.newMultiPool(10, capacity / 10, ROUND_ROBIN)}. */
        multiPool,
        /** {@code Executors.newVirtualThreadPerTaskExecutor()}: a virtual thread per task, unbounded. */
        virtualThreads,
        /** A virtual thread per task, at most {@code capacity} at once ({@code Semaphore}). */
        virtualThreadsSemaphore,
        /** A fixed {@code ThreadPoolExecutor} of 1,000 platform threads, unbounded queue. */
        threadPoolExecutor1000;
    }

    private MillionTasks() {
    }

    public static void main(String[] args) throws Exception {
        Case c = Case.valueOf(args[0]);
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        long sleepMs = args.length > 2 ? Long.parseLong(args[2]) : 10;
        int capacity = args.length > 3 ? Integer.parseInt(args[3]) : 50_000;

        long start = System.nanoTime();
        run(c, tasks, sleepMs, capacity);
        long wallNanos = System.nanoTime() - start;

        long gcCount = 0;
        long gcMs = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMs += Math.max(0, gc.getCollectionTime());
        }
        System.out.printf(Locale.ROOT,
                "RESULT case=%s tasks=%d sleepMs=%d capacity=%d wallMs=%.1f vmHwmKiB=%d vmRssKiB=%d gcCount=%d gcMs=%d%n",
                c, tasks, sleepMs, capacity, wallNanos / 1e6, status("VmHWM"), status("VmRSS"), gcCount, gcMs);
        System.exit(0); // do not wait for anybody's idle threads
    }

    static void run(Case c, int tasks, long sleepMs, int capacity) throws Exception {
        CountDownLatch latch = new CountDownLatch(tasks);
        Runnable task = () -> {
            sleep(sleepMs);
            latch.countDown();
        };
        switch (c) {
            case pool -> {
                Pool p = Pool.newPool(capacity);
                for (int i = 0; i < tasks; i++) {
                    p.execute(task);
                }
                latch.await();
                release(p);
            }
            case poolWithFunc -> {
                PoolWithFunc<CountDownLatch> p = PoolWithFunc.newPool(capacity, l -> {
                    sleep(sleepMs);
                    l.countDown();
                });
                for (int i = 0; i < tasks; i++) {
                    p.invoke(latch);
                }
                latch.await();
                release(p);
            }
            case multiPool -> {
                int pools = Math.min(10, capacity);
                MultiPool p = MultiPool.newMultiPool(pools, capacity / pools, LoadBalancing.ROUND_ROBIN);
                for (int i = 0; i < tasks; i++) {
                    p.execute(task);
                }
                latch.await();
                release(p);
            }
            case virtualThreads -> {
                try (ExecutorService e = Executors.newVirtualThreadPerTaskExecutor()) {
                    for (int i = 0; i < tasks; i++) {
                        e.execute(task);
                    }
                    latch.await();
                }
            }
            case virtualThreadsSemaphore -> {
                Semaphore permits = new Semaphore(capacity);
                Runnable bounded = () -> {
                    try {
                        task.run();
                    } finally {
                        permits.release();
                    }
                };
                for (int i = 0; i < tasks; i++) {
                    permits.acquire();
                    Thread.ofVirtual().start(bounded);
                }
                latch.await();
            }
            case threadPoolExecutor1000 -> {
                ThreadPoolExecutor e = new ThreadPoolExecutor(1000, 1000, 0, TimeUnit.MILLISECONDS,
                        new LinkedBlockingQueue<>());
                for (int i = 0; i < tasks; i++) {
                    e.execute(task);
                }
                latch.await();
                e.shutdown();
            }
            default -> throw new IllegalArgumentException(c.name());
        }
    }

    private static void release(WorkerPool p) {
        p.release(); // the clock has stopped; System.exit ends whatever is left
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A {@code kB} field of {@code /proc/self/status} (Linux), -1 where there is none. */
    static long status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field + ":")) {
                    String v = line.substring(field.length() + 1).trim();
                    return Long.parseLong(v.split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }
}
