package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SpinLock.java:17-19 (class javadoc): "A virtual thread that still finds the lock held once its backoff has reached
 * the cap sleeps for some microseconds between attempts instead of yielding, so that a holder that was unmounted
 * inside its critical section gets a carrier again; spinning virtual threads never starve it." SpinLock.java:127-129
 * ({@code SpinLock(int)}): "the largest number of yields between two attempts ... any {@code int} up to
 * {@link Integer#MAX_VALUE} is honoured". The sleep comes only at the cap: before it, a virtual spinner yields
 * 1 + 2 + 4 + ... + maxBackoff times, and a yielded virtual thread goes back to its carrier's local queue, which the
 * carrier serves before the holder resubmitted from outside. With a large cap that is seconds to minutes (about
 * 100 ns a yield here; 2^24 kept the holder off its carrier about 3.4 s, {@code Integer.MAX_VALUE} takes minutes), so
 * spinning virtual threads do starve the holder, and every spinner with it. Runs
 * {@link SpinLockLargeBackoffStarvationProbe} in a JVM of its own with one carrier
 * ({@code jdk.virtualThreadScheduler.parallelism=1}); the default cap (16) is the control and passes.
 */
class AVirtualHolderIsNotStarvedBySpinnersOfALargeBackoffSpinLockTest {

    @ParameterizedTest(name = "maxBackoff={0}")
    @ValueSource(ints = {16, Integer.MAX_VALUE})
    void aHolderUnmountedInsideItsSectionGetsACarrierWhileAVirtualThreadSpins(int maxBackoff) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(SpinLock.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(SpinLockLargeBackoffStarvationProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1", "-XX:ActiveProcessorCount=2",
                "-cp", classPath, SpinLockLargeBackoffStarvationProbe.class.getName(), Integer.toString(maxBackoff))
                .redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(Threads.TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS), "the probe JVM did not end");
            String out = new String(p.getInputStream().readAllBytes()).strip();
            assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
        } finally {
            p.destroyForcibly();
        }
    }
}
