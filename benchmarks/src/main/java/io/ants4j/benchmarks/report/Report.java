package io.ants4j.benchmarks.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Turns JMH JSON result files and the 1M-task results ({@code million.json}) into a Markdown
 * report with SVG charts.
 *
 * <pre>
 * java -cp benchmarks.jar io.ants4j.benchmarks.report.Report --out target/report
 *     [--million target/report/million.json] [--command "how it was run"] jmh-result.json...
 * </pre>
 * Writes {@code benchmarks.md} and {@code bench-*.svg} into {@code --out}. Knows the benchmark
 * classes of this module: which implementation is ours, which is the JDK peer each ratio is taken
 * against, and the targets of issues 5, 16, 17 and 28. The implementation is the benchmark method's
 * name (its part after {@code _}), or the {@code impl} parameter where the benchmark has one
 * ({@code ChannelBenchmark}: the method is then the shape).
 */
public final class Report {

    // ------------------------------------------------------------------ model

    /** One JMH metric: score, error (99.9% half-width, NaN with one iteration), per-fork means. */
    record Metric(double score, double error, String unit, List<Double> forkMeans) {
    }

    /** One JMH result entry. */
    record Row(String cls, String method, String scenario, String impl, String mode, int threads,
            Map<String, String> params, Metric primary, Map<String, Metric> secondary) {

        boolean higherIsBetter() {
            return mode.equals("thrpt");
        }
    }

    /** A table (and maybe a chart) of the report. */
    record Spec(String id, String title, String about, List<String> classes, String column, List<String> peers,
            boolean lineChart) {
    }

    static final Set<String> OURS = Set.of("spinLock", "mutex", "rwMutex", "waitGroup", "once", "onceFunc", "onceValue",
            "condReentrantLock", "condSpinLock", "weightedSemaphore", "taskGroup", "singleFlight", "pool", "poolWithFunc", "multiPool",
            "ants4j");
    /** Neither ours nor a JDK peer: the code we started from. */
    static final Set<String> REFERENCE = Set.of("antsPlainSpinLock");

    static final Map<String, String> NAMES = new LinkedHashMap<>();

    static {
        String[][] n = {
            {"spinLock", "SpinLock (ours)"}, {"mutex", "Mutex (ours)"}, {"antsPlainSpinLock", "ants' plain spin lock"},
            {"reentrantLock", "ReentrantLock"}, {"synchronizedBlock", "synchronized"},
            {"stampedLock", "StampedLock write"}, {"semaphore", "Semaphore(1)"},
            {"rwMutex", "RWMutex (ours)"}, {"reentrantReadWriteLock", "ReentrantReadWriteLock"},
            {"waitGroup", "WaitGroup (ours)"}, {"countDownLatch", "CountDownLatch"}, {"phaser", "Phaser"},
            {"once", "Once.run (ours)"}, {"onceFunc", "Once.func (ours)"}, {"onceValue", "Once.value (ours)"},
            {"volatileFlag", "volatile flag"}, {"volatileHolder", "volatile holder"},
            {"volatileHolderAsSupplier", "volatile holder as Supplier"},
            {"doubleCheckedLocking", "double-checked locking"},
            {"condReentrantLock", "Cond over ReentrantLock (ours)"}, {"condSpinLock", "Cond over SpinLock (ours)"},
            {"condition", "ReentrantLock + Condition"},
            {"weightedSemaphore", "WeightedSemaphore (ours)"}, {"semaphoreFair", "Semaphore, fair"},
            {"semaphoreNonFair", "Semaphore, non-fair"},
            {"taskGroup", "TaskGroup (ours)"}, {"invokeAll", "invokeAll + Semaphore"},
            {"allOf", "CompletableFuture.allOf + Semaphore"},
            {"singleFlight", "SingleFlight (ours)"}, {"chmFutures", "ConcurrentHashMap of CompletableFutures"},
            {"chmFuturesRemovedFirst", "the same, key removed before completing"},
            {"chmPutRemove", "ConcurrentHashMap put + remove"},
            {"pool", "Pool (ours)"}, {"poolWithFunc", "PoolWithFunc (ours)"}, {"multiPool", "MultiPool (ours)"},
            {"threadPoolExecutor", "ThreadPoolExecutor(2)"}, {"forkJoinCommonPool", "ForkJoinPool.commonPool()"},
            {"virtualThreadPerTask", "virtual thread per task"},
            {"ants4j", "Chan (ours)"}, {"jox", "jox Channel"}, {"jdk", "JDK queue"},
        };
        for (String[] p : n) {
            NAMES.put(p[0], p[1]);
        }
    }

    static final Map<String, String> MILLION_NAMES = Map.of(
            "pool", "Pool (ours)",
            "poolWithFunc", "PoolWithFunc (ours)",
            "multiPool", "MultiPool 10 × cap/10 (ours)",
            "virtualThreads", "virtual threads, unbounded",
            "virtualThreadsSemaphore", "virtual threads + Semaphore(cap)",
            "threadPoolExecutor1000", "ThreadPoolExecutor(1,000)");

