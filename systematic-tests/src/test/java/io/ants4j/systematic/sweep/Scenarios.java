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
        l.addAll(PoolScenarios.all());
        return l;
    }

    /**
     * The scenarios of the default run (CI, about two minutes on two cores): every primitive operation and every
     * entry point of the pools once, on the default virtual workers, plus a new platform worker; the entry points
     * on platform workers and the life cycle of a {@code MultiPool} beyond release and reboot (it delegates to
     * its pools, which the {@code Pool} scenarios cover) run with {@code -Dsweep.full=true}.
     */
    static boolean inDefaultRun(String name) {
        if (name.endsWith(PoolScenarios.Workers.PLATFORM.suffix)) {
            return name.startsWith("Pool.execute (new worker)");
        }
        return !name.matches("MultiPool\\.(shutdown|shutdownNow|close|awaitTermination)");
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
