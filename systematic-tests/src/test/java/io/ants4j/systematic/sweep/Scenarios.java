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
     * The scenarios of the default run (CI): all but the pool's entry points on platform workers, which repeat
     * those on virtual workers except where a worker or background thread is started (a new worker, reboot,
     * purge, and release, which stops them): those run on both. {@code -Dsweep.full=true} runs all.
     */
    static boolean inDefaultRun(String name) {
        return !name.endsWith(PoolScenarios.Workers.PLATFORM.suffix) || name.contains("new worker")
                || name.contains(".reboot") || name.contains(".purge") || name.startsWith("Pool.release");
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
