package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SpinLock;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agrona.concurrent.NanoClock;

/**
 * Runs a probe (a class with a {@code main}) in a JVM of its own under {@code src/test/jdi/ThreadHoldingDebugger.java},
 * which holds threads at chosen source lines as a preemption there would (see docs/testing.md, "Preemption at a
 * chosen line"), and names those lines by their text.
 */
final class DebuggedProbes {

    private DebuggedProbes() {
    }

    /**
     * Runs {@code probe}'s main with {@code args} under the debugger, with its {@code debug.*} system properties
     * {@code properties}; returns the output lines (the probe's, and the debugger's {@code HELD} lines).
     */
    static List<String> run(Class<?> probe, Map<String, String> properties, String... args) throws Exception {
        String classPath = Stream.of(PoolCore.class, SpinLock.class, NanoClock.class, probe)
                .map(DebuggedProbes::location).distinct().collect(Collectors.joining(File.pathSeparator));
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java));
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("src/test/jdi/ThreadHoldingDebugger.java", classPath, probe.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean ended = p.waitFor(150, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(ended, "the debugger did not end:\n" + out);
        return out.lines().toList();
    }

    /**
     * Runs {@code probe} under the debugger, holding the first thread named {@code threadPrefix*} that reaches the
     * line of {@code in}'s source that is {@code heldAt}.
     */
    static List<String> runHolding(Class<?> probe, Class<?> in, String threadPrefix, String heldAt, String... args)
            throws Exception {
        return run(probe, Map.of("debug.class", in.getName(), "debug.thread", threadPrefix,
                "debug.line", String.valueOf(lineOf(in, heldAt))), args);
    }

    /** The number of the one line of {@code in}'s source that is {@code text}. */
    static int lineOf(Class<?> in, String text) throws Exception {
        List<String> src = Files.readAllLines(Path.of("src/main/java/" + in.getName().replace('.', '/') + ".java"));
        int found = -1;
        for (int i = 0; i < src.size(); i++) {
            if (src.get(i).equals(text)) {
                assertEquals(-1, found, "two such lines");
                found = i + 1;
            }
        }
        assertTrue(found > 0, "no line '" + text + "' in " + in.getSimpleName());
        return found;
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
