package io.ants4j.pool;

import java.lang.reflect.Field;
import java.util.function.Consumer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/** Reaches into a multi-pool, for tests that need a sub-pool built otherwise than the multi-pool builds it. */
final class SubPools {

    private SubPools() {
    }

    /** The multi-pool's own array of sub-pools: what a test writes into it, the multi-pool uses. */
    static PoolCore[] of(AbstractWorkerPool multi) throws ReflectiveOperationException {
        return (PoolCore[]) field(MultiPoolCore.class, "pools").get(multi.core);
    }

    /** The fast lane the multi-pool's sub-pools share. */
    static SpinningWorkers lane(AbstractWorkerPool multi) throws ReflectiveOperationException {
        return (SpinningWorkers) field(MultiPoolCore.class, "lane").get(multi.core);
    }

    /**
     * Replaces sub-pool {@code i} by one of capacity {@code size} with {@code options}, the old one's runner,
     * {@code lane} and {@code clock}, and releases the old one; returns the new one.
     */
    @SuppressWarnings("unchecked")
    static PoolCore replace(AbstractWorkerPool multi, int i, int size, PoolOptions options, SpinningWorkers lane,
                            NanoClock clock) throws ReflectiveOperationException {
        PoolCore[] pools = of(multi);
        PoolCore old = pools[i];
        pools[i] = new PoolCore(multi.name() + "-" + i, size, options,
                (Consumer<Object>) field(PoolCore.class, "runner").get(old), lane, clock);
        old.release();
        return pools[i];
    }

    /** Replaces every sub-pool by one of capacity {@code size} with {@code options}, all sharing {@code lane}. */
    static void shareLane(AbstractWorkerPool multi, int size, PoolOptions options, SpinningWorkers lane)
            throws ReflectiveOperationException {
        for (int i = 0; i < of(multi).length; i++) {
            replace(multi, i, size, options, lane, SystemNanoClock.INSTANCE);
        }
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
