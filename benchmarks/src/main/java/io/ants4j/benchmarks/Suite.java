package io.ants4j.benchmarks;

import io.ants4j.benchmarks.million.MillionTasksRunner;
import io.ants4j.benchmarks.report.Report;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The benchmark suite behind {@code benchmarks/run.sh}: runs the JMH benchmarks and the 1M-task
 * case, prints one table row per result as it goes (JMH's own output goes to a log file), and
 * writes the report.
 *
 * <pre>
 * java -cp benchmarks.jar io.ants4j.benchmarks.Suite [--full | --smoke] [--out target/report]
 *     [--only locks,vlocks,rwlocks,waitgroup,forkjoin,once,cond,semaphore,taskgroup,singleflight,pool,parallel,channels,million]
 *     [--command TEXT]
 * </pre>
 * <ul>
 *   <li>default (headline, a few minutes): locks with the incrementing critical section at 1, 2, 4, 8
 *       threads; 100,000 trivial tasks through every pool and executor (with {@code -prof gc});
 *       1M × 10 ms tasks once per case. 1 fork, 2 × 0.5 s warm-up, 3 × 0.5 s measurement.</li>
 *   <li>{@code --full} (about 100 minutes on 2 CPUs, the channels an estimated 12–18 of them): every benchmark of the
 *       module, 3 forks (2 for Go's WaitGroup benchmarks), 2 × 1 s warm-up, 4 × 1 s measurement (10,000 channel
 *       pairs on platform threads: 1 fork, 1 warm-up, 2 measurement iterations); 1M tasks 3 runs per case.</li>
 *   <li>{@code --smoke}: everything, shortest settings and 2,000 tasks in the 1M case: proves
 *       that each benchmark runs and the report renders; the numbers mean nothing.</li>
 * </ul>
 * On JDK 23+ every forked JMH JVM runs with {@code --sun-misc-unsafe-memory-access=debug} (JMH 1.37
 * calls {@code Unsafe.objectFieldOffset} itself, so {@code deny} would kill its forks) and any
 * {@code Unsafe} caller other than JMH is reported; the 1M-task JVMs run with {@code =deny}.
 */
public final class Suite {

    /**
     * One JMH invocation of the plan. A {@code slow} step, one whose invocation takes seconds, runs at most 1 fork,
     * 1 warm-up and 2 measurement iterations.
     */
    record Step(String part, String title, String include, List<Integer> threads, Map<String, String[]> params,
            boolean gc, int forks, boolean slow) {

        Step(String part, String title, String include, List<Integer> threads, Map<String, String[]> params,
                boolean gc, int forks) {
            this(part, title, include, threads, params, gc, forks, false);
        }
    }

    record Settings(String name, int forksScale, int warmups, long warmupMs, int iterations, long iterationMs,
            int millionTasks, int millionRuns) {
    }

    static final Settings HEADLINE = new Settings("headline", 1, 2, 500, 3, 500, 1_000_000, 1);
    static final Settings FULL = new Settings("full", 0, 2, 1000, 4, 1000, 1_000_000, 3);
    static final Settings SMOKE = new Settings("smoke", 1, 0, 100, 1, 100, 2_000, 1);

    static final List<Integer> T1248 = List.of(1, 2, 4, 8);

    static List<Step> plan(Settings s) {
        String b = "io\\.ants4j\\.benchmarks\\.";
        List<Step> steps = new ArrayList<>();
        boolean headline = s == HEADLINE;
        steps.add(new Step("locks", "Locks", b + "locks\\.LockBenchmark\\.", T1248,
                headline ? Map.of("section", new String[] {"increment"}) : Map.of(), false, 3));
        if (!headline) {
            steps.add(new Step("vlocks", "Locks on 1,000 virtual threads", b + "locks\\.VirtualThreadLockBenchmark\\.", null,
                    Map.of(), false, 3));
            steps.add(new Step("rwlocks", "Read-write locks, 90% reads", b + "locks\\.RWMutexBenchmark\\.", List.of(2, 8),
                    Map.of(), false, 3));
            steps.add(new Step("waitgroup", "WaitGroup (Go's benchmarks)", b + "sync\\.WaitGroupBenchmark\\.", T1248,
                    Map.of(), false, 2));
            steps.add(new Step("forkjoin", "WaitGroup fork-join of 8", b + "sync\\.ForkJoinBenchmark\\.", null,
                    Map.of(), false, 3));
            steps.add(new Step("once", "Once fast path", b + "sync\\.OnceBenchmark\\.", List.of(1, 2), Map.of(), false, 3));
            steps.add(new Step("cond", "Cond", b + "sync\\.CondBenchmark\\.", null, Map.of(), false, 3));
            steps.add(new Step("semaphore", "WeightedSemaphore", b + "sync\\.WeightedSemaphoreBenchmark\\.", T1248,
                    Map.of(), false, 3));
            steps.add(new Step("taskgroup", "TaskGroup fan-out", b + "sync\\.TaskGroupBenchmark\\.", null,
                    Map.of(), false, 3));
            steps.add(new Step("singleflight", "SingleFlight", b + "sync\\.SingleFlightBenchmark\\.", null,
                    Map.of(), false, 3));
        }
        steps.add(new Step("pool", "Pool, 100,000 trivial tasks", b + "pool\\.(PoolTrivial|ExecutorTrivial)Benchmark\\.",
                null, Map.of(), true, 3));
        if (!headline) {
            steps.add(new Step("parallel", "Pool, parallel submitters", b + "pool\\.ParallelSubmitBenchmark\\.", T1248,
                    Map.of(), false, 3));
            // The JDK has no select: selectOfTwo returns at once for impl=jdk, so that combination is left out.
            // 2 forks, not 3: the part runs 32 combinations, several of them seconds per invocation
            String chan = b + "channels\\.ChannelBenchmark\\.";
            steps.add(new Step("channels", "Channels, 1 producer -> 1 consumer", chan + "oneToOne$", null,
                    Map.of(), false, 2));
            steps.add(new Step("channels", "Channels, select of two", chan + "selectOfTwo$", null,
                    Map.of("impl", new String[] {"ants4j", "jox"}), false, 2));
            steps.add(new Step("channels", "Channels, 10,000 pairs, virtual threads", chan + "parallelPairs$", null,
                    Map.of("threads", new String[] {"virtual"}), false, 2));
            // 20,000 platform threads per invocation: seconds each
            steps.add(new Step("channels", "Channels, 10,000 pairs, platform threads", chan + "parallelPairs$", null,
                    Map.of("threads", new String[] {"platform"}), false, 1, true));
        }
        return steps;
    }

    public static void main(String[] args) throws Exception {
        Settings settings = HEADLINE;
        Path out = Path.of("target/report");
        Set<String> only = null;
        String command = null;
        for (int k = 0; k < args.length; k++) {
            switch (args[k]) {
                case "--full" -> settings = FULL;
                case "--smoke" -> settings = SMOKE;
                case "--out" -> out = Path.of(args[++k]);
                case "--only" -> only = new LinkedHashSet<>(Arrays.asList(args[++k].split(",")));
                case "--command" -> command = args[++k];
                default -> throw new IllegalArgumentException("unknown option " + args[k]
                        + "; use [--full | --smoke] [--out DIR] [--only parts] [--command TEXT]");
            }
        }
        Files.createDirectories(out);
        List<String> jvmArgs = new ArrayList<>();
        boolean audit = Runtime.version().feature() >= 23;
        if (audit) {
            // JMH 1.37 itself calls Unsafe.objectFieldOffset in its infra classes, so "deny" kills every
            // fork; "debug" reports each call with its caller, and we fail anything that is not JMH.
            jvmArgs.add("--sun-misc-unsafe-memory-access=debug");
        }
        System.out.printf(Locale.ROOT, "ants4j benchmarks, %s settings, JDK %s (%s), %d CPUs; JMH log in %s%n",
                settings.name(), System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), out.resolve("jmh.log"));

        List<RunResult> all = new ArrayList<>();
        Path json = out.resolve("jmh-result.json");
        Path logFile = out.resolve("jmh.log");
        UnsafeFilter filter = new UnsafeFilter(new FileOutputStream(logFile.toFile()));
        Set<String> unsafeViolations = filter.violations;
        try (PrintStream log = new PrintStream(filter, true, StandardCharsets.UTF_8)) {
            for (Step step : plan(settings)) {
                if (only != null && !only.contains(step.part())) {
                    continue;
                }
                System.out.printf(Locale.ROOT, "%n== %s%n", step.title());
                LiveTable table = new LiveTable(OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL));
                List<Integer> threadCounts = step.threads() == null ? java.util.Collections.singletonList(null) : step.threads();
                int forks = settings.forksScale() == 0 ? step.forks() : settings.forksScale();
                int warmups = settings.warmups();
                int iterations = settings.iterations();
                if (step.slow()) {
                    forks = 1;
                    warmups = Math.min(warmups, 1);
                    iterations = Math.min(iterations, 2);
                }
                for (Integer threads : threadCounts) {
                    ChainedOptionsBuilder o = new OptionsBuilder()
                            .include(step.include())
                            .forks(forks)
                            .warmupIterations(warmups)
                            .warmupTime(TimeValue.milliseconds(settings.warmupMs()))
                            .measurementIterations(iterations)
                            .measurementTime(TimeValue.milliseconds(settings.iterationMs()))
                            .shouldFailOnError(false)
                            .jvmArgs(jvmArgs.toArray(new String[0])); // not the harness JVM's flags
                    if (threads != null) {
                        o.threads(threads);
                    }
                    step.params().forEach(o::param);
                    if (step.gc()) {
                        o.addProfiler(GCProfiler.class);
                    }
                    try {
                        all.addAll(new Runner(o.build(), table).run());
                    } catch (RunnerException e) {
                        System.out.println("   FAILED: " + e.getMessage() + " (see jmh.log)");
                    }
                    // keep what we have, so a report can be made from a partial run
                    ResultFormatFactory.getInstance(ResultFormatType.JSON, json.toString()).writeOut(all);
                }
            }
        }
        Path auditFile = out.resolve("unsafe-audit.txt");
        if (audit) {
            Files.writeString(auditFile, unsafeViolations.isEmpty()
                    ? "JMH forks ran with --sun-misc-unsafe-memory-access=debug: no sun.misc.Unsafe call outside JMH's own"
                            + " harness (the 1M-task JVMs run with =deny).\n"
                    : "sun.misc.Unsafe CALLED outside JMH: " + String.join("; ", unsafeViolations) + "\n");
            System.out.printf(Locale.ROOT, "%n%s", Files.readString(auditFile));
        } else {
            Files.deleteIfExists(auditFile);
        }
        Path million = out.resolve("million.json");
        boolean runMillion = only == null || only.contains("million");
        if (runMillion) {
            MillionTasksRunner.run(settings.millionRuns(), settings.millionTasks(), 10, settings == SMOKE ? 200 : 50_000,
                    MillionTasksRunner.DEFAULT_HEAP, null, million);
        }
        // the report is of this run: a million.json left by an earlier run stays out of it
        Path md = Report.generate(List.of(json), runMillion ? million : null, out, command);
        System.out.printf(Locale.ROOT, "%nreport: %s (charts beside it)%n", md);
    }

    /**
     * The log's output stream: drops the {@code --sun-misc-unsafe-memory-access=debug} warnings and
     * their stack traces (JMH's own calls would fill the log) and keeps every caller that is not JMH.
     * A fork's stdout and stderr reach it merged byte by byte, so JMH's progress text ("# Warmup
     * Iteration   1: ", printed before the iteration's result) can land inside a warning line, in
     * the middle of the caller's name; it is taken out before the caller is read.
     */
    static final class UnsafeFilter extends java.io.OutputStream {
        private static final java.util.regex.Pattern CALL = java.util.regex.Pattern
                .compile("sun\\.misc\\.Unsafe::(\\w+) (?:has been )?called by ([\\w.$]+)");
        private static final java.util.regex.Pattern PROGRESS = java.util.regex.Pattern
                .compile("# (?:Warmup )?Iteration +\\d+: ");
        final Set<String> violations = new LinkedHashSet<>();
        private final java.io.OutputStream out;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        private boolean inTrace;

        UnsafeFilter(java.io.OutputStream out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            line.write(b);
            if (b == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                java.util.regex.Matcher m = CALL.matcher(PROGRESS.matcher(text).replaceAll(""));
                if (m.find()) {
                    inTrace = true;
                    String v = m.group(1) + " by " + m.group(2);
                    if (!m.group(2).startsWith("org.openjdk.jmh.") && violations.add(v)) {
                        System.out.println("   UNSAFE USED (not by JMH): " + v);
                        out.write(("UNSAFE USED (not by JMH): " + text).getBytes(StandardCharsets.UTF_8));
                    }
                } else if (inTrace && text.startsWith("\tat ")) {
                    // the stack trace of a debug warning
                } else if (text.startsWith("WARNING: A terminally deprecated method in sun.misc.Unsafe")
                        || text.startsWith("WARNING: Please consider reporting this to the maintainers")) {
                    inTrace = false;
                } else {
                    inTrace = false;
                    out.write(text.getBytes(StandardCharsets.UTF_8));
                }
            }
        }

        @Override
        public synchronized void flush() throws java.io.IOException {
            out.flush();
        }

        @Override
        public synchronized void close() throws java.io.IOException {
            if (line.size() > 0) {
                out.write(line.toByteArray());
            }
            out.close();
        }
    }

    /** JMH's normal output to the log; one line per finished benchmark to the console. */
    static final class LiveTable implements OutputFormat {
        private final OutputFormat log;
        private BenchmarkParams current;

        LiveTable(OutputFormat log) {
            this.log = log;
        }

        @Override
        public void startBenchmark(BenchmarkParams params) {
            log.startBenchmark(params);
            failIfPending();
            current = params;
        }

        private void failIfPending() {
            if (current != null) {
                System.out.printf(Locale.ROOT, "   %-62s FAILED (see jmh.log)%n", label(current));
                current = null;
            }
        }

        @Override
        public void endBenchmark(BenchmarkResult result) {
            log.endBenchmark(result);
            if (result == null || result.getPrimaryResult() == null || current == null) {
                failIfPending();
                return;
            }
            Result<?> p = result.getPrimaryResult();
            StringBuilder extra = new StringBuilder();
            Map<String, Result> sec = result.getSecondaryResults();
            Result<?> min = sec.get("fairMinOps");
            Result<?> max = sec.get("fairMaxOps");
            if (min != null && max != null && max.getScore() > 0 && current.getThreads() > 1) {
                extra.append(String.format(Locale.ROOT, "  fairness %.2f", min.getScore() / max.getScore()));
            }
            Result<?> alloc = sec.get("·gc.alloc.rate.norm");
            if (alloc == null) {
                alloc = sec.get("gc.alloc.rate.norm");
            }
            if (alloc != null) {
                extra.append("  ").append(Report.fmt(alloc.getScore())).append(" B/op");
            }
            String err = Double.isNaN(p.getScoreError()) ? "" : "± " + Report.fmt(p.getScoreError());
            System.out.printf(Locale.ROOT, "   %-62s %10s %-9s %-8s%s%n", label(current), Report.fmt(p.getScore()), err,
                    p.getScoreUnit(), extra);
            current = null;
        }

        private static String label(BenchmarkParams params) {
            String b = params.getBenchmark();
            String cls = b.substring(0, b.lastIndexOf('.'));
            StringBuilder s = new StringBuilder(cls.substring(cls.lastIndexOf('.') + 1).replace("Benchmark", ""))
                    .append('.').append(b.substring(b.lastIndexOf('.') + 1));
            for (String k : params.getParamsKeys()) {
                s.append(' ').append(k).append('=').append(params.getParam(k));
            }
            s.append(" t=").append(params.getThreads());
            return s.toString();
        }

        @Override
        public void endRun(Collection<RunResult> result) {
            log.endRun(result);
            failIfPending();
        }

        @Override
        public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
            log.iteration(benchParams, params, iteration);
        }

        @Override
        public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
                IterationResult data) {
            log.iterationResult(benchParams, params, iteration, data);
        }

        @Override
        public void startRun() {
            log.startRun();
        }

        @Override
        public void print(String s) {
            log.print(s);
        }

        @Override
        public void println(String s) {
            log.println(s);
        }

        @Override
        public void flush() {
            log.flush();
            System.out.flush();
        }

        @Override
        public void close() {
            log.flush();
        }

        @Override
        public void verbosePrintln(String s) {
            log.verbosePrintln(s);
        }

        @Override
        public void write(int b) {
            log.write(b);
        }

        @Override
        public void write(byte[] b) throws java.io.IOException {
            log.write(b);
        }
    }

    private Suite() {
    }
}