    static final List<Spec> SPECS = List.of(
            new Spec("locks", "Locks: lock + unlock of one shared lock",
                    "Throughput of all threads together (ops/µs, higher is better). In parentheses: ours ÷ ReentrantLock.",
                    List.of("LockBenchmark"), "threads", List.of("reentrantLock"), true),
            new Spec("locks-virtual", "Locks: 1,000 virtual threads on one shared lock",
                    "Throughput of all threads together (ops/µs, higher is better), by critical section; starting the threads is included. In parentheses: ours ÷ ReentrantLock.",
                    List.of("VirtualThreadLockBenchmark"), "section", List.of("reentrantLock"), false),
            new Spec("rwlocks", "Read-write locks: 90% reads, 10% writes",
                    "Throughput of all threads together (ops/µs, higher is better). In parentheses: ours ÷ ReentrantReadWriteLock.",
                    List.of("RWMutexBenchmark"), "threads", List.of("reentrantReadWriteLock"), true),
            new Spec("waitgroup", "WaitGroup: Go's own benchmarks",
                    "ns/op (lower is better). In parentheses: how many times faster than the best JDK peer in that column (>1 = ours faster).",
                    List.of("WaitGroupBenchmark"), "threads", List.of(), false),
            new Spec("forkjoin", "WaitGroup: fork-join of 8 tasks",
                    "ns per fork-join of 8 (lower is better): `inline` runs the tasks on the caller, `handed` gives them to 2 worker threads. In parentheses: times faster than the best JDK peer.",
                    List.of("ForkJoinBenchmark"), "threads", List.of(), false),
            new Spec("once", "Once: fast path after completion",
                    "ns/op (lower is better). In parentheses: times faster than the volatile read (1.00× = as fast; target ≥ 0.91×).",
                    List.of("OnceBenchmark"), "threads", List.of("volatileFlag", "volatileHolder"), false),
            new Spec("cond", "Cond: Go's benchmarkCond (waiters + 1 parties meet, the last broadcasts)",
                    "ns per round (lower is better), by number of waiters. In parentheses: times faster than ReentrantLock + Condition.",
                    List.of("CondBenchmark"), "waiters", List.of("condition"), true),
            new Spec("semaphore", "WeightedSemaphore: acquire(1) + release(1) of one shared semaphore",
                    "Throughput of all threads together (ops/µs, higher is better), by size (permits) and threads. In parentheses: ours ÷ the fair Semaphore.",
                    List.of("WeightedSemaphoreBenchmark"), "threads", List.of("semaphoreFair"), true),
            new Spec("taskgroup", "TaskGroup: fan-out of small tasks, at most 8 at once, each in a virtual thread",
                    "µs per fan-out and wait for all results (lower is better), by number of tasks. In parentheses: times faster than the JDK peer.",
                    List.of("TaskGroupBenchmark"), "tasks", List.of("invokeAll", "allOf"), false),
            new Spec("singleflight", "SingleFlight: calls for one key (8 threads, a 1 µs call) and for a key of one's own (1 thread)",
                    "ns per call (lower is better). In parentheses: times faster than the peer (the hand-rolled map of futures; put + remove is the floor of the uncontended case).",
                    List.of("SingleFlightBenchmark"), "threads", List.of("chmFutures", "chmPutRemove"), false),
            new Spec("pool-trivial", "Pool: 100,000 no-op tasks from one submitter",
                    "ns per task (lower is better); B/task with `-prof gc`. In parentheses: times faster than the JDK peer.",
                    List.of("PoolTrivialBenchmark", "ExecutorTrivialBenchmark"), "threads",
                    List.of("threadPoolExecutor", "forkJoinCommonPool"), false),
            new Spec("parallel-submit", "Pool: parallel submitters (ants' ParallelAntsPoolThroughput)",
                    "Tasks per µs of all submitters (higher is better); each submitter waits for its batch of 1,000. In parentheses: ours ÷ ThreadPoolExecutor(2).",
                    List.of("ParallelSubmitBenchmark"), "threads", List.of("threadPoolExecutor"), true));

    // ------------------------------------------------------------------ main

    public static void main(String[] args) throws IOException {
        Path out = Path.of("target/report");
        Path million = null;
        String command = null;
        List<Path> jmh = new ArrayList<>();
        for (int k = 0; k < args.length; k++) {
            switch (args[k]) {
                case "--out" -> out = Path.of(args[++k]);
                case "--million" -> million = Path.of(args[++k]);
                case "--command" -> command = args[++k];
                default -> jmh.add(Path.of(args[k]));
            }
        }
        Path md = generate(jmh, million, out, command);
        System.out.println("report: " + md);
    }

    /** Reads the results, writes {@code benchmarks.md} and the SVGs, returns the Markdown path. */
    public static Path generate(List<Path> jmhFiles, Path millionFile, Path outDir, String command) throws IOException {
        List<Row> rows = new ArrayList<>();
        List<Map<String, Object>> rawEntries = new ArrayList<>();
        for (Path p : jmhFiles) {
            if (Files.exists(p)) {
                for (Object e : Json.arr(Json.parse(Files.readString(p)))) {
                    rawEntries.add(Json.obj(e));
                    rows.add(row(Json.obj(e)));
                }
            }
        }
        Map<String, Object> million = millionFile != null && Files.exists(millionFile)
                ? Json.obj(Json.parse(Files.readString(millionFile))) : null;
        Files.createDirectories(outDir);

        StringBuilder md = new StringBuilder();
        md.append("# ants4j benchmarks\n\n");
        Path auditFile = outDir.resolve("unsafe-audit.txt");
        header(md, rawEntries, million, command, Files.exists(auditFile) ? Files.readString(auditFile) : null);
        targets(md, rows, million);
        for (Spec spec : SPECS) {
            section(md, spec, rows, outDir);
        }
        million(md, million, outDir);
        channels(md, rows, outDir);
        Path file = outDir.resolve("benchmarks.md");
        Files.writeString(file, md.toString());
        return file;
    }

    static Row row(Map<String, Object> e) {
        String full = (String) e.get("benchmark");
        String cls = full.substring(0, full.lastIndexOf('.'));
        cls = cls.substring(cls.lastIndexOf('.') + 1);
        String method = full.substring(full.lastIndexOf('.') + 1);
        int us = method.lastIndexOf('_');
        String scenario = us < 0 ? "" : method.substring(0, us);
        String impl = us < 0 ? method : method.substring(us + 1);
        Map<String, String> params = new TreeMap<>();
        Json.obj(e.get("params")).forEach((k, v) -> params.put(k, String.valueOf(v)));
        if (params.containsKey("impl")) {
            scenario = method;
            impl = params.get("impl");
        }
        Map<String, Metric> secondary = new LinkedHashMap<>();
        Json.obj(e.get("secondaryMetrics")).forEach((k, v) -> secondary.put(k, metric(Json.obj(v))));
        return new Row(cls, method, scenario, impl, (String) e.get("mode"), (int) Json.num(e.get("threads")),
                params, metric(Json.obj(e.get("primaryMetric"))), secondary);
    }

    static Metric metric(Map<String, Object> m) {
        List<Double> forks = new ArrayList<>();
        for (Object fork : Json.arr(m.get("rawData"))) {
            double sum = 0;
            int n = 0;
            for (Object it : Json.arr(fork)) {
                sum += Json.num(it);
                n++;
            }
            if (n > 0) {
                forks.add(sum / n);
            }
        }
        return new Metric(Json.num(m.get("score")), Json.num(m.get("scoreError")), (String) m.get("scoreUnit"), forks);
    }

