package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chan.java:33-34: "Blocking operations throw InterruptedException if the thread is interrupted on entry or while it
 * waits"; docs/failures.md:30-32, the project's rule for its waits: "An interruptible wait ... that cannot make its
 * InterruptedException on an exhausted heap throws the OutOfMemoryError with the interrupt status still set, where
 * the JDK's synchronizers lose it." Brief: "interrupts leaking or lost". Chan.await and Select.awaitCases make their
 * InterruptedException after Waiter.await cleared the status: on a full heap the OutOfMemoryError is thrown and the
 * interrupt is gone. Runs {@link AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe} in a JVM of its own (24 MB heap,
 * no TLABs), as the primitives' test of the same name (review 39).
 */
class AWaitInterruptedOnAFullHeapKeepsTheInterruptTest {

    @ParameterizedTest
    @ValueSource(strings = {"receive", "send", "select"})
    void anInterruptedChannelWaitOnAFullHeapKeepsTheInterrupt(String which) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator + Path.of(AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe.class
                        .getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:-UseTLAB",
                "-XX:ActiveProcessorCount=2", "-cp", classPath,
                AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe.class.getName(), which)
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertTrue(ended, "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        String last = out.lines().reduce((a, b) -> b).orElse("");
        assumeFalse(last.startsWith("INCONCLUSIVE"), out);
        assertEquals("OK", last, out);
    }
}
