package io.ants4j.pool;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks inside a pool for the failure-path tests: its lock, its counts and its fast lane, read through
 * reflection so the pools carry no test-only members.
 */
final class Probe {
    private Probe() {
    }

    /** The {@link PoolCore}s behind any of the four pools. */
    static List<PoolCore> cores(WorkerPool pool) {
        Object core = field(pool, "core");
        List<PoolCore> cores = new ArrayList<>();
        if (core instanceof PoolCore c) {
            cores.add(c);
        } else {
            for (PoolCore c : (PoolCore[]) field(core, "pools")) {
                cores.add(c);
            }
        }
        return cores;
    }

    /** Idle workers on the sub-pools' queues (a racy read, for polling). */
    static int idle(WorkerPool pool) {
        int n = 0;
        for (PoolCore c : cores(pool)) {
            n += ((WorkerQueue) field(c, "workers")).len();
        }
        return n;
    }

    /** Whether some sub-pool's lock is held right now. */
    static boolean lockHeld(WorkerPool pool) {
        for (PoolCore c : cores(pool)) {
            if (((io.ants4j.primitives.SpinLock) field(c, "lock")).isLocked()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether every lane of the pool is empty and no worker of the JVM holds a lane token: what a quiescent
     * pool must come back to, so that the fast lane can hand off again.
     */
    static boolean lanesIdle(WorkerPool pool) {
        for (PoolCore c : cores(pool)) {
            if (field(field(c, "lane"), "slot") != null) {
                return false;
            }
        }
        return SpinningWorkers.inLanes() == 0;
    }

    /** The fast lane of the pool (its sub-pools share one). */
    static SpinningWorkers lane(WorkerPool pool) {
        return (SpinningWorkers) field(cores(pool).get(0), "lane");
    }

    /** The counts of a pool, read without its lock (its {@code toString} would spin on a lock that leaked). */
    static String describe(WorkerPool pool) {
        return pool.getClass().getSimpleName() + "[closed=" + pool.isClosed() + ", running=" + pool.running()
                + ", waiting=" + pool.waiting() + ", lockHeld=" + lockHeld(pool) + ", inLanes="
                + SpinningWorkers.inLanes() + "]";
    }

    /**
     * Asserts that the pool's lock becomes free and its waiting count zero (no lock leaked, no submitter
     * blocked). Once seen free, the lock may be taken again at once by a live worker going back to idle,
     * so it is not checked a second time.
     */
    static void assertLockFreeAndNobodyWaits(WorkerPool pool) {
        TestSupport.eventually("lock free and nobody waiting", () -> !lockHeld(pool) && pool.waiting() == 0,
                () -> describe(pool));
    }

    private static Object field(Object target, String name) {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("no field " + name + " in " + target.getClass());
    }
}