    // ------------------------------------------------------------------ header

    private static void header(StringBuilder md, List<Map<String, Object>> entries, Map<String, Object> million,
            String command, String audit) {
        md.append("Generated ").append(ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")));
        if (command != null) {
            md.append(" by `").append(command).append('`');
        }
        md.append(".\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| machine | ").append(cpu()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs, ").append(System.getProperty("os.name")).append(' ')
                .append(System.getProperty("os.version")).append(" |\n");
        if (!entries.isEmpty()) {
            Map<String, Object> e = entries.get(0);
            md.append("| JDK | ").append(e.get("jdkVersion")).append(", ").append(e.get("vmName")).append(' ')
                    .append(e.get("vmVersion")).append(" |\n");
            md.append("| JMH | ").append(e.get("jmhVersion")).append(": ").append(fmtInt(e.get("forks")))
                    .append(" fork(s), ").append(fmtInt(e.get("warmupIterations"))).append(" × ")
                    .append(e.get("warmupTime")).append(" warm-up, ").append(fmtInt(e.get("measurementIterations")))
                    .append(" × ").append(e.get("measurementTime")).append(" measurement |\n");
            List<Object> args = Json.arr(e.get("jvmArgs"));
            md.append("| JVM flags | `").append(args.isEmpty() ? "(none)" : joinArgs(args)).append("` |\n");
        } else if (million != null) {
            md.append("| JDK | ").append(million.get("javaVersion")).append(", ").append(million.get("vmName")).append(" |\n");
        }
        if (audit != null) {
            md.append("| Unsafe | ").append(audit.strip()).append(" |\n");
        }
        md.append("\n**Reading the ratios:** every `(n×)` says how many times faster ours is than the named JDK peer "
                + "in the same run: above 1 ours is faster, below 1 slower. `±` is JMH's 99.9% confidence half-width.\n\n");
    }

    private static String joinArgs(List<Object> args) {
        List<String> s = new ArrayList<>();
        for (Object a : args) {
            s.add(String.valueOf(a));
        }
        return String.join(" ", s);
    }

    private static String fmtInt(Object o) {
        double d = Json.num(o);
        return Double.isNaN(d) ? String.valueOf(o) : Long.toString((long) d);
    }

    private static String cpu() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    // ------------------------------------------------------------------ tables

    private static int order(String impl) {
        int k = 0;
        for (String n : NAMES.keySet()) {
            if (n.equals(impl)) {
                return k;
            }
            k++;
        }
        return k;
    }

    private static String name(Row r) {
        String n = NAMES.getOrDefault(r.impl(), r.impl());
        if (r.params().containsKey("capacity") && OURS.contains(r.impl())) {
            n += ", capacity " + String.format(Locale.ROOT, "%,d", Long.parseLong(r.params().get("capacity")));
        }
        return n;
    }

    private static String column(Row r, String column) {
        return column.equals("threads") ? Integer.toString(r.threads()) : r.params().getOrDefault(column, "?");
    }

    /** The table's group: scenario and every parameter that is neither the column nor capacity. */
    private static String group(Row r, String column) {
        StringBuilder g = new StringBuilder(r.scenario());
        r.params().forEach((k, v) -> {
            if (!k.equals(column) && !k.equals("capacity")) {
                g.append(g.isEmpty() ? "" : ", ").append(k).append(" = ").append(v);
            }
        });
        return g.toString();
    }

    /** The peer a row of ours is compared with in its group and column; null if none ran. */
    static Row peer(Spec spec, List<Row> cell) {
        if (!spec.peers().isEmpty()) {
            for (String p : spec.peers()) {
                for (Row r : cell) {
                    if (r.impl().equals(p)) {
                        return r;
                    }
                }
            }
            return null;
        }
        Row best = null;
        for (Row r : cell) {
            if (OURS.contains(r.impl()) || REFERENCE.contains(r.impl()) || Double.isNaN(r.primary().score())) {
                continue;
            }
            if (best == null || (r.higherIsBetter() ? r.primary().score() > best.primary().score()
                    : r.primary().score() < best.primary().score())) {
                best = r;
            }
        }
        return best;
    }

    /** How many times faster {@code ours} is than {@code peer}. */
    static double speedup(Row ours, Row peer) {
        double a = ours.primary().score();
        double b = peer.primary().score();
        return ours.higherIsBetter() ? a / b : b / a;
    }

    private static void section(StringBuilder md, Spec spec, List<Row> all, Path outDir) throws IOException {
        List<Row> rows = all.stream().filter(r -> spec.classes().contains(r.cls())).toList();
        if (rows.isEmpty()) {
            return;
        }
        md.append("## ").append(spec.title()).append("\n\n").append(spec.about()).append("\n\n");
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        for (Row r : rows) {
            groups.computeIfAbsent(group(r, spec.column()), k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<Row>> g : groups.entrySet()) {
            table(md, spec, g.getKey(), g.getValue(), outDir);
        }
    }

    private static void table(StringBuilder md, Spec spec, String group, List<Row> rows, Path outDir) throws IOException {
        TreeSet<String> cols = new TreeSet<>(Comparator.comparingDouble(Report::numeric).thenComparing(s -> s));
        for (Row r : rows) {
            cols.add(column(r, spec.column()));
        }
        Map<String, Map<String, Row>> byName = new LinkedHashMap<>();
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingInt((Row r) -> order(r.impl())).thenComparing(r -> r.params().toString()));
        for (Row r : sorted) {
            byName.computeIfAbsent(name(r), k -> new LinkedHashMap<>()).put(column(r, spec.column()), r);
        }
        boolean gc = rows.stream().anyMatch(r -> r.secondary().containsKey("·gc.alloc.rate.norm")
                || r.secondary().containsKey("gc.alloc.rate.norm"));
        String unit = unit(rows.get(0).primary().unit());
        if (!group.isEmpty()) {
            md.append("**").append(group).append("** (").append(unit).append(")\n\n");
        } else {
            md.append("(").append(unit).append(")\n\n");
        }
        String colTitle = spec.column().equals("threads") ? " thread" : " " + spec.column();
        md.append("| |");
        for (String c : cols) {
            md.append(' ').append(c).append(spec.column().equals("threads") ? (c.equals("1") ? " thread" : " threads") : colTitle).append(" |");
        }
        if (gc) {
            md.append(" B/op |");
        }
        md.append("\n|---|");
        md.append("---:|".repeat(cols.size()));
        if (gc) {
            md.append("---:|");
        }
        md.append('\n');
        for (Map.Entry<String, Map<String, Row>> e : byName.entrySet()) {
            boolean ours = OURS.contains(e.getValue().values().iterator().next().impl());
            md.append("| ").append(ours ? "**" + e.getKey() + "**" : e.getKey()).append(" |");
            for (String c : cols) {
                Row r = e.getValue().get(c);
                md.append(' ');
                if (r == null) {
                    md.append("–");
                } else {
                    md.append(fmt(r.primary().score()));
                    if (!Double.isNaN(r.primary().error())) {
                        md.append(" ± ").append(fmt(r.primary().error()));
                    }
                    if (ours) {
                        List<Row> cell = rows.stream().filter(x -> column(x, spec.column()).equals(c)).toList();
                        List<String> ratios = new ArrayList<>();
                        if (spec.peers().size() > 1 && spec.id().equals("pool-trivial")) {
                            for (String p : spec.peers()) {
                                Row peer = cell.stream().filter(x -> x.impl().equals(p)).findFirst().orElse(null);
                                if (peer != null) {
                                    ratios.add(String.format(Locale.ROOT, "%.2f× %s", speedup(r, peer), shortName(p)));
                                }
                            }
                        } else {
                            Row peer = peer(spec, cell);
                            if (peer != null) {
                                ratios.add(String.format(Locale.ROOT, "%.2f×", speedup(r, peer))
                                        + (spec.peers().isEmpty() ? " " + shortName(peer.impl()) : ""));
                            }
                        }
                        if (!ratios.isEmpty()) {
                            md.append(" (").append(String.join(", ", ratios)).append(')');
                        }
                    }
                }
                md.append(" |");
            }
            if (gc) {
                Row r = e.getValue().values().iterator().next();
                Metric m = r.secondary().getOrDefault("·gc.alloc.rate.norm", r.secondary().get("gc.alloc.rate.norm"));
                md.append(' ').append(m == null ? "–" : fmt(m.score())).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        if (spec.id().equals("locks")) {
            fairness(md, rows, cols);
        }
        chart(md, spec, group, rows, cols, byName, outDir);
    }

    /** JMH's ASCII units with µ. */
    static String unit(String u) {
        return u == null ? "" : u.replace("/us", "/µs").replace("us/", "µs/");
    }

    private static String shortName(String impl) {
        return switch (impl) {
            case "threadPoolExecutor" -> "TPE";
            case "forkJoinCommonPool" -> "FJP";
            case "countDownLatch" -> "CDL";
            case "phaser" -> "Phaser";
            default -> NAMES.getOrDefault(impl, impl);
        };
    }

    private static double numeric(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.MAX_VALUE;
        }
    }

    private static void fairness(StringBuilder md, List<Row> rows, Set<String> cols) {
        md.append("Fairness: slowest ÷ fastest thread's operation count (1.00 = perfectly even, 0 = one thread "
                + "starved)\n\n| |");
        for (String c : cols) {
            md.append(' ').append(c).append(c.equals("1") ? " thread" : " threads").append(" |");
        }
        md.append("\n|---|").append("---:|".repeat(cols.size())).append('\n');
        Map<String, Map<String, Row>> byImpl = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.comparingInt(r -> order(r.impl())))
                .forEach(r -> byImpl.computeIfAbsent(r.impl(), k -> new TreeMap<>()).put(Integer.toString(r.threads()), r));
        for (Map.Entry<String, Map<String, Row>> e : byImpl.entrySet()) {
            String n = NAMES.getOrDefault(e.getKey(), e.getKey());
            md.append("| ").append(OURS.contains(e.getKey()) ? "**" + n + "**" : n).append(" |");
            for (String c : cols) {
                Row r = e.getValue().get(c);
                double f = r == null ? Double.NaN : fairness(r);
                md.append(' ').append(Double.isNaN(f) ? "–" : String.format(Locale.ROOT, "%.2f", f)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    static double fairness(Row r) {
        Metric min = r.secondary().get("fairMinOps");
        Metric max = r.secondary().get("fairMaxOps");
        if (min == null || max == null || !(max.score() > 0)) {
            return Double.NaN;
        }
        return min.score() / max.score();
    }

    private static void chart(StringBuilder md, Spec spec, String group, List<Row> rows, Set<String> cols,
            Map<String, Map<String, Row>> byName, Path outDir) throws IOException {
        String file;
        String svg;
        String title = spec.title().replaceAll(" \\(.*", "") + (group.isEmpty() ? "" : " — " + group);
        if (spec.lineChart() && cols.size() > 1) {
            List<Svg.Series> series = new ArrayList<>();
            for (Map.Entry<String, Map<String, Row>> e : byName.entrySet()) {
                List<Double> ys = new ArrayList<>();
                for (String c : cols) {
                    Row r = e.getValue().get(c);
                    ys.add(r == null ? Double.NaN : r.primary().score());
                }
                boolean ours = OURS.contains(e.getValue().values().iterator().next().impl());
                series.add(new Svg.Series(e.getKey(), ys, ours));
            }
            String xTitle = spec.column().equals("threads") ? "threads" : spec.column();
            svg = Svg.lineChart(title, xTitle, unit(rows.get(0).primary().unit()), new ArrayList<>(cols), series);
        } else if (spec.id().equals("pool-trivial") || spec.id().equals("forkjoin")) {
            List<Map.Entry<String, Double>> bars = new ArrayList<>();
            List<Boolean> ours = new ArrayList<>();
            for (Map.Entry<String, Map<String, Row>> e : byName.entrySet()) {
                Row r = e.getValue().values().iterator().next();
                bars.add(new AbstractMap.SimpleEntry<>(e.getKey(), r.primary().score()));
                ours.add(OURS.contains(r.impl()));
            }
            svg = Svg.barChart(title, unit(rows.get(0).primary().unit()) + " (lower is better)", bars, ours);
        } else {
            return;
        }
        file = "bench-" + spec.id() + (group.isEmpty() ? "" : "-" + group.replaceAll("[^A-Za-z0-9]+", "-"))
                .replaceAll("-+$", "") + ".svg";
        Files.writeString(outDir.resolve(file), svg);
        md.append("![").append(title).append("](").append(file).append(")\n\n");
    }

    // ------------------------------------------------------------------ 1M tasks

    private static void million(StringBuilder md, Map<String, Object> million, Path outDir) throws IOException {
        if (million == null) {
            return;
        }
        long tasks = (long) Json.num(million.get("tasks"));
        md.append(String.format(Locale.ROOT, "## Pool: %,d tasks that sleep %d ms, capacity %,d%n%n", tasks,
                (long) Json.num(million.get("sleepMs")), (long) Json.num(million.get("capacity"))));
        md.append("ants' own benchmark. Each run in a fresh JVM (`").append(joinArgs(Json.arr(million.get("jvmFlags"))))
                .append("`), one submitter; wall time until the last task finished, peak resident memory (`VmHWM`). ")
                .append("Median of ").append(fmtInt(million.get("runs")))
                .append(" run(s), range in brackets. In parentheses: ours vs virtual threads + Semaphore "
                        + "(time: times faster; memory: fraction of its peak).\n\n");
        md.append("| | wall time s | peak RSS MiB | GC count |\n|---|---:|---:|---:|\n");
        Map<String, Object> base = null;
        for (Object o : Json.arr(million.get("cases"))) {
            if ("virtualThreadsSemaphore".equals(Json.obj(o).get("case"))) {
                base = Json.obj(o);
            }
        }
        List<Map.Entry<String, Double>> timeBars = new ArrayList<>();
        List<Map.Entry<String, Double>> memBars = new ArrayList<>();
        List<Boolean> ours = new ArrayList<>();
        for (Object o : Json.arr(million.get("cases"))) {
            Map<String, Object> c = Json.obj(o);
            String id = (String) c.get("case");
            boolean isOurs = OURS.contains(id);
            String n = MILLION_NAMES.getOrDefault(id, id);
            md.append("| ").append(isOurs ? "**" + n + "**" : n).append(" | ");
            if (c.containsKey("error")) {
                md.append("failed: ").append(String.valueOf(c.get("error")).replace('|', '/')).append(" | | |\n");
                timeBars.add(new AbstractMap.SimpleEntry<>(n, Double.NaN));
                memBars.add(new AbstractMap.SimpleEntry<>(n, Double.NaN));
                ours.add(isOurs);
                continue;
            }
            double t = Json.num(c.get("medianWallMs")) / 1000;
            double m = Json.num(c.get("medianVmHwmKiB")) / 1024;
            md.append(fmt(t)).append(range(Json.arr(c.get("wallMs")), 1000));
            if (isOurs && base != null && !base.containsKey("error")) {
                md.append(String.format(Locale.ROOT, " (%.2f×)", Json.num(base.get("medianWallMs")) / Json.num(c.get("medianWallMs"))));
            }
            md.append(" | ").append(fmt(m)).append(range(Json.arr(c.get("vmHwmKiB")), 1024));
            if (isOurs && base != null && !base.containsKey("error")) {
                md.append(String.format(Locale.ROOT, " (%.2f)", Json.num(c.get("medianVmHwmKiB")) / Json.num(base.get("medianVmHwmKiB"))));
            }
            md.append(" | ").append(fmt(median(Json.arr(c.get("gcCount"))))).append(" |\n");
            timeBars.add(new AbstractMap.SimpleEntry<>(n, t));
            memBars.add(new AbstractMap.SimpleEntry<>(n, m));
            ours.add(isOurs);
        }
        md.append('\n');
        String tTitle = String.format(Locale.ROOT, "%,d tasks × %d ms: wall time", tasks, (long) Json.num(million.get("sleepMs")));
        String mTitle = String.format(Locale.ROOT, "%,d tasks × %d ms: peak RSS", tasks, (long) Json.num(million.get("sleepMs")));
        Files.writeString(outDir.resolve("bench-million-time.svg"), Svg.barChart(tTitle, "seconds (lower is better)", timeBars, ours));
        Files.writeString(outDir.resolve("bench-million-memory.svg"), Svg.barChart(mTitle, "MiB (lower is better)", memBars, ours));
        md.append("![").append(tTitle).append("](bench-million-time.svg)\n\n");
        md.append("![").append(mTitle).append("](bench-million-memory.svg)\n\n");
    }

    private static String range(List<Object> xs, double div) {
        if (xs.size() < 2) {
            return "";
        }
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (Object x : xs) {
            lo = Math.min(lo, Json.num(x) / div);
            hi = Math.max(hi, Json.num(x) / div);
        }
        return " [" + fmt(lo) + "–" + fmt(hi) + "]";
    }

    private static double median(List<Object> xs) {
        List<Double> d = new ArrayList<>();
        for (Object x : xs) {
            d.add(Json.num(x));
        }
        if (d.isEmpty()) {
            return Double.NaN;
        }
        d.sort(null);
        int n = d.size();
        return n % 2 == 1 ? d.get(n / 2) : (d.get(n / 2 - 1) + d.get(n / 2)) / 2;
    }

    // ------------------------------------------------------------------ targets

    /** A ratio across forks: median of per-fork means of each side, and the extreme pairings. */
    record Ratio(double median, double lo, double hi) {
        String text() {
            if (Double.isNaN(median)) {
                return "–";
            }
            String s = String.format(Locale.ROOT, "%.2f×", median);
            if (lo != median || hi != median) {
                s += String.format(Locale.ROOT, " [%.2f–%.2f]", lo, hi);
            }
            return s;
        }
    }

    /** How many times faster a is than b, over forks. */
    static Ratio ratio(Row a, Row b) {
        List<Double> fa = a.primary().forkMeans().isEmpty() ? List.of(a.primary().score()) : a.primary().forkMeans();
        List<Double> fb = b.primary().forkMeans().isEmpty() ? List.of(b.primary().score()) : b.primary().forkMeans();
        double ma = medianD(fa);
        double mb = medianD(fb);
        double minA = fa.stream().mapToDouble(d -> d).min().orElse(ma);
        double maxA = fa.stream().mapToDouble(d -> d).max().orElse(ma);
        double minB = fb.stream().mapToDouble(d -> d).min().orElse(mb);
        double maxB = fb.stream().mapToDouble(d -> d).max().orElse(mb);
        if (a.higherIsBetter()) {
            return new Ratio(ma / mb, minA / maxB, maxA / minB);
        }
        return new Ratio(mb / ma, minB / maxA, maxB / minA);
    }

    private static double medianD(List<Double> d) {
        List<Double> s = new ArrayList<>(d);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static Row find(List<Row> rows, String cls, String method, int threads, Map<String, String> params) {
        for (Row r : rows) {
            if (r.cls().equals(cls) && r.method().equals(method) && r.threads() == threads
                    && r.params().entrySet().containsAll(params.entrySet())) {
                return r;
            }
        }
        return null;
    }

    private static void target(StringBuilder md, String what, String target, String measured, Boolean met) {
        md.append("| ").append(what).append(" | ").append(target).append(" | ").append(measured).append(" | ")
                .append(met == null ? "not run" : met ? "met" : "**missed**").append(" |\n");
    }

    /**
     * Issue 16: Mutex at least 2× ReentrantLock at 2 threads with {@code counter++}, never below it
     * elsewhere (1,000 virtual threads included); RWMutex at least ReentrantReadWriteLock at 2 and 8 threads.
     */
    private static void mutexTargets(StringBuilder md, List<Row> rows) {
        for (String section : List.of("empty", "increment", "long")) {
            Map<String, String> p = Map.of("section", section);
            for (int t : new int[] {1, 2, 4, 8}) {
                ratioTarget(md, rows, "LockBenchmark", "mutex", "reentrantLock", t, p,
                        "Mutex vs ReentrantLock, " + section + ", " + t + " thread" + (t > 1 ? "s" : ""),
                        t == 2 && section.equals("increment") ? 2 : 1);
            }
            ratioTarget(md, rows, "VirtualThreadLockBenchmark", "mutex", "reentrantLock", 1, p,
                    "Mutex vs ReentrantLock, " + section + ", 1,000 virtual threads", 1);
        }
        for (int t : new int[] {2, 8}) {
            ratioTarget(md, rows, "RWMutexBenchmark", "rwMutex", "reentrantReadWriteLock", t, Map.of(),
                    "RWMutex vs ReentrantReadWriteLock, 90% reads, " + t + " threads", 1);
        }
    }

    /** A "no slower than the better of two peers" target row for a time (lower is better); none if any did not run. */
    private static void betterPeerTarget(StringBuilder md, String what, String unit, Row ours, Row peerA, Row peerB) {
        if (ours == null || peerA == null || peerB == null) {
            return;
        }
        Row best = peerA.primary().score() <= peerB.primary().score() ? peerA : peerB;
        Ratio r = ratio(ours, best);
        target(md, what, "≤ the better peer (≥ 1×)", fmt(ours.primary().score()) + " " + unit + " vs "
                + shortName(best.impl()) + " " + fmt(best.primary().score()) + " " + unit + ": " + r.text(), r.median() >= 1);
    }

    /** A "times faster than the peer" target row, with fairness where the benchmark measures it; none if either did not run. */
    private static void ratioTarget(StringBuilder md, List<Row> rows, String cls, String ours, String peer, int threads,
            Map<String, String> params, String what, double need) {
        Row o = find(rows, cls, ours, threads, params);
        Row p = find(rows, cls, peer, threads, params);
        if (o == null || p == null) {
            return;
        }
        Ratio r = ratio(o, p);
        String fair = Double.isNaN(fairness(o)) ? ""
                : String.format(Locale.ROOT, "; fairness %.2f vs %.2f", fairness(o), fairness(p));
        target(md, what, String.format(Locale.ROOT, "≥ %.0f×", need), r.text() + fair, r.median() >= need);
    }

    private static void targets(StringBuilder md, List<Row> rows, Map<String, Object> million) {
        md.append("## Targets (issues 5, 16, 17 and 28)\n\n");
        md.append("Ratios are \"times faster than the peer\", the median over forks of each side's per-fork mean, "
                + "and in brackets the extreme pairings of forks (slowest of ours vs fastest peer fork and vice versa).\n\n");
        md.append("| what | target | measured | |\n|---|---|---|---|\n");
        for (String section : List.of("empty", "increment")) {
            Map<String, String> p = Map.of("section", section);
            for (int t : new int[] {1, 2, 4, 8}) {
                Row ours = find(rows, "LockBenchmark", "spinLock", t, p);
                Row peer = find(rows, "LockBenchmark", "reentrantLock", t, p);
                if (ours == null || peer == null) {
                    continue;
                }
                Ratio r = ratio(ours, peer);
                double need = t == 2 ? 4 : 1;
                target(md, "SpinLock vs ReentrantLock, " + section + ", " + t + " thread" + (t > 1 ? "s" : ""),
                        String.format(Locale.ROOT, "≥ %.0f×", need),
                        r.text() + String.format(Locale.ROOT, "; fairness %.2f vs %.2f", fairness(ours), fairness(peer)),
                        r.median() >= need);
            }
            Row ours2 = find(rows, "LockBenchmark", "spinLock", 2, p);
            if (ours2 != null) {
                target(md, "SpinLock vs Go sync.Mutex, " + section + ", 2 threads", "≥ 110–145 ops/µs",
                        fmt(ours2.primary().score()) + " ops/µs", ours2.primary().score() >= 110);
            }
        }
        for (String permits : List.of("1", "4")) {
            for (int t : new int[] {1, 2, 4, 8}) {
                Row ours = find(rows, "WeightedSemaphoreBenchmark", "weightedSemaphore", t, Map.of("permits", permits));
                Row peer = find(rows, "WeightedSemaphoreBenchmark", "semaphoreFair", t, Map.of("permits", permits));
                if (ours != null && peer != null) {
                    Ratio r = ratio(ours, peer);
                    target(md, "WeightedSemaphore vs fair Semaphore, " + permits + " permit" + (permits.equals("1") ? "" : "s")
                            + ", " + t + " thread" + (t > 1 ? "s" : ""), "≥ 1×",
                            fmt(ours.primary().score()) + " vs " + fmt(peer.primary().score()) + " ops/µs: " + r.text(), r.median() >= 1);
                }
            }
        }
        mutexTargets(md, rows);
        for (String s : List.of("inline", "handed")) {
            betterPeerTarget(md, "WaitGroup fork-join of 8, " + s, "ns", find(rows, "ForkJoinBenchmark", s + "_waitGroup", 1, Map.of()),
                    find(rows, "ForkJoinBenchmark", s + "_countDownLatch", 1, Map.of()),
                    find(rows, "ForkJoinBenchmark", s + "_phaser", 1, Map.of()));
        }
        // Issue 17: a TaskGroup fan-out no slower than the better of invokeAll and allOf (each bounded by a Semaphore).
        for (String tasks : List.of("8", "1000")) {
            for (String submitter : List.of("platform", "virtual")) {
                Map<String, String> p = Map.of("tasks", tasks, "submitter", submitter);
                betterPeerTarget(md, "TaskGroup fan-out of " + tasks + ", limit 8, " + submitter + " submitter", "µs",
                        find(rows, "TaskGroupBenchmark", "taskGroup", 1, p), find(rows, "TaskGroupBenchmark", "invokeAll", 1, p),
                        find(rows, "TaskGroupBenchmark", "allOf", 1, p));
            }
        }
        // {ours, peer, note}. The last row is a control, not a target of its own: the same holder called through
        // a Supplier, the call shape of Once.value, tells the class check at the call site apart from Once's cost.
        String[][] once = {{"run_once", "run_volatileFlag", ""}, {"run_onceFunc", "run_volatileFlag", ""},
            {"value_onceValue", "value_volatileHolder", ""},
            {"value_onceValue", "value_volatileHolderAsSupplier", " (control: the holder behind the same Supplier call)"}};
        for (String[] o : once) {
            Row ours = find(rows, "OnceBenchmark", o[0], 1, Map.of());
            Row peer = find(rows, "OnceBenchmark", o[1], 1, Map.of());
            if (ours != null && peer != null) {
                Ratio r = ratio(ours, peer);
                target(md, "Once fast path: " + o[0].replace('_', ' ') + " vs "
                        + NAMES.get(o[1].substring(o[1].indexOf('_') + 1)) + o[2],
                        "within 10% (≥ 0.91×)", fmt(ours.primary().score()) + " vs " + fmt(peer.primary().score()) + " ns: " + r.text(),
                        r.median() >= 1 / 1.1);
            }
        }
        Set<String> caps = new LinkedHashSet<>();
        rows.stream().filter(r -> r.cls().equals("PoolTrivialBenchmark")).forEach(r -> caps.add(r.params().get("capacity")));
        Row tpe = find(rows, "ExecutorTrivialBenchmark", "threadPoolExecutor", 1, Map.of());
        Row fjp = find(rows, "ExecutorTrivialBenchmark", "forkJoinCommonPool", 1, Map.of());
        for (String cap : caps) {
            for (String impl : List.of("pool", "poolWithFunc", "multiPool")) {
                Row ours = find(rows, "PoolTrivialBenchmark", impl, 1, Map.of("capacity", cap));
                if (ours == null) {
                    continue;
                }
                if (tpe != null) {
                    Ratio r = ratio(ours, tpe);
                    target(md, NAMES.get(impl) + " (cap " + cap + ") vs ThreadPoolExecutor(2), trivial tasks", "faster (> 1×)",
                            fmt(ours.primary().score()) + " vs " + fmt(tpe.primary().score()) + " ns/task: " + r.text(), r.median() > 1);
                }
                if (fjp != null) {
                    Ratio r = ratio(ours, fjp);
                    target(md, NAMES.get(impl) + " (cap " + cap + ") vs ForkJoinPool.commonPool()", "aim: ≥ 1×",
                            fmt(ours.primary().score()) + " vs " + fmt(fjp.primary().score()) + " ns/task: " + r.text(), r.median() >= 1);
                }
                if (impl.equals("poolWithFunc")) {
                    Metric m = ours.secondary().getOrDefault("·gc.alloc.rate.norm", ours.secondary().get("gc.alloc.rate.norm"));
                    target(md, "PoolWithFunc.invoke allocation (cap " + cap + ")", "≈ 0 B/op (< 1)",
                            m == null ? "run with -prof gc" : fmt(m.score()) + " B/op", m == null ? null : m.score() < 1);
                }
            }
        }
        channelTargets(md, rows);
        if (million != null) {
            Map<String, Map<String, Object>> cases = new LinkedHashMap<>();
            for (Object o : Json.arr(million.get("cases"))) {
                cases.put((String) Json.obj(o).get("case"), Json.obj(o));
            }
            Map<String, Object> base = cases.get("virtualThreadsSemaphore");
            for (String impl : List.of("pool", "poolWithFunc", "multiPool")) {
                Map<String, Object> c = cases.get(impl);
                if (c == null || base == null || c.containsKey("error") || base.containsKey("error")) {
                    continue;
                }
                double t = Json.num(c.get("medianWallMs"));
                double bt = Json.num(base.get("medianWallMs"));
                double m = Json.num(c.get("medianVmHwmKiB"));
                double bm = Json.num(base.get("medianVmHwmKiB"));
                target(md, MILLION_NAMES.get(impl) + ", 1M × 10 ms: time vs VT + Semaphore", "faster (> 1×)",
                        String.format(Locale.ROOT, "%s s vs %s s: %.2f×", fmt(t / 1000), fmt(bt / 1000), bt / t), bt / t > 1);
                target(md, MILLION_NAMES.get(impl) + ", 1M × 10 ms: peak RSS vs VT + Semaphore", "≤ half (≤ 0.50)",
                        String.format(Locale.ROOT, "%s MiB vs %s MiB: %.2f", fmt(m / 1024), fmt(bm / 1024), m / bm), m / bm <= 0.5);
                if (impl.equals("pool")) {
                    target(md, "Pool, 1M × 10 ms: time vs ants in Go", "aim: 1.2–1.8 s",
                            fmt(t / 1000) + " s", t <= 1800);
                }
            }
        }
        md.append('\n');
    }

    // ------------------------------------------------------------------ channels

    /** ChannelBenchmark's methods, the shapes of issue 28, with their names in the report. */
    static final Map<String, String> SHAPES = new LinkedHashMap<>();

    static {
        SHAPES.put("oneToOne", "1 → 1");
        SHAPES.put("parallelPairs", "10,000 pairs");
        SHAPES.put("selectOfTwo", "select of two");
    }

    static final List<String> CHAN_THREADS = List.of("virtual", "platform");

    /** The JDK's queue in ChannelBenchmark at that capacity. */
    static String jdkQueue(String capacity) {
        return capacity.equals("0") ? "SynchronousQueue" : "ArrayBlockingQueue";
    }

    private static String capacityName(String capacity) {
        return capacity.equals("0") ? "rendezvous" : "buffered(" + capacity + ")";
    }

    /** The capacities ChannelBenchmark ran with, in numeric order. */
    private static List<String> chanCapacities(List<Row> rows) {
        TreeSet<String> caps = new TreeSet<>(Comparator.comparingDouble(Report::numeric).thenComparing(s -> s));
        rows.stream().filter(r -> r.cls().equals("ChannelBenchmark")).forEach(r -> caps.add(r.params().get("capacity")));
        return new ArrayList<>(caps);
    }

    private static Row chan(List<Row> rows, String shape, String impl, String capacity, String threads) {
        return find(rows, "ChannelBenchmark", shape, 1, Map.of("impl", impl, "capacity", capacity, "threads", threads));
    }

    /**
     * Issue 28: Chan at least as fast as jox in every shape and twice as fast in select; at least as fast as
     * SynchronousQueue (rendezvous) and ArrayBlockingQueue (buffered).
     */
    private static void channelTargets(StringBuilder md, List<Row> rows) {
        for (String shape : SHAPES.keySet()) {
            for (String cap : chanCapacities(rows)) {
                for (String threads : CHAN_THREADS) {
                    Row ours = chan(rows, shape, "ants4j", cap, threads);
                    if (ours == null) {
                        continue;
                    }
                    String where = SHAPES.get(shape) + ", " + capacityName(cap) + ", " + threads + " threads";
                    for (String peer : List.of("jox", "jdk")) {
                        Row p = chan(rows, shape, peer, cap, threads);
                        if (p == null) {
                            continue;
                        }
                        Ratio r = ratio(ours, p);
                        double need = peer.equals("jox") && shape.equals("selectOfTwo") ? 2 : 1;
                        target(md, "Chan vs " + (peer.equals("jox") ? "jox" : jdkQueue(cap)) + ", " + where,
                                String.format(Locale.ROOT, "≥ %.0f×", need),
                                fmt(ours.primary().score()) + " vs " + fmt(p.primary().score()) + " ns/value: " + r.text(),
                                r.median() >= need);
                    }
                }
            }
        }
    }

    /** One table of every shape, capacity and threads kind, Chan beside jox and the JDK's queue; a chart per shape. */
    private static void channels(StringBuilder md, List<Row> rows, Path outDir) throws IOException {
        List<String> caps = chanCapacities(rows);
        if (caps.isEmpty()) {
            return;
        }
        md.append("## Channels: Chan vs jox vs the JDK's queues\n\n");
        md.append("ns per value passed (lower is better). 1 → 1: one producer and one consumer on one channel; "
                + "10,000 pairs: 10,000 producer/consumer pairs at once, each on a channel of its own (jox's \"parallel\"); "
                + "select of two: one thread selects a receive from either of two channels, each fed by a producer of its own. "
                + "The JDK's queue is `SynchronousQueue` at rendezvous and `ArrayBlockingQueue` buffered; the JDK has no select. "
                + "Threads: the kind the producers, consumers and selector run on. 10,000 pairs on platform threads start "
                + "20,000 threads per invocation, so the suite runs it with 1 fork, 1 warm-up and 2 measurement iterations. "
                + "Ratios: how many times faster Chan is than the peer.\n\n");
        md.append("| shape | capacity | threads | **Chan (ours)** | jox Channel | JDK queue | Chan vs jox | Chan vs JDK |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|\n");
        StringBuilder charts = new StringBuilder();
        for (String shape : SHAPES.keySet()) {
            List<Map.Entry<String, Double>> bars = new ArrayList<>();
            List<Boolean> ours = new ArrayList<>();
            for (String cap : caps) {
                for (String threads : CHAN_THREADS) {
                    Row o = chan(rows, shape, "ants4j", cap, threads);
                    Row j = chan(rows, shape, "jox", cap, threads);
                    Row q = chan(rows, shape, "jdk", cap, threads);
                    if (o == null && j == null && q == null) {
                        continue;
                    }
                    md.append("| ").append(SHAPES.get(shape)).append(" | ").append(capacityName(cap)).append(" | ")
                            .append(threads).append(" | ").append(chanCell(o)).append(" | ").append(chanCell(j))
                            .append(" | ").append(chanCell(q))
                            .append(" | ").append(o == null || j == null ? "–" : String.format(Locale.ROOT, "%.2f×", speedup(o, j)))
                            .append(" | ").append(o == null || q == null ? "–" : String.format(Locale.ROOT, "%.2f×", speedup(o, q)))
                            .append(" |\n");
                    String at = threads + ", cap " + cap + ": ";
                    for (Row r : new Row[] {o, j, q}) {
                        if (r != null) {
                            bars.add(new AbstractMap.SimpleEntry<>(at + (r == q ? jdkQueue(cap) : NAMES.get(r.impl())),
                                    r.primary().score()));
                            ours.add(r == o);
                        }
                    }
                }
            }
            if (!bars.isEmpty()) {
                String title = "Channels: " + SHAPES.get(shape);
                String file = "bench-channels-" + shape.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT) + ".svg";
                Files.writeString(outDir.resolve(file), Svg.barChart(title, "ns per value (lower is better)", bars, ours));
                charts.append("![").append(title).append("](").append(file).append(")\n\n");
            }
        }
        md.append('\n').append(charts);
    }

    private static String chanCell(Row r) {
        if (r == null) {
            return "–";
        }
        String s = fmt(r.primary().score());
        if (!Double.isNaN(r.primary().error())) {
            s += " ± " + fmt(r.primary().error());
        }
        return s;
    }

    // ------------------------------------------------------------------ numbers

    /** Three significant digits, thousands separated. */
    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (a == 0) {
            return "0";
        }
        if (a >= 0.01) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        return String.format(Locale.ROOT, "%.1e", v);
    }
}
