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
 * <p>{@code AbstractWorkerPool.releaseTimeout} calls {@code release()} and then {@code core.releaseTimeout}, which
 * ({@code PoolCore} and {@code MultiPoolCore} alike) calls {@code release()} again. A {@code reboot()} on another
 * thread that comes between the two (once the pool shows closed) is undone by the second close: one
 * {@code releaseTimeout} closes the pool twice, and the reopened pool, which no later release closed, refuses
 * submissions with {@code PoolClosedException} (and this second close skips the release's JFR bookkeeping). The
 * interleaving is forced by a JDI breakpoint that holds only the closing thread between the two calls, as a
 * preemption there would (harness: {@link AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest}).
 */
@Timeout(180)
class AReleaseTimeoutClosesThePoolOnceTest {

    /** AbstractWorkerPool.releaseTimeout's second step, after its own release(). */
    private static final String AFTER_THE_FIRST_RELEASE = "        core.releaseTimeout(timeout);";

    @Test
    void aRebootAfterAReleaseTimeoutClosedThePoolIsNotUndoneByThatReleaseTimeout() throws Exception {
        assertStaysOpen("pool");
    }

    @Test
    void aRebootAfterAMultiPoolsReleaseTimeoutClosedItIsNotUndoneByThatReleaseTimeout() throws Exception {
        assertStaysOpen("multi");
    }

    private static void assertStaysOpen(String kind) throws Exception {
        List<String> out = AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.runUnderDebugger(
                AReleaseTimeoutClosesThePoolOnceProbe.class, AbstractWorkerPool.class, "probe-closer",
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
