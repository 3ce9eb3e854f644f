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
 * {@code MultiPool.awaitTermination} racing a reboot that fails part-way returns true while threads
 * that the failed reboot started in a sub-pool it had already awaited are alive ({@link
 * MultiPoolFailedRebootAwaitProbe}, in a JVM of its own whose virtual-thread scheduler has one carrier, so that a
 * stopped virtual purger stays alive as long as a spinning virtual thread holds that carrier).
 */
class MultiPoolFailedRebootAwaitTest {

    @Test
    void awaitTerminationRacingAFailedRebootReturnsTrueOnlyWhenEveryThreadEnded() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Stream.of(PoolCore.class, SpinLock.class, NanoClock.class,
                        MultiPoolFailedRebootAwaitProbe.class)
                .map(MultiPoolFailedRebootAwaitTest::location).distinct()
                .collect(Collectors.joining(File.pathSeparator));
        Process p = new ProcessBuilder(java, "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1", "-cp", classPath,
                MultiPoolFailedRebootAwaitProbe.class.getName())
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
