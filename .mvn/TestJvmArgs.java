import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the extra JVM arguments for forked test and tool JVMs to the argument file named by
 * {@code args[0]}. Run by the build with the toolchain's own {@code java} (single-file source
 * launch), so the check is made against the JDK that will run the tests, not the one running Maven.
 *
 * <p>{@code --sun-misc-unsafe-memory-access=deny} exists only from JDK 23 on; older JDKs refuse
 * to start with it, so they get a harmless system property instead.
 */
public final class TestJvmArgs {
    public static void main(String[] args) throws Exception {
        String flags = Runtime.version().feature() >= 23
                ? "--sun-misc-unsafe-memory-access=deny\n"
                : "-Dants4j.unsafe.memory.access=unavailable\n";
        Path out = Path.of(args[0]);
        Files.createDirectories(out.getParent());
        Files.writeString(out, flags);
    }
}
