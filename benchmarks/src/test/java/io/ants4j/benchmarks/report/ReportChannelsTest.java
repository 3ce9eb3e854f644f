package io.ants4j.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's Channels section and issue 28's target rows, from ChannelBenchmark's results (impl is a param). */
class ReportChannelsTest {

    @TempDir
    Path dir;

    private static String entry(String method, String impl, int capacity, String threads, double score) {
        return String.format(Locale.ROOT, """
                {"jmhVersion": "1.37", "benchmark": "io.ants4j.benchmarks.channels.ChannelBenchmark.%s", "mode": "avgt",
                 "threads": 1, "forks": 1, "jvmArgs": [],
                 "params": {"impl": "%s", "capacity": "%d", "threads": "%s"},
                 "primaryMetric": {"score": %s, "scoreError": "NaN", "scoreUnit": "ns/op", "rawData": [[%s]]},
                 "secondaryMetrics": {}}""", method, impl, capacity, threads, score, score);
    }

    private String report(String... entries) throws IOException {
        Path json = dir.resolve("jmh-result.json");
        Files.writeString(json, "[" + String.join(",\n", entries) + "]");
        return Files.readString(Report.generate(List.of(json), null, dir, "test"));
    }

    @Test
    void tableRowHasEachImplementationAndBothRatios() throws IOException {
        String md = report(entry("oneToOne", "ants4j", 0, "virtual", 50), entry("oneToOne", "jox", 0, "virtual", 100),
                entry("oneToOne", "jdk", 0, "virtual", 200));
        assertTrue(md.contains("## Channels"), md);
        assertTrue(md.contains("| 1 → 1 | rendezvous | virtual | 50.0 | 100 | 200 | 2.00× | 4.00× |"), md);
        assertTrue(md.contains("![Channels: 1 → 1](bench-channels-one-to-one.svg)"), md);
        assertTrue(Files.readString(dir.resolve("bench-channels-one-to-one.svg")).contains("virtual, cap 0: SynchronousQueue"));
    }

    @Test
    void targetsCompareWithJoxAndTheJdkQueueOfThatCapacity() throws IOException {
        String md = report(entry("oneToOne", "ants4j", 16, "platform", 120), entry("oneToOne", "jox", 16, "platform", 100),
                entry("oneToOne", "jdk", 16, "platform", 240));
        assertTrue(md.contains("| Chan vs jox, 1 → 1, buffered(16), platform threads | ≥ 1× | 120 vs 100 ns/value: 0.83× | **missed** |"), md);
        assertTrue(md.contains("| Chan vs ArrayBlockingQueue, 1 → 1, buffered(16), platform threads | ≥ 1× | 120 vs 240 ns/value: 2.00× | met |"), md);
    }

    @Test
    void selectNeedsTwiceJoxAndHasNoJdkPeer() throws IOException {
        String md = report(entry("selectOfTwo", "ants4j", 0, "virtual", 60), entry("selectOfTwo", "jox", 0, "virtual", 90));
        assertTrue(md.contains("| Chan vs jox, select of two, rendezvous, virtual threads | ≥ 2× | 60.0 vs 90.0 ns/value: 1.50× | **missed** |"), md);
        assertTrue(md.contains("| select of two | rendezvous | virtual | 60.0 | 90.0 | – | 1.50× | – |"), md);
        assertFalse(md.contains("Chan vs SynchronousQueue"), md);
    }

    @Test
    void rowsAreOrderedByShapeCapacityThenThreads() throws IOException {
        List<String> entries = new ArrayList<>();
        for (String shape : List.of("selectOfTwo", "oneToOne")) {
            for (int cap : new int[] {16, 0}) {
                for (String threads : List.of("platform", "virtual")) {
                    entries.add(entry(shape, "ants4j", cap, threads, 10));
                }
            }
        }
        String md = report(entries.toArray(new String[0]));
        int a = md.indexOf("| 1 → 1 | rendezvous | virtual |");
        int b = md.indexOf("| 1 → 1 | rendezvous | platform |");
        int c = md.indexOf("| 1 → 1 | buffered(16) | virtual |");
        int d = md.indexOf("| select of two | rendezvous | virtual |");
        assertTrue(a >= 0 && a < b && b < c && c < d, md);
    }
}
