package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chan javadoc: "A waiter that the JDK cannot unpark ... is lost alone: the send, receive or close that chose it is
 * done and returns normally." Each case runs {@link LostWaiterProbe} in a JVM of its own.
 */
class LostWaiterTest {
    @ParameterizedTest
    @ValueSource(strings = {"close", "send", "receive"})
    void anOperationThatClaimsALostWaiterIsDoneAndReturnsNormally(String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(LostWaiterProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", classPath, LostWaiterProbe.class.getName(), probe)
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }
}
