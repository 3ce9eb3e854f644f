import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

/**
 * Prepares Fray (cmu-pasta/fray) in the folder named by {@code args[0]} (a module's {@code target/fray}),
 * as the {@code prepare-fray} goal of {@code fray-plugins-maven} would, for the JDK that runs this file.
 * {@code args[1]} is the version of Fray, {@code args[2]} the JDK modules to link (comma-separated; the
 * modules they require come with them), {@code args[3]} a class path that holds Fray's jlink plugin
 * ({@code fray-instrumentation-jdk} and its dependencies), its agent ({@code fray-instrumentation-agent})
 * and its JVMTI library ({@code fray-jvmti-<os>-<arch>}): the build passes its own resolution of them.
 *
 * <ul>
 *   <li>{@code fray-java/}: this JDK linked again with Fray's instrumentation of the JDK's own classes,
 *       the JDK a Fray test runs on ({@code fray-junit} runs its tests only on a JDK whose {@code release}
 *       names Fray as implementor). Linked again only when the Fray version, the JDK build or the modules
 *       change.
 *   <li>{@code fray-jvmti/}: Fray's native JVMTI agent, taken out of its jar.
 *   <li>{@code fray-jvm.args}: the arguments of a JVM that runs Fray tests, as a java argument file: the
 *       agent that instruments application classes, the JVMTI agent, and {@code fray.workDir}, where Fray
 *       writes its reports and the recording of every failing schedule.
 * </ul>
 *
 * <p>The plugin's own goal cannot be used as it is: it links from the JDK's {@code jmods/}, which JDKs built
 * without them (JEP 493, such as Temurin 25) lack, and then downloads a JDK. Linking from the run-time image
 * works when no module path is given and the modules are named; it cannot link {@code jdk.jlink}.
 */
public final class FrayJdk {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]).toAbsolutePath();
        String frayVersion = args[1];
        String modules = args[2];
        List<Path> classPath = new ArrayList<>();
        for (String entry : args[3].split(java.io.File.pathSeparator)) {
            if (!entry.isBlank()) {
                classPath.add(Path.of(entry));
            }
        }
        Path jlinkPlugin = jar(classPath, "fray-instrumentation-jdk-");
        Path agent = jar(classPath, "fray-instrumentation-agent-");
        Path jvmtiJar = jar(classPath, "fray-jvmti-");
        List<Path> jlinkClassPath = classPath.stream()
                .filter(p -> !p.equals(agent) && !p.equals(jvmtiJar))
                .toList();

        Path javaHome = Path.of(System.getProperty("java.home"));
        Path image = dir.resolve("fray-java");
        String stamp = frayVersion + " " + Runtime.version() + " " + modules;
        Path stampFile = image.resolve("fray-version");
        if (!Files.isRegularFile(stampFile) || !Files.readString(stampFile).equals(stamp)) {
            deleteTree(image);
            Files.createDirectories(dir);
            link(javaHome, image, modules, jlinkPlugin, jlinkClassPath);
            Files.writeString(stampFile, stamp);
        }

        Path jvmtiDir = dir.resolve("fray-jvmti");
        Path jvmti = extractNativeLibrary(jvmtiJar, jvmtiDir);
        Path workDir = dir.resolve("fray-report");
        Files.writeString(dir.resolve("fray-jvm.args"), String.join("\n",
                quote("-javaagent:" + agent.toAbsolutePath()),
                quote("-agentpath:" + jvmti),
                quote("-Dfray.workDir=" + workDir),
                ""));
    }

    /** The one entry of {@code classPath} whose file name starts with {@code prefix}. */
    private static Path jar(List<Path> classPath, String prefix) {
        List<Path> found = classPath.stream()
                .filter(p -> p.getFileName().toString().startsWith(prefix))
                .toList();
        if (found.size() != 1) {
            throw new IllegalArgumentException("expected one " + prefix + "*.jar on the class path, found " + found);
        }
        return found.get(0);
    }

    private static void link(Path javaHome, Path image, String modules, Path jlinkPlugin, List<Path> jlinkClassPath)
            throws IOException, InterruptedException {
        String paths = jlinkClassPath.stream().map(Path::toString)
                .collect(Collectors.joining(java.io.File.pathSeparator));
        List<String> command = List.of(
                javaHome.resolve("bin").resolve(windows() ? "jlink.exe" : "jlink").toString(),
                "-J-javaagent:" + jlinkPlugin,
                "-J--module-path=" + paths,
                "-J--add-modules=org.pastalab.fray.instrumentation.jdk",
                "-J--class-path=" + paths,
                "--output=" + image,
                "--add-modules=" + modules,
                "--release-info", "add:IMPLEMENTOR=Fray",
                "--fray-instrumentation");
        System.out.println("[FrayJdk] linking an instrumented JDK into " + image);
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).inheritIO().start();
        int status = process.waitFor();
        if (status != 0) {
            throw new IllegalStateException("jlink exited with " + status + ": " + String.join(" ", command));
        }
        System.out.printf("[FrayJdk] linked in %d s%n", (System.nanoTime() - start) / 1_000_000_000L);
    }

    /** Copies the one native library in {@code jar} into {@code dir}, returning its path. */
    private static Path extractNativeLibrary(Path jar, Path dir) throws IOException {
        Files.createDirectories(dir);
        try (JarFile file = new JarFile(jar.toFile())) {
            var entry = file.stream()
                    .filter(e -> !e.isDirectory() && e.getName().matches("[^/]+\\.(so|dylib|dll)"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no native library in " + jar));
            Path library = dir.resolve(entry.getName());
            try (InputStream in = file.getInputStream(entry)) {
                Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            }
            return library;
        }
    }

    /** One argument of a java argument file, quoted so that spaces and backslashes survive. */
    private static String quote(String argument) {
        return '"' + argument.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static boolean windows() {
        return System.getProperty("os.name").toLowerCase().contains("windows");
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
