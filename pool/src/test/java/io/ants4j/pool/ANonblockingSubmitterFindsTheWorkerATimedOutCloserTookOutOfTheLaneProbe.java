package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneTest} in a JVM of its own, under
 * the debugger of {@link AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest}, which holds the worker
 * thread {@code probe-worker-*} that enters the fast lane right after its entry CAS. A non-blocking pool of two
 * platform workers: task c calls {@code releaseTimeout(5 s)} while task r runs; the pool is rebooted; r ends, and
 * its worker w enters the lane (held there). At its deadline c's wait takes w out of the lane (withdrawing for its
 * pool) and returns; c's task then stays busy. With w idle ({@code idle() == 1}), a submitter s calls
 * {@code execute}. Prints {@code C <outcome>}, {@code IDLE <n>}, {@code OUTCOME <s's outcome>}, then whether the
 * pool terminated once the debugger let w go.
 */
final class ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneProbe {
    private ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneProbe() {
    }

    public static void main(String[] args) throws Exception {
        PoolOptions options = PoolOptions.builder().disablePurge(true).nonblocking(true)
                .threadFactory(Thread.ofPlatform().daemon(true).name("probe-worker-", 0).factory()).build();
        Pool pool = Pool.newPool(2, options);
        CountDownLatch rRuns = new CountDownLatch(1);
        CountDownLatch rEnds = new CountDownLatch(1);
        CountDownLatch cRuns = new CountDownLatch(1);
        CountDownLatch cTimedOut = new CountDownLatch(1);
        CountDownLatch cEnds = new CountDownLatch(1);
        AtomicReference<String> cOutcome = new AtomicReference<>();
        pool.execute(() -> { // r
            rRuns.countDown();
            await(rEnds, "r never told to end");
        });
        check(rRuns.await(30, TimeUnit.SECONDS), "r never ran");
        pool.execute(() -> { // c
            cRuns.countDown();
            try {
                pool.releaseTimeout(Duration.ofSeconds(5));
                cOutcome.set("returned");
            } catch (Throwable t) {
                cOutcome.set(t.toString());
            }
            cTimedOut.countDown();
            await(cEnds, "c never told to end");
        });
        check(cRuns.await(30, TimeUnit.SECONDS), "c never ran");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        java.lang.reflect.Field closeWaits = PoolCore.class.getDeclaredField("closeWaits");
        closeWaits.setAccessible(true);
        PoolCore core = Probe.cores(pool).get(0);
        while (closeWaits.getInt(core) == 0) { // c waits for r (past its releaseTimeout's second release)
            check(System.nanoTime() < deadline, "c never waited for r: " + pool);
            Thread.onSpinWait();
        }
        pool.reboot(); // c goes on waiting for r in the reopened pool
        rEnds.countDown();
        while (pool.idle() != 1) { // r's worker w in the lane (held by the debugger right after its entry)
            check(System.nanoTime() < deadline, "r's worker never went idle: " + pool);
            Thread.onSpinWait();
        }
        check(cTimedOut.await(30, TimeUnit.SECONDS), "c's releaseTimeout never returned");
        System.out.println("C " + cOutcome.get());
        System.out.println("IDLE " + pool.idle() + " running=" + pool.running() + " closed=" + pool.isClosed());
        String s;
        CountDownLatch xRan = new CountDownLatch(1);
        try {
            pool.execute(xRan::countDown);
            s = "accepted";
        } catch (RejectedExecutionException e) {
            s = e.toString();
        }
        System.out.println("OUTCOME " + s);
        System.out.flush();
        // the debugger lets w go once it has read OUTCOME
        cEnds.countDown();
        if (s.equals("accepted")) {
            check(xRan.await(30, TimeUnit.SECONDS), "x accepted but never ran");
        }
        pool.release();
        System.out.println("TERMINATED " + pool.awaitTermination(30, TimeUnit.SECONDS));
        System.out.flush();
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            check(latch.await(60, TimeUnit.SECONDS), what);
        } catch (InterruptedException e) {
            check(false, what + ": interrupted");
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
