package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

/**
 * CHANGELOG (Unreleased, Fixed): a {@code MultiPool.reboot()} that fails part-way releases again the
 * sub-pools it reopened, "and an {@code awaitTermination} under way waits for the threads those sub-pools started
 * (it could return true while they were alive)". {@link WorkerPool#awaitTermination}: "Blocks until the pool has
 * terminated and every thread of it has ended (workers, purger and ticker ...)".
 *
 * <p>The failing reboot counts itself in {@code reboots} only after its undo has released the reopened sub-pools
 * again; a wait under way that finishes its walk over the sub-pools before that increment still reads the old
 * count and returns true, though a sub-pool it had already awaited was reopened meanwhile and runs a purger and a
 * ticker (here: is still open). The window is made wide and deterministic: sub-pool 0's ticker, started by the
 * failing reboot, holds sub-pool 0's lock in its clock, so the undo's release of sub-pool 0 (and the increment
 * after it) waits; the waiter had passed sub-pool 0 before the reboot and waits in sub-pool 1 for an exited worker
 * thread, which the test lets end once sub-pool 1's reboot has failed.
 */
class MultiPoolFailingRebootAwaitWindowTest {

    /** Sub-pool 0's clock: once armed, the first background thread to read it blocks (holding sub-pool 0's lock). */
    static final class BlockingClock implements NanoClock {
        volatile boolean armed;
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch unblock = new CountDownLatch(1);
        volatile Thread blockedThread;

        @Override
        public long nanoTime() {
            String n = Thread.currentThread().getName();
            if (armed && (n.endsWith("-ticker") || n.endsWith("-purger"))) {
                armed = false; // only the first one blocks; the others then wait for the lock it holds
                blockedThread = Thread.currentThread();
                blocked.countDown();
                try {
                    unblock.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return System.nanoTime();
        }
    }

    /** Sub-pool 1's clock: once armed, the reboot that reads it waits for sub-pool 0's ticker to block, then fails. */
    static final class FailingAfterClock implements NanoClock {
        volatile boolean armed;
        final CountDownLatch first;

        FailingAfterClock(CountDownLatch first) {
            this.first = first;
        }

        @Override
        public long nanoTime() {
            if (armed) {
                try {
                    first.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new OutOfMemoryError("injected: sub-pool 1 reboot out of memory");
            }
            return System.nanoTime();
        }
    }

    @Test
    void awaitTerminationUnderWayDoesNotReturnTrueWhileAFailingRebootHasASubPoolOpen() throws Exception {
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, PoolOptions.defaults());
        CountDownLatch threadEnd = new CountDownLatch(1);
        ThreadFactory lingering = r -> Thread.ofPlatform().daemon(true).name("lingering-worker").unstarted(() -> {
            r.run();
            try { // the worker has exited (its count given back); its thread lingers until the test lets it end
                threadEnd.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        BlockingClock clock0 = new BlockingClock();
        PoolCore[] pools = SubPools.of(multi);
        replace(multi, 0, PoolOptions.builder().expiryDuration(Duration.ofMillis(10)).build(), clock0);
        FailingAfterClock clock1 = new FailingAfterClock(clock0.blocked);
        replace(multi, 1, PoolOptions.builder().threadFactory(lingering).disablePurge(true).build(), clock1);
        AtomicReference<Boolean> result = new AtomicReference<>();
        AtomicReference<Boolean> subPool0OpenAtReturn = new AtomicReference<>();
        AtomicReference<Throwable> rebootFailure = new AtomicReference<>();
        Thread waiter = null;
        Thread rebooter = null;
        try {
            CountDownLatch firstMayEnd = new CountDownLatch(1);
            CountDownLatch firstRuns = new CountDownLatch(1);
            multi.execute(() -> { // round robin: sub-pool 0; busy, so the next task cannot take it in the lane
                firstRuns.countDown();
                TestSupport.block(firstMayEnd);
            });
            TestSupport.await(firstRuns);
            CountDownLatch secondRan = new CountDownLatch(1);
            multi.execute(secondRan::countDown); // sub-pool 1: a lingering platform worker
            TestSupport.await(secondRan);
            firstMayEnd.countDown();
            assertTrue(multi.running(1) == 1, multi::toString);
            multi.release();
            assertTrue(pools[0].awaitTermination(TimeUnit.SECONDS.toNanos(10)), "sub-pool 0: " + pools[0]);

            waiter = new Thread(() -> {
                try {
                    result.set(multi.awaitTermination(20, TimeUnit.SECONDS));
                    subPool0OpenAtReturn.set(!pools[0].isClosed());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "awaiter");
            waiter.start();
            Thread w = waiter;
            // past sub-pool 0 (terminated, its threads ended), joining sub-pool 1's lingering worker thread
            TestSupport.eventually("the waiter joins sub-pool 1's exited worker thread",
                    () -> Arrays.stream(w.getStackTrace()).anyMatch(f -> f.getMethodName().equals("join")),
                    () -> Arrays.toString(w.getStackTrace()));

            clock0.armed = true;
            clock1.armed = true;
            rebooter = new Thread(() -> {
                try {
                    multi.reboot();
                } catch (Throwable t) {
                    rebootFailure.set(t);
                }
            }, "rebooter");
            rebooter.start();
            TestSupport.await(clock0.blocked); // sub-pool 0 reopened: its ticker (or purger) runs, and now holds its lock
            threadEnd.countDown(); // sub-pool 1's last thread ends: the waiter may finish its walk

            // Negative wait: with the defect the waiter, its join over, reads the old reboot count and returns true
            // within microseconds; correct, it waits for the reboot held up until the finally below. 1 s is ample.
            waiter.join(TimeUnit.SECONDS.toMillis(1));
            assertFalse(Boolean.TRUE.equals(result.get()),
                    "MultiPool.awaitTermination returned true while the reboot under way (which then fails) had"
                            + " sub-pool 0 open with its purger and ticker alive: sub-pool 0 open at the return = "
                            + subPool0OpenAtReturn.get() + ", its blocked background thread " + clock0.blockedThread
                            + " alive = " + clock0.blockedThread.isAlive() + "; sub-pool 0: " + pools[0]);
        } finally { // (multi's toString would wait for the stuck reboot: it takes the life-cycle lock)
            clock0.armed = false;
            threadEnd.countDown();
            clock0.unblock.countDown();
            if (rebooter != null) {
                rebooter.join(10_000);
            }
            clock1.armed = false;
            clock0.armed = false;
            if (waiter != null) {
                waiter.join(30_000);
            }
            multi.release();
            assertTrue(multi.awaitTermination(10, TimeUnit.SECONDS), multi::toString);
        }
        assertTrue(rebootFailure.get() instanceof OutOfMemoryError, "the injected failure: " + rebootFailure.get());
    }

    /** Replaces sub-pool {@code i} by one of capacity 1 with {@code options} and {@code clock}, same runner and lane. */
    private static void replace(MultiPool multi, int i, PoolOptions options, NanoClock clock)
            throws ReflectiveOperationException {
        SubPools.replace(multi, i, 1, options, SubPools.lane(multi), clock);
    }
}
