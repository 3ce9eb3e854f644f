package io.ants4j.pool;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link ACloseFromATaskIsWokenWhenTheLastOtherTaskEndsBesideAWorkerSpinningInTheLaneTest} under
 * {@code ThreadHoldingDebugger} (src/test/jdi): no reboot. A pool of capacity 3, platform threads: task c, tasks x and
 * y. y ends; its worker w passes {@code nextFromLane}'s check (the pool is open) and is held before it takes a
 * token of the lane budget; c closes the pool ({@code close()} or {@code releaseTimeout(30 s)}) and waits for x and
 * w; w is let go and held again just after its entry CAS (its spinning mark in the slot: idle, in the closed pool's
 * lane, as a preemption there would leave it); x ends and its worker retires. No task but c is left: prints
 * {@code OUTCOME returned} if c's call returned within 1 s, else {@code OUTCOME still waiting}.
 */
final class ACloseFromATaskBesideAWorkerEnteringTheLaneOfTheClosedPoolProbe {
    private ACloseFromATaskBesideAWorkerEnteringTheLaneOfTheClosedPoolProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean releaseTimeout = args[0].equals("releaseTimeout");
        int beforeToken = Integer.parseInt(args[1]);
        int justEntered = Integer.parseInt(args[2]);
        DebuggerHolds.listen();
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).name("probe-worker-", 0).factory()).build();
        Pool pool = Pool.newPool(3, options);
        CountDownLatch closerRunning = new CountDownLatch(1);
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Thread> closer = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        pool.execute(() -> {
            closer.set(Thread.currentThread());
            closerRunning.countDown();
            try {
                DebuggerHolds.check(closeNow.await(60, TimeUnit.SECONDS), "c never told to close");
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
        DebuggerHolds.check(closerRunning.await(30, TimeUnit.SECONDS), "c never ran");
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
        DebuggerHolds.check(othersRun.await(30, TimeUnit.SECONDS), "x and y never ran");
        DebuggerHolds.arm("0", beforeToken, "probe-worker-");
        yMayEnd.countDown();
        DebuggerHolds.held("0"); // y's worker w passed nextFromLane's check, the pool open
        closeNow.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(pool.isClosed() && closer.get().getState() == Thread.State.TIMED_WAITING
                && Arrays.stream(closer.get().getStackTrace()).anyMatch(f -> f.getMethodName().equals("awaitOnlyClosers")))) {
            DebuggerHolds.check(System.nanoTime() < deadline, "c never waited for x and w: " + pool);
            Thread.onSpinWait();
        }
        DebuggerHolds.arm("1", justEntered, "probe-worker-");
        DebuggerHolds.release("0");
        DebuggerHolds.held("1"); // w in the lane, its spinning mark in the slot
        int idleWithW = pool.idle();
        xMayEnd.countDown();
        while (pool.running() != 2) { // x's worker retired: c's and w's left
            DebuggerHolds.check(System.nanoTime() < deadline, "x's worker never retired: " + pool);
            Thread.onSpinWait();
        }
        System.out.println("STATE before: " + pool + " (idle with w in the lane: " + idleWithW + ")");
        // Negative wait (the documented limit: c still waits while w is held): were c woken by x's worker's
        // retirement, it would return within milliseconds of it, so 1 s shows it is not.
        boolean returned = done.await(1, TimeUnit.SECONDS);
        Throwable t = thrown.get();
        System.out.println("STATE after: " + pool);
        System.out.println("OUTCOME " + (!returned ? "still waiting 1 s after the last other task ended"
                : t == null ? "returned" : t.toString()));
        System.out.flush();
        System.out.println("CLOSER " + (done.await(30, TimeUnit.SECONDS)
                ? (thrown.get() == null ? "returned" : thrown.get().toString()) : "never returned"));
        System.out.println("TERMINATED " + pool.awaitTermination(30, TimeUnit.SECONDS));
        System.out.flush();
    }

    private static void await(CountDownLatch latch) {
        try {
            DebuggerHolds.check(latch.await(60, TimeUnit.SECONDS), "a task's latch never opened");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
