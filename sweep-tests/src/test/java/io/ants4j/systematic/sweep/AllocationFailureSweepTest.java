package io.ants4j.systematic.sweep;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The allocation-failure sweep (issue 27): every public operation of the primitives and every pool entry point
 * runs with the heap exhausted at each allocation it makes, then the object's invariants are checked and it must
 * still work. The scenarios are the table in {@link Scenarios}; {@link SweepMain} sweeps them in JVMs of their own
 * (small heap, serial collector, no TLABs, interpreter only), two at a time; each scenario is a test here.
 *
 * <p>System properties: {@code -Dsweep.full=true} sweeps every scenario blindly as well, in steps of 8 bytes
 * (see docs/testing.md for its time); {@code -Dsweep.only=REGEX} runs the scenarios whose name matches;
 * {@code -Dsweep.jvms=N} runs N sweep JVMs at once (default 2); {@code -Dsweep.verbose=true} logs every run
 * (free bytes, what the operation threw, which allocation) to {@code target/sweep/jvm-*.log}.
 *
 * <p>A scenario listed in {@link #KNOWN_DEFECTS} fails today for the reason given: its test passes while it
 * fails, and fails once it passes, so that the list is kept true (remove the entry with the fix).
 */
class AllocationFailureSweepTest {
    /** Scenarios that fail on the current code, and why. */
    static final Map<String, String> KNOWN_DEFECTS = Map.of();

    private static final boolean FULL = Boolean.getBoolean("sweep.full");
    private static final Pattern ONLY = Pattern.compile(System.getProperty("sweep.only", ".*"));
    private static final int JVMS = Integer.getInteger("sweep.jvms", 2);
    /** Silence of a sweep JVM after which it counts as hung: a scenario's own bounds are far shorter. */
    private static final long SILENCE_SECONDS = FULL ? 600 : 180;

    private static final Path OUT = Path.of(System.getProperty("basedir", "."), "target", "sweep");

    /** What a sweep JVM said about a scenario. */
    record Outcome(boolean passed, String line, List<String> detail) {
    }

    @TestFactory
    @Timeout(value = 3, unit = TimeUnit.HOURS)
    Stream<DynamicTest> sweep() throws Exception {
        List<String> names = new ArrayList<>();
        for (Scenario<?> s : Scenarios.all()) {
            if (ONLY.matcher(s.name()).find() && (FULL || Scenarios.inDefaultRun(s.name()))) {
                names.add(s.name());
            }
        }
        for (String known : KNOWN_DEFECTS.keySet()) {
            if (!Scenarios.byName().containsKey(known)) {
                throw new IllegalStateException("KNOWN_DEFECTS names no scenario: " + known);
            }
        }
        Files.createDirectories(OUT);
        Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
        List<Thread> drivers = new ArrayList<>();
        int jvms = Math.max(1, Math.min(JVMS, names.size()));
        long start = System.nanoTime();
        for (int k = 0; k < jvms; k++) {
            List<String> share = new ArrayList<>();
            for (int i = k; i < names.size(); i += jvms) {
                share.add(names.get(i));
            }
            int id = k;
            drivers.add(Thread.ofPlatform().name("sweep-driver-" + k).start(() -> drive(id, share, outcomes)));
        }
        for (Thread t : drivers) {
            t.join();
        }
        System.out.printf("allocation-failure sweep (%s): %d scenarios in %d s%n", FULL ? "full" : "default",
                names.size(), (System.nanoTime() - start) / 1_000_000_000L);
        return names.stream().map(n -> DynamicTest.dynamicTest(n, () -> verify(n, outcomes.get(n))));
    }

    private static void verify(String name, Outcome o) {
        String known = KNOWN_DEFECTS.get(name);
        if (o == null) {
            fail("no outcome reported for " + name);
        }
        System.out.println(o.line);
        if (o.passed && known != null) {
            fail(name + " passes now: remove it from KNOWN_DEFECTS (" + known + ")");
        }
        if (!o.passed && known == null) {
            fail(o.line + (o.detail.isEmpty() ? "" : "\n" + String.join("\n", o.detail)));
        }
    }

    /**
     * The command that runs {@code main} with {@code args} in a JVM set up as a sweep JVM is: the toolchain's
     * {@code java}, the interpreter only, a 32 MB heap, the serial collector without TLABs, and this class path.
     */
    static List<String> sweepJvm(Class<?> main, String... args) {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xint", "-XX:+UseSerialGC", "-XX:-UseTLAB",
                "-Xms32m", "-Xmx32m", "-Xmn8m", "-XX:ActiveProcessorCount=2",
                // every collection compacts fully and clears soft references: no dead space or soft garbage left
                // behind by the filler's collections for the operation's last-ditch collection to hand out
                "-XX:MarkSweepDeadRatio=0", "-XX:MarkSweepAlwaysCompactCount=1", "-XX:SoftRefLRUPolicyMSPerMB=0",
                "-Dsweep.verbose=" + Boolean.getBoolean("sweep.verbose"),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs {@code names} in sweep JVMs, one after the other, starting a new JVM when one dies or hangs. */
    private static void drive(int id, List<String> names, Map<String, Outcome> outcomes) {
        List<String> left = new ArrayList<>(names);
        for (int generation = 0; !left.isEmpty(); generation++) {
            try {
                runJvm(id, generation, left, outcomes);
            } catch (Exception e) {
                outcomes.putIfAbsent(left.get(0), new Outcome(false, "FAIL " + left.get(0)
                        + ": the sweep JVM could not run: " + e, List.of()));
            }
            left.removeIf(outcomes::containsKey);
        }
    }

    private static void runJvm(int id, int generation, List<String> names, Map<String, Outcome> outcomes)
            throws Exception {
        List<String> cmd = sweepJvm(SweepMain.class, OUT.toString(), FULL ? "full" : "quick");
        cmd.addAll(names);
        Path log = OUT.resolve("jvm-" + id + "-" + generation + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofPlatform().daemon(true).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                 var w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (String l; (l = r.readLine()) != null;) {
                    w.write(l);
                    w.newLine();
                    w.flush();
                    lines.add(l);
                }
            } catch (IOException e) {
                lines.add(SweepMain.PREFIX + "EOF|" + e);
            }
            lines.add(SweepMain.PREFIX + "EOF|");
        });
        String current = null;
        Map<String, List<String>> details = new LinkedHashMap<>();
        try {
            for (;;) {
                String l = lines.poll(SILENCE_SECONDS, TimeUnit.SECONDS);
                if (l == null) {
                    String dump = threadDump(p);
                    p.destroyForcibly();
                    if (current != null) {
                        outcomes.put(current, new Outcome(false, "FAIL " + current + ": the sweep JVM was silent for "
                                + SILENCE_SECONDS + " s (hung); its threads:\n" + dump, List.of()));
                    }
                    return;
                }
                if (!l.startsWith(SweepMain.PREFIX)) {
                    continue;
                }
                String[] f = l.substring(SweepMain.PREFIX.length()).split("\\|", 3);
                switch (f[0]) {
                    case "BEGIN" -> current = f[1];
                    case "PASS" -> outcomes.put(f[1], new Outcome(true, "PASS " + f[1] + " " + f[2], List.of()));
                    case "FAIL" -> {
                        details.put(f[1], new ArrayList<>());
                        outcomes.put(f[1], new Outcome(false, "FAIL " + f[1] + ": " + f[2], details.get(f[1])));
                    }
                    case "DETAIL" -> {
                        if (current != null && details.containsKey(current)) {
                            details.get(current).add(f[1] + (f.length > 2 ? "|" + f[2] : ""));
                        }
                    }
                    case "EOF" -> {
                        p.waitFor(10, TimeUnit.SECONDS);
                        if (current != null && !outcomes.containsKey(current)) {
                            outcomes.put(current, new Outcome(false, "FAIL " + current + ": the sweep JVM ended ("
                                    + (p.isAlive() ? "still alive" : "exit " + p.exitValue()) + ") in it; see "
                                    + log, List.of()));
                        }
                        return;
                    }
                    default -> { }
                }
            }
        } finally {
            p.destroyForcibly();
            reader.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    /** The sweep JVM's threads, through the JDK's jcmd, for a report. */
    private static String threadDump(Process p) {
        try {
            Path jcmd = Path.of(ProcessHandle.current().info().command().orElseThrow()).resolveSibling("jcmd");
            Process d = new ProcessBuilder(jcmd.toString(), Long.toString(p.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            String out = new String(d.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            d.waitFor(30, TimeUnit.SECONDS);
            return out;
        } catch (Exception e) {
            return "no thread dump: " + e;
        }
    }
}
