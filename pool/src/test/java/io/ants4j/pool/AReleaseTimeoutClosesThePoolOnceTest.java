package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Contracts: WorkerPool (WorkerPool.java:31-36) "Only reboot() goes back: once a pool is closed, it stays closed ...
 * until an explicit reboot(). The transitions (release, reboot, tune, and shutdownNow where there is one) are atomic
 * with respect to each other"; WorkerPool.releaseTimeout (WorkerPool.java:163-164) "Closes the pool like release(),
 * then waits ... On a pool already closed it only waits"; WorkerPool.release "Calling it on a closed pool does
 * nothing".
 *
 * <p>A {@code reboot()} on another thread that comes after {@code releaseTimeout}'s close (once the pool shows
 * closed) stands: the pool stays open and takes submissions. Review 46 found {@code AbstractWorkerPool.releaseTimeout}
 * calling {@code release()} and then the core's {@code releaseTimeout}, which ({@code PoolCore} and
 * {@code MultiPoolCore} alike) called {@code release()} again: one {@code releaseTimeout} closed the pool twice, the
 * second time undoing that reboot (the reopened pool refused submissions with {@code PoolClosedException}), and the
 * second close skipped the release's JFR bookkeeping; the core now only waits ({@code awaitReleased}). The
 * interleaving is forced by a JDI breakpoint that holds only the closing thread between the two calls, as a
 * preemption there would (harness: {@link AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest}).
 */
@Timeout(180)
class AReleaseTimeoutClosesThePoolOnceTest {

    /** AbstractWorkerPool.releaseTimeout's second step, after its own release(). */
    private static final String AFTER_THE_FIRST_RELEASE =
            "        core.awaitReleased(timeout); // closes nothing: a reboot made meanwhile on another thread stands";

    @Test
    void aRebootAfterAReleaseTimeoutClosedThePoolIsNotUndoneByThatReleaseTimeout() throws Exception {
        assertStaysOpen("pool");
    }

    @Test
    void aRebootAfterAMultiPoolsReleaseTimeoutClosedItIsNotUndoneByThatReleaseTimeout() throws Exception {
        assertStaysOpen("multi");
    }

    private static void assertStaysOpen(String kind) throws Exception {
        List<String> out = DebuggedProbes.runHolding(AReleaseTimeoutClosesThePoolOnceProbe.class, AbstractWorkerPool.class, "probe-closer",
                AFTER_THE_FIRST_RELEASE, kind);
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD"), "the debugger never held the closer:\n" + all);
        assertTrue(out.contains("REBOOTED closed=false"), all);
        assertEquals("AFTER closed=false", out.stream().filter(l -> l.startsWith("AFTER ")).findFirst()
                .orElse("AFTER none"), "the pool, rebooted after releaseTimeout had closed it, was closed again by that"
                + " same releaseTimeout:\n" + all);
        assertTrue(out.contains("SUBMIT ran"), "a task submitted to the rebooted pool did not run:\n" + all);
        assertTrue(out.contains("TERMINATED true"), all);
    }
}
