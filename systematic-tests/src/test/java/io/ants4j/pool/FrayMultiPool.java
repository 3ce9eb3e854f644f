package io.ants4j.pool;

import java.lang.reflect.Field;

/**
 * For the Fray tests of {@code io.ants4j.systematic}: reads into a multi-pool what only its package sees. In this
 * package because its cores are package-private.
 */
public final class FrayMultiPool {
    private static final Field POOLS;
    private static final Field CLOSE_WAITS;

    static {
        try {
            POOLS = MultiPoolCore.class.getDeclaredField("pools");
            POOLS.setAccessible(true);
            CLOSE_WAITS = PoolCore.class.getDeclaredField("closeWaits");
            CLOSE_WAITS.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private FrayMultiPool() {
    }

    /**
     * Whether a task closing {@code multi} waits in one of its sub-pools right now ({@code PoolCore.closeWaits}
     * above zero in any): a thread that sees it true knows that the wait of a closing task had not returned yet.
     */
    public static boolean aCloserWaits(WorkerPool multi) {
        try {
            for (PoolCore p : (PoolCore[]) POOLS.get(((AbstractWorkerPool) multi).core)) {
                if (CLOSE_WAITS.getInt(p) > 0) {
                    return true;
                }
            }
            return false;
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
    /**
     * Tunes {@code multi} through its core, as {@code WorkerPool.tune} does, and returns what the core hands to the
     * {@code PoolTuned} event: the capacity before and the capacity after that very tune ({@code Core.tune}:
     * "atomically with respect to the other tunes of this core"), as {@code {before, after}}.
     */
    public static int[] tuneAndReadCapacities(WorkerPool multi, int size) {
        long capacities = ((AbstractWorkerPool) multi).core.tune(size);
        return new int[] {Core.capacityBefore(capacities), Core.capacityAfter(capacities)};
    }

    /** The capacity of each sub-pool of {@code multi}, in index order. */
    public static int[] subPoolCapacities(WorkerPool multi) {
        try {
            PoolCore[] pools = (PoolCore[]) POOLS.get(((AbstractWorkerPool) multi).core);
            int[] caps = new int[pools.length];
            for (int i = 0; i < pools.length; i++) {
                caps[i] = pools[i].cap();
            }
            return caps;
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
