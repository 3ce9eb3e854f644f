package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SpinLock;
import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;

/**
 * Life-cycle calls of a pool that run out of memory: a reboot or a release that cannot allocate leaves the pool
 * as it was or finishes its work, never half changed. Each case runs {@link LifecycleOutOfMemoryProbe} in a JVM
 * of its own with a small heap, where a thread fills the heap before the call.
 */
class LifecycleOutOfMemoryTest {

    @Test
    void rebootThatRunsOutOfMemoryLeavesThePoolClosedAndCanBeRetried() throws Exception {
        runProbe("reboot");
    }

    @Test
    void releaseWithAFullHeapStopsPurgerTickerAndIdleWorkers() throws Exception {
        runProbe("release");
    }

    /**
     * Stopping an idle worker links {@code Worker.hand}'s {@code VarHandle} call site the first time it runs in
     * a JVM, which allocates: a release that is the first to do so, on a full heap, must still stop the worker.
     */
    @Test
    void releaseThatIsTheFirstToStopAnIdleWorkerStopsItOnAFullHeap() throws Exception {
        runProbe("release-unwarmed");
    }

    /**
     * Likewise for the first hand-off to an idle worker: the worker taken off the idle queue runs the task, or
     * the submitter gets the error and the worker stays usable.
     */
    @Test
    void firstHandOffToAnIdleWorkerOnAFullHeapLeavesTheWorkerUsable() throws Exception {
        runProbe("hand-off-unwarmed");
    }

    /** Likewise for the first grant to a waiting submitter: a release on a full heap answers it. */
    @Test
    void releaseThatIsTheFirstToAnswerAWaitingSubmitterAnswersItOnAFullHeap() throws Exception {
        runProbe("release-waiter-unwarmed");
    }

    /**
     * The first spin of a worker in the JVM links the fast lane's {@code VarHandle} call sites, which allocates:
     * a worker whose first spin comes on a full heap must leave the lane as it found it (PoolCore notes: "every
     * count changed is restored ... giving back a count allocates nothing"; SpinningWorkers: a worker "gives the
     * token back when it withdraws ... or leaves").
     */
    @Test
    void aWorkerWhoseFirstSpinRunsOutOfMemoryLeavesTheFastLaneUsable() throws Exception {
        runProbe("first-spin-unwarmed");
    }

    /**
     * As above, when the lane's entry was linked by a spin that withdrew at once (its pool had a waiter), so that
     * the first slot read of the spin loop links on the full heap, after the worker entered the lane: no task
     * submitted afterwards may be handed to that worker, which is gone (no lost task).
     */
    @Test
    void aWorkerWhoseFirstSpinLoopRunsOutOfMemoryLosesNoLaterTask() throws Exception {
        runProbe("first-spin-loop-unwarmed");
    }

    /**
     * As above, when the spin is linked but no withdrawn worker has reached its pool yet: the revert that takes
     * the worker out of the lane is the first in the JVM, on a full heap. PoolCore.revertWorker: the withdrawing
     * worker "is taken out of it in the same critical section, whatever the outcome (even an exception ...)".
     */
    @Test
    void aWorkerWhoseFirstWithdrawalRunsOutOfMemoryLosesNoLaterTask() throws Exception {
        runProbe("first-withdrawal-unwarmed");
    }

    private static void runProbe(String probe) throws Exception {
        runProbe(LifecycleOutOfMemoryProbe.class, probe);
    }

    /**
     * Runs {@code main}'s probe {@code probe} in a JVM with a 24 MB heap and asserts that it printed {@code OK}
     * last.
     */
    static void runProbe(Class<?> main, String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(PoolCore.class, SpinLock.class, NanoClock.class, main)
                .map(LifecycleOutOfMemoryTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=2",
                "-cp", classPath, main.getName(), probe)
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(90, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertTrue(ended, "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
