import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the path of the {@code java} launcher that runs this program to the file named by
 * {@code args[0]}, followed by its feature version on a second line. The build runs it with the
 * toolchain's {@code java} (single-file source launch), so {@code run.sh} starts jcstress with
 * the very JDK that compiled the tests, without {@code JAVA_HOME} and without a path of any machine
 * written into the project.
 */
public final class FindJava {
    public static void main(String[] args) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path out = Path.of(args[0]);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, java + "\n" + Runtime.version().feature() + "\n");
    }
}
