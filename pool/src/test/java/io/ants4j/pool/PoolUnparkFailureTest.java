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
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A blocked submitter that the JDK cannot unpark (on JDK 21 an {@code OutOfMemoryError} can escape the unpark of a
 * virtual thread; here its scheduler rejects it) is lost alone: the pool's other submitters are answered as its
 * javadoc says. Each case runs {@link PoolUnparkFailureProbe} in a JVM of its own.
 */
@Timeout(120)
class PoolUnparkFailureTest {

    /**
     * WorkerPool.release: "blocked submitters (those counted in waiting()) wake up with PoolClosedException (also
     * when a reboot() follows before they wake: their tasks never run)". Also when waking an earlier one throws.
     */
    @Test
    void releaseAnswersEveryOtherBlockedSubmitterWhenUnparkingOneThrows() throws Exception {
        runProbe("release");
    }

    /**
     * WorkerPool.tune: "Growing serves up to that many more blocked submitters, those that have waited longest
     * first". Also when waking the longest waiter throws.
     */
    @Test
    void growingServesTheNextBlockedSubmitterWhenUnparkingTheFirstThrows() throws Exception {
        runProbe("tune");
    }

    /**
     * AbstractPoolExecutor.shutdownNow: "Releases the pool and interrupts the running tasks". Also when waking a
     * blocked submitter, as the release rejects it, throws.
     */
    @Test
    void shutdownNowInterruptsTheRunningTaskWhenUnparkingABlockedSubmitterThrows() throws Exception {
        runProbe("shutdown-now");
    }

    /**
     * WorkerPool.isTerminated: "it is closed and no worker is left"; WorkerPool.close waits for that. A slot that
     * tune granted to a blocked submitter the JDK cannot unpark starts no worker, so it must not keep a released
     * pool from terminating (CHANGELOG: such a submitter "is lost alone").
     */
    @Disabled("the documented limit (README, Failures): what the pool gave a thread whose unpark threw stays"
            + " its own, and the pool waits for it, since that thread may still run (its scheduler may have queued it)")
    @Test
    void aReleasedPoolTerminatesAfterGrowingGaveASlotToASubmitterItCannotUnpark() throws Exception {
        runProbe("tune-then-release");
    }

    /**
     * WorkerPool.close: "Releases the pool and waits until it has terminated". An idle worker that the release
     * cannot unpark is lost (LostThreads), but the pool has terminated (no worker counted): close must return,
     * not wait a day at a time for a thread that never runs again.
     */
    @Disabled("the documented limit (README, Failures): what the pool gave a thread whose unpark threw stays"
            + " its own, and the pool waits for it, since that thread may still run (its scheduler may have queued it)")
    @Test
    void closeReturnsOnceTerminatedWhenTheIdleWorkerCannotBeUnparked() throws Exception {
        runProbe("close-lost-idle-worker");
    }

    /**
     * WorkerPool.isTerminated: "it is closed and no worker is left". A submit that hands its task to an idle worker
     * the JDK cannot unpark throws, and that worker never runs again: it must not keep the released pool from
     * terminating.
     */
    @Disabled("the documented limit (README, Failures): what the pool gave a thread whose unpark threw stays"
            + " its own, and the pool waits for it, since that thread may still run (its scheduler may have queued it)")
    @Test
    void aReleasedPoolTerminatesAfterASubmitFailedToWakeItsIdleWorker() throws Exception {
        runProbe("hand-off-lost-worker");
    }

    private static void runProbe(String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(PoolCore.class, SpinLock.class, NanoClock.class, PoolUnparkFailureProbe.class)
                .map(PoolUnparkFailureTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
        Process p = new ProcessBuilder(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-XX:ActiveProcessorCount=2", "-cp", classPath, PoolUnparkFailureProbe.class.getName(), probe)
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
