package io.ants4j.systematic.sweep;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDK hazard behind the sweep's intermittent hang of {@code Pool.invokeAll (platform workers)}, and the
 * sweep JVM's guard against it ({@link SweepMain#linkFutureCompletion()}): each case runs
 * {@link FutureCompletionProbe} in a fresh JVM set up as a sweep JVM.
 */
class FutureCompletionLinkTest {

    /**
     * In a JVM where no {@code FutureTask} has yet completed while a thread waited for it, completing one on an
     * exhausted heap throws {@link OutOfMemoryError} (the JDK links a {@code VarHandle} access mode of a new type
     * on first use, which allocates) after the task counts as done, and the thread waiting in {@code get()} is
     * never woken. Checked so that the guard below keeps a reason: if this fails, the JDK no longer loses the
     * wake-up and {@code linkFutureCompletion} can go.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aFirstCompletionOnAnExhaustedHeapLeavesItsWaiterParked() throws Exception {
        String out = probe("bare");
        assertTrue(out.startsWith("parked"), "the JDK woke the waiter: " + out);
    }

    /** A sweep JVM links those paths with memory to spare before it sweeps: the waiter is woken. */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aSweepJvmWakesTheWaiterOfACompletionOnAnExhaustedHeap() throws Exception {
        String out = probe("prepared");
        assertTrue(out.startsWith("woken"), "the waiter of a task completed on an exhausted heap " + out);
    }

    private static String probe(String mode) throws Exception {
        Process p = new ProcessBuilder(AllocationFailureSweepTest.sweepJvm(FutureCompletionProbe.class, mode))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(1, TimeUnit.MINUTES), "the probe JVM did not end");
        return out.lines().reduce((first, last) -> last).orElse("no output");
    }
}
