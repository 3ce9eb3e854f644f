package io.ants4j.pool;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link ACloseFromATaskIsWokenWhenTheLastOtherTaskEndsBesideAWorkerSpinningInTheLaneTest#underADebugger} in a
 * JVM of its own, with the production lane, under a debugger that holds the first worker thread named
 * {@code probe-worker-*} that reaches the spin loop's read of the slot (the interleaving an operating system may
 * produce by preempting that thread there). A pool (or a multi-pool of one sub-pool) of three platform workers: task
 * c closes the pool ({@code close()}, or {@code releaseTimeout(30 s)}) while tasks x and y run; the pool is rebooted
 * while c waits; y ends and its worker enters the lane (held there, idle); x ends and its worker goes idle on the
 * queue. No task but c is left: prints {@code OUTCOME returned} if c's call returned within 5 s, else
 * {@code OUTCOME still waiting}, then, once the debugger let the spinner go, whether c returned and the pool
 * terminated.
 */
final class ACloseFromATaskBesideASpinnerProbe {
    private ACloseFromATaskBesideASpinnerProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean multi = args[0].equals("multi");
        boolean releaseTimeout = args[1].equals("releaseTimeout");
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).name("probe-worker-", 0).factory()).build();
        AbstractPoolExecutor pool = multi
                ? MultiPool.newMultiPool(1, 3, LoadBalancing.ROUND_ROBIN, options)
                : Pool.newPool(3, options);
        CountDownLatch closerRunning = new CountDownLatch(1);
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Thread> closer = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        pool.execute(() -> {
            closer.set(Thread.currentThread());
            closerRunning.countDown();
            try {
                check(closeNow.await(60, TimeUnit.SECONDS), "c never told to close");
                if (releaseTimeout) {
                    pool.releaseTimeout(Duration.ofSeconds(30));
                } else {
                    pool.close();
                }
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                done.countDown();
            }
        });
        check(closerRunning.await(30, TimeUnit.SECONDS), "c never ran");
        CountDownLatch othersRun = new CountDownLatch(2);
        CountDownLatch xMayEnd = new CountDownLatch(1);
        CountDownLatch yMayEnd = new CountDownLatch(1);
        pool.execute(() -> {
            othersRun.countDown();
            await(xMayEnd);
        });
        pool.execute(() -> {
            othersRun.countDown();
            await(yMayEnd);
        });
        check(othersRun.await(30, TimeUnit.SECONDS), "x and y never ran");
        closeNow.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(pool.isClosed() && closer.get().getState() == Thread.State.TIMED_WAITING
                && Arrays.stream(closer.get().getStackTrace()).anyMatch(f -> f.getMethodName().equals("awaitOnlyClosers")))) {
            check(System.nanoTime() < deadline, "c never waited for x and y: " + pool);
            Thread.onSpinWait();
        }
        pool.reboot();
        yMayEnd.countDown();
        while (pool.idle() < 1) { // y's worker in the lane (held by the debugger in its spin loop)
            check(System.nanoTime() < deadline, "y's worker never went idle: " + pool);
            Thread.onSpinWait();
        }
        xMayEnd.countDown();
        while (pool.idle() < 2) { // x's worker on the idle queue: no task but c's is left
            check(System.nanoTime() < deadline, "x's worker never went idle: " + pool);
            Thread.onSpinWait();
        }
        System.out.println("STATE before: " + pool + " inLanes=" + SpinningWorkers.inLanes());
        boolean returned = done.await(5, TimeUnit.SECONDS);
        Throwable t = thrown.get();
        System.out.println("STATE after: " + pool);
        System.out.println("OUTCOME " + (!returned ? "still waiting 5 s after the last other task ended"
                : t == null ? "returned" : t.toString()));
        System.out.flush();
        // the debugger lets the spinner go once it has read OUTCOME
        System.out.println("CLOSER " + (done.await(30, TimeUnit.SECONDS)
                ? (thrown.get() == null ? "returned" : thrown.get().toString()) : "never returned"));
        pool.release();
        System.out.println("TERMINATED " + pool.awaitTermination(30, TimeUnit.SECONDS));
        System.out.flush();
    }

    private static void await(CountDownLatch latch) {
        try {
            check(latch.await(60, TimeUnit.SECONDS), "a task's latch never opened");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("PROBE FAILED: " + what);
            System.out.flush();
            System.exit(2);
        }
    }
}
