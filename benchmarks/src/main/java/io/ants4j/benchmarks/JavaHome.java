package io.ants4j.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code java.home} of the JVM running it to the file named by {@code args[0]}.
 *
 * <p>The build runs this class with the toolchain's own {@code java} (exec-maven-plugin is
 * toolchain-aware), so {@code benchmarks/run.sh} can start the benchmarks on the JDK the build
 * selected without {@code JAVA_HOME} and without naming a path of any machine.
 */
public final class JavaHome {
    private JavaHome() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, System.getProperty("java.home") + "\n");
    }
}
