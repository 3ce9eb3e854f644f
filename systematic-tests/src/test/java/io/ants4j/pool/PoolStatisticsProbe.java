package io.ants4j.pool;

import java.lang.reflect.Field;
import java.util.Set;

/**
 * For the Fray tests of {@code io.ants4j.systematic}: whether a pool is in the set that the periodic
 * {@code ants4j.PoolStatistics} event reports, read through reflection (the set is private to {@link PoolEvents}).
 */
public final class PoolStatisticsProbe {
    private PoolStatisticsProbe() {
    }

    /** Whether {@code pool} is in the set of pools the periodic {@code ants4j.PoolStatistics} event reports. */
    public static boolean inPeriodicStatistics(WorkerPool pool) throws ReflectiveOperationException {
        Field f = PoolEvents.class.getDeclaredField("POOLS");
        f.setAccessible(true);
        for (Object r : (Set<?>) f.get(null)) {
            if (((PoolEvents.Registration) r).get() == pool) {
                return true;
            }
        }
        return false;
    }
}
