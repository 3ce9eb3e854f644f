import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes what the build knows about the JDK it selected into the folder named by {@code args[0]}
 * (a module's {@code target/}). The build runs this file with the toolchain's own {@code java}
 * (single-file source launch), so the facts are those of the JDK that compiles and tests, not of
 * the one running Maven, and no path of any machine is written into the project.
 *
 * <ul>
 *   <li>{@code test-jvm.args}: extra arguments of every forked test JVM, as a java argument file.
 *       {@code --sun-misc-unsafe-memory-access=deny} exists only from JDK 23 on; older JDKs refuse
 *       to start with it, so they get a harmless system property instead.
 *   <li>{@code lincheck-jvm.args}: the same for the test JVM of the Lincheck tests
 *       ({@code systematic-tests}), which in place of that file's arguments needs
 *       {@code sun.misc.Unsafe}'s memory access ({@code allow} from JDK 23 on; older JDKs allow it
 *       without the option) and loads its instrumentation agent into itself.
 *   <li>{@code java}: the path of that JDK's {@code java} launcher, then its feature version on a
 *       second line: the scripts that run the jcstress and JMH jars start them with it.
 * </ul>
 */
public final class JdkFacts {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        int feature = Runtime.version().feature();
        Files.writeString(dir.resolve("test-jvm.args"), feature >= 23
                ? "--sun-misc-unsafe-memory-access=deny\n"
                : "-Dants4j.unsafe.memory.access=unavailable\n");
        Files.writeString(dir.resolve("lincheck-jvm.args"), "-XX:+EnableDynamicAgentLoading\n"
                + (feature >= 23 ? "--sun-misc-unsafe-memory-access=allow\n" : ""));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Files.writeString(dir.resolve("java"), java + "\n" + feature + "\n");
    }
}
