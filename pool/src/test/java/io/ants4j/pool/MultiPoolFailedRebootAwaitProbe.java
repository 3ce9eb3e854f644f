package io.ants4j.pool;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link MultiPoolFailedRebootAwaitTest} in a JVM whose virtual-thread scheduler has one
 * carrier: {@code MultiPool.awaitTermination} must return true only once every thread of the multi-pool has
 * ended, "also those started before a reboot()". A thread waits for the termination of a released multi-pool:
 * sub-pool 0 has terminated (all its threads ended), sub-pool 1 still runs a task. A reboot then fails at
 * sub-pool 1, after sub-pool 0 has started a new purger and ticker (virtual threads, which cannot run while a
 * spinning virtual thread holds the one carrier) and been released again. The task of sub-pool 1 ends. Prints
 * {@code OK} last if the wait returned false or returned true with no thread of the multi-pool alive.
 */
final class MultiPoolFailedRebootAwaitProbe {
    private MultiPoolFailedRebootAwaitProbe() {
    }

    public static void main(String[] args) throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("probe").expiryDuration(Duration.ofSeconds(1)).build());
        PoolOptions platform = PoolOptions.builder()
                .threadFactory(Thread.ofPlatform().daemon(true).name("probe-1-worker").factory())
                .disablePurge(true).build();
        MultiPoolFailedRebootTest.FailingClock clock =
                MultiPoolFailedRebootTest.failingSubPool(multi, 1, 1, platform);
        PoolCore[] pools = SubPools.of(multi);
        CountDownLatch holdEnds = new CountDownLatch(1);
        CountDownLatch holdRuns = new CountDownLatch(1);
        multi.execute(() -> { }); // round robin: sub-pool 0 (a virtual worker)
        long setup = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pools[0].queued() != 1) { // off the shared fast lane, where it could take the next task
            check(System.nanoTime() < setup, "sub-pool 0's worker never went idle");
            Thread.onSpinWait();
        }
        multi.execute(() -> { // sub-pool 1 (a platform worker)
            holdRuns.countDown();
            try {
                holdEnds.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        check(holdRuns.await(10, TimeUnit.SECONDS), "the task of sub-pool 1 never ran");
        check(multi.running(1) == 1, "the held task does not run on sub-pool 1: " + multi);
        multi.release();
        check(pools[0].awaitTermination(TimeUnit.SECONDS.toNanos(10)), "sub-pool 0 did not terminate");

        AtomicReference<Boolean> spinning = new AtomicReference<>(false);
        AtomicReference<Boolean> stop = new AtomicReference<>(false);
        Thread spinner = Thread.ofVirtual().start(() -> {
            spinning.set(true);
            while (!stop.get()) {
                Thread.onSpinWait();
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!spinning.get()) {
            check(System.nanoTime() < deadline, "the spinner never ran");
            Thread.onSpinWait();
        }

        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                result.set(multi.awaitTermination(3, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                result.set(null);
            }
        });
        while (waiter.getState() != Thread.State.TIMED_WAITING) { // in sub-pool 1's wait: sub-pool 0 is done
            check(System.nanoTime() < deadline, "the waiter never waited");
            Thread.onSpinWait();
        }
        clock.armed = true;
        Throwable rebootFailure = null;
        try {
            multi.reboot();
        } catch (OutOfMemoryError e) {
            rebootFailure = e;
        }
        clock.armed = false;
        check(rebootFailure != null, "the injected reboot failure did not happen");
        check(multi.isClosed(), "the failed reboot left the multi-pool open");
        holdEnds.countDown();
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        check(!waiter.isAlive(), "awaitTermination did not return");
        boolean subPool0ThreadsEnded = pools[0].awaitTermination(0L);
        boolean againAtOnce = multi.awaitTermination(0, TimeUnit.SECONDS);
        stop.set(true);
        spinner.join(10_000);
        System.out.println("awaitTermination returned " + result.get() + "; then: sub-pool 0's threads ended "
                + subPool0ThreadsEnded + ", awaitTermination(0) " + againAtOnce);
        check(!Boolean.TRUE.equals(result.get()) || subPool0ThreadsEnded,
                "MultiPool.awaitTermination returned true while the purger/ticker that the failed reboot started in"
                        + " sub-pool 0 (stopped by its undo) were alive");
        check(!Boolean.TRUE.equals(result.get()) || againAtOnce,
                "awaitTermination returned true, then awaitTermination(0) false, with no successful reboot between");
        System.out.println("OK");
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL: " + what);
            System.exit(1);
        }
    }
}
