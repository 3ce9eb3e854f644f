import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Checks the jars one library module publishes, after they are built and before they are signed. The
 * release profile runs this file in every module with the toolchain's own {@code java} (single-file source
 * launch), so CI's {@code ./mvnw -P release -Dgpg.skip verify} checks exactly what a release would upload:
 *
 * <pre>java CheckReleaseJars.java PACKAGING TARGET_DIR FINAL_NAME ARTIFACT_ID NAME VERSION</pre>
 *
 * <ul>
 *   <li>the jar holds a module descriptor at its root, and the module it declares is named after the
 *       artifact ({@code ants4j-pool} is {@code io.ants4j.pool}), read as the JVM reads it, through
 *       {@link ModuleFinder};
 *   <li>its manifest names the artifact and its version ({@code Implementation-Title} is the POM's name,
 *       {@code Implementation-Version} its version);
 *   <li>it carries {@code META-INF/LICENSE} and {@code META-INF/NOTICE};
 *   <li>no class of the module's tests is inside;
 *   <li>the sources jar has the source of every top-level class and of the module descriptor;
 *   <li>the javadoc jar has an index and a package summary of every exported package.
 * </ul>
 * A {@code pom} module publishes no jar, so there is nothing to check. Every problem found is listed
 * before the check fails, so one run shows them all.
 */
public final class CheckReleaseJars {
    private final List<String> problems = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        if (args.length != 6) {
            throw new IllegalArgumentException(
                    "usage: CheckReleaseJars PACKAGING TARGET_DIR FINAL_NAME ARTIFACT_ID NAME VERSION");
        }
        if (args[0].equals("pom")) {
            return;
        }
        Path target = Path.of(args[1]);
        String finalName = args[2];
        String artifactId = args[3];
        CheckReleaseJars check = new CheckReleaseJars();
        ModuleDescriptor module = check.main(target, finalName + ".jar", artifactId, args[4], args[5]);
        check.sources(target.resolve(finalName + "-sources.jar"), target.resolve(finalName + ".jar"));
        if (module != null) {
            check.javadoc(target.resolve(finalName + "-javadoc.jar"), module);
        }
        if (!check.problems.isEmpty()) {
            check.problems.forEach(p -> System.err.println("[release jars] " + artifactId + ": " + p));
            System.exit(1);
        }
        System.out.println("[release jars] " + artifactId + ": module " + module.toNameAndVersion()
                + ", manifest, license, no test classes, sources and javadoc jars: OK");
    }

    /** Checks the main jar; returns its module descriptor, or null if it has none to read. */
    private ModuleDescriptor main(Path target, String jarName, String artifactId, String name, String version)
            throws IOException {
        Path jar = target.resolve(jarName);
        if (!Files.isRegularFile(jar)) {
            problems.add("no " + jar);
            return null;
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.getJarEntry("module-info.class") == null) {
                problems.add(jarName + " has no module-info.class at its root");
            }
            Attributes manifest = file.getManifest() == null ? new Attributes() : file.getManifest().getMainAttributes();
            expect(jarName + " manifest Implementation-Title", name, manifest.getValue("Implementation-Title"));
            expect(jarName + " manifest Implementation-Version", version, manifest.getValue("Implementation-Version"));
            for (String legal : List.of("META-INF/LICENSE", "META-INF/NOTICE")) {
                if (file.getJarEntry(legal) == null) {
                    problems.add(jarName + " has no " + legal);
                }
            }
            Set<String> entries = file.stream().map(JarEntry::getName).collect(Collectors.toSet());
            Path testClasses = target.resolve("test-classes");
            if (Files.isDirectory(testClasses)) {
                try (Stream<Path> files = Files.walk(testClasses)) {
                    files.filter(f -> f.toString().endsWith(".class"))
                            .map(f -> testClasses.relativize(f).toString().replace('\\', '/'))
                            .filter(entries::contains)
                            .forEach(c -> problems.add(jarName + " contains the test class " + c));
                }
            }
        }
        Set<ModuleReference> found = ModuleFinder.of(jar).findAll();
        if (found.size() != 1) {
            problems.add(jarName + " is read as " + found.size() + " modules");
            return null;
        }
        ModuleDescriptor module = found.iterator().next().descriptor();
        if (module.isAutomatic()) {
            problems.add(jarName + " is an automatic module " + module.name() + ": its descriptor is not read");
        }
        expect(jarName + " module name", "io." + artifactId.replace('-', '.'), module.name());
        return module;
    }

    private void sources(Path sourcesJar, Path mainJar) throws IOException {
        if (!Files.isRegularFile(mainJar)) {
            return;   // already reported
        }
        if (!Files.isRegularFile(sourcesJar)) {
            problems.add("no " + sourcesJar);
            return;
        }
        try (JarFile sources = new JarFile(sourcesJar.toFile()); JarFile main = new JarFile(mainJar.toFile())) {
            main.stream()
                    .map(JarEntry::getName)
                    .filter(n -> n.endsWith(".class") && !n.contains("$") && !n.startsWith("META-INF/"))
                    .map(n -> n.substring(0, n.length() - ".class".length()) + ".java")
                    .filter(java -> sources.getJarEntry(java) == null)
                    .forEach(java -> problems.add(sourcesJar.getFileName() + " has no " + java));
        }
    }

    private void javadoc(Path javadocJar, ModuleDescriptor module) throws IOException {
        if (!Files.isRegularFile(javadocJar)) {
            problems.add("no " + javadocJar);
            return;
        }
        try (JarFile javadoc = new JarFile(javadocJar.toFile())) {
            List<String> pages = new ArrayList<>(List.of("index.html", "element-list"));
            module.exports().forEach(e -> pages.add(e.source().replace('.', '/') + "/package-summary.html"));
            pages.stream()
                    .filter(page -> javadoc.getJarEntry(page) == null)
                    .forEach(page -> problems.add(javadocJar.getFileName() + " has no " + page));
        }
    }

    private void expect(String what, String expected, String actual) {
        if (!Objects.equals(expected, actual)) {
            problems.add(what + " is " + actual + ", expected " + expected);
        }
    }
}
