package io.ants4j.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The audit of {@code sun.misc.Unsafe} calls in the JMH forks' output. */
class UnsafeFilterTest {

    private static final String WARNING = "WARNING: sun.misc.Unsafe::objectFieldOffset called by ";

    @Test
    void reportsACallerOutsideJmh() throws IOException {
        Set<String> violations = filter(WARNING + "io.ants4j.pool.Example (file:/b.jar)\n");
        assertEquals(Set.of("objectFieldOffset by io.ants4j.pool.Example"), violations);
    }

    @Test
    void dropsJmhsOwnCallsAndKeepsTheRestOfTheLog() throws IOException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Set<String> violations = filter(log, WARNING + "org.openjdk.jmh.util.Utils (file:/b.jar)\n"
                + "\tat org.openjdk.jmh.util.Utils.<clinit>(Utils.java:1)\n"
                + "Iteration   1: 10.3 ns/op\n");
        assertTrue(violations.isEmpty(), violations.toString());
        assertEquals("Iteration   1: 10.3 ns/op\n", log.toString(StandardCharsets.UTF_8));
    }

    /** JMH prints an iteration's label before its result, so the label can land inside the fork's warning line. */
    @Test
    void jmhProgressInsideTheCallersNameIsNotACaller() throws IOException {
        Set<String> violations = filter(
                WARNING + "org.openjdk.# Warmup Iteration   1: jmh.util.Utils (file:/b.jar)\n"
                + WARNING + "o# Warmup Iteration   1: rg.openjdk.jmh.util.Utils (file:/b.jar)\n"
                + WARNING + "io.ants4j.# Iteration   2: pool.Example (file:/b.jar)\n");
        assertEquals(Set.of("objectFieldOffset by io.ants4j.pool.Example"), violations);
    }

    private static Set<String> filter(String forkOutput) throws IOException {
        return filter(new ByteArrayOutputStream(), forkOutput);
    }

    private static Set<String> filter(ByteArrayOutputStream log, String forkOutput) throws IOException {
        Suite.UnsafeFilter f = new Suite.UnsafeFilter(log);
        f.write(forkOutput.getBytes(StandardCharsets.UTF_8));
        f.flush();
        return f.violations;
    }
}
