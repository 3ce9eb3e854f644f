package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The build must run tests with Unsafe memory access denied wherever the JDK can deny it. */
class TestJvmFlagsTest {
    @Test
    void unsafeMemoryAccessDeniedOnJdk23AndNewer() {
        assertTrue(Runtime.version().feature() >= 21, "tests must run on JDK 21+");
        List<String> args = ProcessHandle.current().info().arguments().stream()
                .flatMap(Stream::of)
                .flatMap(TestJvmFlagsTest::expandArgFile)
                .toList();
        if (Runtime.version().feature() >= 23) {
            assertTrue(args.contains("--sun-misc-unsafe-memory-access=deny"), () -> "JVM arguments: " + args);
        }
    }

    private static Stream<String> expandArgFile(String arg) {
        if (!arg.startsWith("@")) {
            return Stream.of(arg);
        }
        try {
            return Stream.of(Files.readString(Path.of(arg.substring(1))).split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
