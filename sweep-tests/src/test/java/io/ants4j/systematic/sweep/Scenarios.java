package io.ants4j.systematic.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sweep's table: every scenario, by name, in the order they run. */
final class Scenarios {
    private Scenarios() {
    }

    static List<Scenario<?>> all() {
        List<Scenario<?>> l = new ArrayList<>(PrimitiveScenarios.all());
        l.addAll(InterruptedEntryScenarios.all());
        l.addAll(SingleFlightScenarios.all());
        l.addAll(ChannelScenarios.all());
        l.addAll(PoolScenarios.all());
        return l;
    }

    /**
     * The scenarios of the quick run (every run but {@code -Dsweep.full=true}): every scenario but the life cycle
     * of a {@code MultiPool} beyond release and reboot (it delegates to its pools, which the {@code Pool}
     * scenarios cover) and the interrupted {@code releaseTimeout}s (each waits out its timeout on every run, about
     * a minute a scenario). Which of them a build runs is {@code sweep.only}'s choice (sweep-tests/pom.xml).
     */
    static boolean inDefaultRun(String name) {
        return !name.matches("MultiPool\\.(shutdown|shutdownNow|close|awaitTermination)( .*)?")
                && !name.contains(".releaseTimeout (interrupted while waiting)");
    }

    static Map<String, Scenario<?>> byName() {
        Map<String, Scenario<?>> m = new LinkedHashMap<>();
        for (Scenario<?> s : all()) {
            if (m.put(s.name(), s) != null) {
                throw new IllegalStateException("two scenarios named " + s.name());
            }
        }
        return m;
    }
}
