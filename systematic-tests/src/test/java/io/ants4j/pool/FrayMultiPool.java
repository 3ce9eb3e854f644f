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
}
