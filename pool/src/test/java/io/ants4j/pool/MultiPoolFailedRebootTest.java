package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

/**
 * A {@link MultiPool} reboot that fails part-way ("releases again the sub-pools it reopened") must
 * leave the multi-pool as it was: closed, and, after {@code shutdownNow()}, still stopping. The failure is
 * injected by giving sub-pool 1 a clock that throws {@link OutOfMemoryError} once armed, the first thing its
 * {@code reboot()} reads, as a reboot out of memory (or out of native threads for its purger) would fail there.
 */
class MultiPoolFailedRebootTest {

    /** A clock that fails once armed: the reboot of the sub-pool that reads it throws, as out of memory. */
    static final class FailingClock implements NanoClock {
        volatile boolean armed;

        @Override
        public long nanoTime() {
            if (armed) {
                throw new OutOfMemoryError("injected: sub-pool reboot out of memory");
            }
            return System.nanoTime();
        }
    }

    /**
     * Replaces sub-pool {@code i} of {@code multi} by a sub-pool of capacity {@code size} with the same runner and
     * the shared lane, whose reboot fails once the clock returned is armed.
     */
    static FailingClock failingSubPool(AbstractWorkerPool multi, int i, int size, PoolOptions options)
            throws ReflectiveOperationException {
        FailingClock clock = new FailingClock();
        SubPools.replace(multi, i, size, options, SubPools.lane(multi), clock);
        return clock;
    }

    /** Platform workers whose thread, once started, waits for {@code gate} before it runs the worker. */
    private static ThreadFactory gatedWorkers(CountDownLatch gate) {
        return r -> Thread.ofPlatform().daemon(true).name("gated-worker").unstarted(() -> {
            boolean interrupted = false;
            for (;;) {
                try {
                    if (gate.await(30, TimeUnit.SECONDS)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt(); // as it was: shutdownNow interrupted this worker
            }
            r.run();
        });
    }

    /**
     * {@code shutdownNow()}: "A task that starts after this call and before a {@code reboot()} (one that was
     * handed over as the pool closed) starts interrupted." {@code WorkerPool.reboot()}: "A reboot that throws
     * ... leaves the pool closed, as a whole". Task x is handed to a new worker of sub-pool 0 whose thread has
     * not reached the task yet; {@code shutdownNow()}; a reboot fails at sub-pool 1, which leaves the multi-pool
     * closed; then x starts. It must start interrupted, as it does without the failed reboot (the control case
     * below); the failed reboot cleared sub-pool 0's stop mark and its undo, a plain release, did not set it
     * again.
     */
    @Test
    void aTaskStartingAfterShutdownNowAndAFailedRebootStartsInterrupted() throws Exception {
        assertTrue(startsInterrupted(true), "x started with its interrupt status clear after shutdownNow(); "
                + "the only reboot since failed and left the multi-pool closed");
    }

    /** Control: the same without the failed reboot; x starts interrupted (this one passes). */
    @Test
    void controlATaskStartingAfterShutdownNowStartsInterrupted() throws Exception {
        assertTrue(startsInterrupted(false), "control: x started with its interrupt status clear");
    }

    private static boolean startsInterrupted(boolean failedReboot) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        PoolOptions options = PoolOptions.builder().threadFactory(gatedWorkers(gate)).disablePurge(true).build();
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options);
        try {
            FailingClock clock = failingSubPool(multi, 1, 1, options);
            AtomicReference<Boolean> interruptedAtStart = new AtomicReference<>();
            CountDownLatch xStarted = new CountDownLatch(1);
            multi.execute(() -> { // round robin: sub-pool 0, a new worker, gated
                interruptedAtStart.set(Thread.currentThread().isInterrupted());
                xStarted.countDown();
            });
            assertTrue(multi.running(0) == 1, multi::toString);
            multi.shutdownNow();
            if (failedReboot) {
                clock.armed = true;
                assertThrows(OutOfMemoryError.class, multi::reboot);
                clock.armed = false;
                assertTrue(multi.isClosed(), "the failed reboot left the multi-pool open: " + multi);
            }
            gate.countDown();
            assertTrue(xStarted.await(10, TimeUnit.SECONDS), "x never started: " + multi);
            return interruptedAtStart.get();
        } finally {
            gate.countDown();
            multi.release();
            assertTrue(multi.awaitTermination(10, TimeUnit.SECONDS), multi::toString);
        }
    }
}
