import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Sums up a jcstress HTML report as a Markdown table: for each test, how many VM configurations ran it, how many
 * samples it collected in all, and how many of those fell on each outcome, grouped by expectation. Run by
 * {@code stress-tests/run.sh} after jcstress; on its own: {@code java stress-tests/Summary.java REPORT_DIR}.
 *
 * <p>It reads each test's page ({@code <test name>.html}), whose results table has (jcstress 0.16) the
 * states as columns, a row naming each state's expectation, then one row per VM
 * configuration with its status and one count per state. Exits 1 if any sample fell on a FORBIDDEN or UNKNOWN
 * state or any configuration did not pass (FAILED, ERROR), 2 if the report has no test pages.
 */
public final class Summary {

    /** A column of the results table: one observed state. */
    private static final Pattern STATE = Pattern.compile("<th nowrap align='center'>([^<]*)</th>");
    /** The row under the states that names each one's expectation. */
    private static final Pattern EXPECTATIONS = Pattern.compile("<tr>\\s*<td colspan=4></td>((?:\\s*<td>[^<]*</td>)+)");
    private static final Pattern CELL = Pattern.compile("<td>([^<]*)</td>");
    /** A row of the results table: one VM configuration, its status, then one count per state. */
    private static final Pattern CONFIG = Pattern.compile(
            "<td align='center' bgColor='[^']*'>([A-Z ]+)</td>((?:\\s*<td align='right'[^>]*>\\d+</td>)*)");
    private static final Pattern COUNT = Pattern.compile(">(\\d+)</td>");

    private Summary() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java Summary.java JCSTRESS_REPORT_DIR");
            System.exit(2);
        }
        List<Path> pages;
        try (Stream<Path> files = Files.list(Path.of(args[0]))) {
            pages = files.filter(p -> p.getFileName().toString().matches("io\\.ants4j\\..*\\.html")).sorted().toList();
        }
        if (pages.isEmpty()) {
            System.err.println("no test pages in " + args[0]);
            System.exit(2);
        }
        System.out.println("| test | configurations | samples | acceptable | interesting | forbidden |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        long allSamples = 0;
        long allForbidden = 0;
        int notPassed = 0;
        for (Path page : pages) {
            String html = Files.readString(page);
            List<String> states = all(STATE, html);
            Matcher e = EXPECTATIONS.matcher(html);
            List<String> expects = e.find() ? all(CELL, e.group(1)) : List.of();
            if (expects.size() != states.size()) {
                throw new IllegalStateException(page + ": " + states.size() + " states but " + expects.size()
                        + " expectations; has the jcstress report format changed?");
            }
            int configs = 0;
            long[] counts = new long[states.size()];
            Map<String, Long> byExpect = new LinkedHashMap<>();
            for (Matcher row = CONFIG.matcher(html); row.find(); ) {
                configs++;
                String status = row.group(1).strip();
                if (!status.equals("OK") && !status.equals("PASSED")) {
                    byExpect.merge("NOT PASSED: " + status, 1L, Long::sum);
                }
                List<String> cells = all(COUNT, row.group(2));
                for (int i = 0; i < cells.size() && i < counts.length; i++) {
                    counts[i] += Long.parseLong(cells.get(i));
                }
            }
            List<String> forbiddenSeen = new ArrayList<>();
            for (int i = 0; i < counts.length; i++) {
                String expect = expects.get(i).toUpperCase(java.util.Locale.ROOT);
                byExpect.merge(expect, counts[i], Long::sum);
                if (counts[i] > 0 && (expect.startsWith("FORBIDDEN") || expect.startsWith("UNKNOWN"))) {
                    forbiddenSeen.add(states.get(i) + " x" + counts[i]);
                }
            }
            long samples = java.util.Arrays.stream(counts).sum();
            long forbidden = byExpect.getOrDefault("FORBIDDEN", 0L) + byExpect.getOrDefault("UNKNOWN", 0L);
            for (String k : byExpect.keySet()) {
                if (k.startsWith("NOT PASSED")) {
                    forbiddenSeen.add(k + " x" + byExpect.get(k));
                    notPassed++;
                }
            }
            allSamples += samples;
            allForbidden += forbidden;
            String name = page.getFileName().toString().replaceFirst("\\.html$", "")
                    .replaceFirst("^io\\.ants4j\\.stress\\.", "");
            System.out.printf("| %s | %d | %,d | %,d | %,d | %,d%s |%n", name, configs, samples,
                    byExpect.getOrDefault("ACCEPTABLE", 0L), byExpect.getOrDefault("INTERESTING", 0L),
                    forbidden, forbiddenSeen.isEmpty() ? "" : " " + forbiddenSeen);
        }
        System.out.printf("| **%d tests** | | **%,d** | | | **%,d** |%n", pages.size(), allSamples, allForbidden);
        System.exit(allForbidden == 0 && notPassed == 0 ? 0 : 1);
    }

    private static List<String> all(Pattern p, CharSequence text) {
        List<String> found = new ArrayList<>();
        for (Matcher m = p.matcher(text); m.find(); ) {
            found.add(m.group(1));
        }
        return found;
    }
}
