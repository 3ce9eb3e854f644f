package io.ants4j.pool;

import java.util.Arrays;

/**
 * The background threads a pool has let go that may still be alive: the purger and ticker of every
 * generation once told to stop. {@link PoolCore#awaitTermination} joins them, so that no thread of the pool is
 * alive when it reports termination. Not thread-safe: every method is called with the pool's lock held.
 *
 * <p>Implementation notes. An array that drops the threads that have terminated whenever it has doubled since
 * it last did so: amortized O(1) per {@link #add}, and never more than about twice the threads still alive
 * plus a small constant, however often a pool is released and rebooted while nobody awaits its termination.
 * (Exited workers are linked through the {@link Worker}s instead, which allocates nothing.)
 */
final class ExitedThreads {
    private static final int MIN_PRUNE = 16;

    private Thread[] threads = new Thread[MIN_PRUNE];
    private int size;
    /** The size at which the next {@link #add} prunes first. */
    private int pruneAt = MIN_PRUNE;

    /** Records a thread the pool has let go. */
    void add(Thread t) {
        if (size == pruneAt) {
            prune();
            pruneAt = Math.max(MIN_PRUNE, size << 1);
            if (pruneAt > threads.length) {
                threads = Arrays.copyOf(threads, pruneAt);
            }
        }
        threads[size++] = t;
    }

    /** Forgets the threads that have terminated and returns a copy of the others. */
    Thread[] alive() {
        prune();
        return Arrays.copyOf(threads, size);
    }

    private void prune() {
        int n = 0;
        for (int i = 0; i < size; i++) {
            Thread t = threads[i];
            if (t.isAlive()) {
                threads[n++] = t;
            }
        }
        Arrays.fill(threads, n, size, null);
        size = n;
    }
}
