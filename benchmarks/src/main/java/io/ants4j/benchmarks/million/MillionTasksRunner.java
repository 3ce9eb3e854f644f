package io.ants4j.benchmarks.million;

import io.ants4j.benchmarks.report.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Issue 5, benchmark 5: runs every {@link MillionTasks.Case} in a fresh JVM, {@code runs} times
 * each, with the same flags for all, and writes wall time and peak RSS ({@code VmHWM}) of each
 * run plus their medians to a JSON file the report reads.
 *
 * <pre>
 * java -cp benchmarks.jar io.ants4j.benchmarks.million.MillionTasksRunner [--runs 3]
 *     [--tasks 1000000] [--sleep-ms 10] [--capacity 50000] [--heap "-Xmx4g"]
 *     [--cases pool,virtualThreadsSemaphore,...] [--out target/report/million.json]
 * </pre>
 * The child JVMs are started with this JVM's own {@code java} and class path, plus
 * {@code --sun-misc-unsafe-memory-access=deny} on JDK 23 and newer.
 */
public final class MillionTasksRunner {

    /** The heap flags every case gets unless {@code --heap} says otherwise. */
    public static final String DEFAULT_HEAP = "-Xmx4g";

    private MillionTasksRunner() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        Path out = Path.of(o.getOrDefault("out", "target/report/million.json"));
        run(Integer.parseInt(o.getOrDefault("runs", "3")),
                Integer.parseInt(o.getOrDefault("tasks", "1000000")),
                Integer.parseInt(o.getOrDefault("sleep-ms", "10")),
                Integer.parseInt(o.getOrDefault("capacity", "50000")),
                o.getOrDefault("heap", DEFAULT_HEAP),
                o.containsKey("cases") ? Arrays.asList(o.get("cases").split(",")) : null,
                out);
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            o.put(args[i].substring(2), args[++i]);
        }
        return o;
    }

    /** Runs the cases and writes {@code out}; returns the JSON written. */
    public static Map<String, Object> run(int runs, int tasks, int sleepMs, int capacity, String heap,
            List<String> cases, Path out) throws IOException, InterruptedException {
        List<MillionTasks.Case> selected = new ArrayList<>();
        if (cases == null) {
            selected.addAll(Arrays.asList(MillionTasks.Case.values()));
        } else {
            for (String c : cases) {
                selected.add(MillionTasks.Case.valueOf(c.trim()));
            }
        }
        List<String> jvmFlags = new ArrayList<>(Arrays.asList(heap.trim().split("\\s+")));
        if (Runtime.version().feature() >= 23) {
            jvmFlags.add("--sun-misc-unsafe-memory-access=deny");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        System.out.printf(Locale.ROOT, "%n== %,d tasks × %d ms, capacity %,d: a fresh JVM per run (%s), %d run(s) each%n",
                tasks, sleepMs, capacity, String.join(" ", jvmFlags), runs);
        System.out.printf(Locale.ROOT, "%-26s %12s %12s   %s%n", "case", "median s", "peak RSS MiB", "runs (s / MiB)");
        List<Object> results = new ArrayList<>();
        for (MillionTasks.Case c : selected) {
            List<Double> wall = new ArrayList<>();
            List<Double> hwm = new ArrayList<>();
            List<Double> gcCount = new ArrayList<>();
            List<Double> gcMs = new ArrayList<>();
            StringBuilder each = new StringBuilder();
            String error = null;
            for (int r = 0; r < runs && error == null; r++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(java);
                cmd.addAll(jvmFlags);
                cmd.add("-cp");
                cmd.add(System.getProperty("java.class.path"));
                cmd.add(MillionTasks.class.getName());
                cmd.add(c.name());
                cmd.add(Integer.toString(tasks));
                cmd.add(Integer.toString(sleepMs));
                cmd.add(Integer.toString(capacity));
                Map<String, String> result = launch(cmd);
                if (result.containsKey("error")) {
                    error = result.get("error");
                    break;
                }
                double w = Double.parseDouble(result.get("wallMs"));
                double h = Double.parseDouble(result.get("vmHwmKiB"));
                wall.add(w);
                hwm.add(h);
                gcCount.add(Double.parseDouble(result.get("gcCount")));
                gcMs.add(Double.parseDouble(result.get("gcMs")));
                each.append(String.format(Locale.ROOT, "%s%.2f / %.0f", each.isEmpty() ? "" : ", ", w / 1000, h / 1024));
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("case", c.name());
            row.put("wallMs", wall);
            row.put("vmHwmKiB", hwm);
            row.put("gcCount", gcCount);
            row.put("gcMs", gcMs);
            if (error != null) {
                row.put("error", error);
                System.out.printf(Locale.ROOT, "%-26s FAILED: %s%n", c, error);
            } else {
                row.put("medianWallMs", median(wall));
                row.put("medianVmHwmKiB", median(hwm));
                System.out.printf(Locale.ROOT, "%-26s %12.2f %12.0f   %s%n", c, median(wall) / 1000, median(hwm) / 1024, each);
            }
            results.add(row);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("tasks", tasks);
        doc.put("sleepMs", sleepMs);
        doc.put("capacity", capacity);
        doc.put("runs", runs);
        doc.put("jvmFlags", jvmFlags);
        doc.put("javaVersion", System.getProperty("java.version"));
        doc.put("vmName", System.getProperty("java.vm.name"));
        doc.put("cases", results);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, Json.write(doc) + "\n");
        System.out.println("   written: " + out);
        return doc;
    }

    /** Starts one child JVM and parses its RESULT line; {@code error} on failure. */
    private static Map<String, String> launch(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Map<String, String> result = new LinkedHashMap<>();
        StringBuilder tail = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    for (String kv : line.substring(7).trim().split("\\s+")) {
                        int eq = kv.indexOf('=');
                        result.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                } else if (tail.length() < 4000) {
                    tail.append(line).append('\n');
                }
            }
        }
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            result.put("error", "timed out");
        } else if (p.exitValue() != 0 || !result.containsKey("wallMs")) {
            result.clear();
            result.put("error", "exit " + p.exitValue() + ": " + tail.toString().strip().replace('\n', ' '));
        }
        return result;
    }

    static double median(List<Double> xs) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
