package io.ants4j.pool;

import java.util.Arrays;

/**
 * The background threads a pool has let go that may still be alive: the purger and ticker of every
 * generation once told to stop. {@link PoolCore#awaitTermination} joins them, so that no thread of the pool is
 * alive when it reports termination. Not thread-safe: every method is called with the pool's lock held.
 *
 * <p>Implementation notes. An array with room reserved ahead ({@link #reserve}), so that recording a thread in
 * {@link #add} allocates nothing: the pool reserves before it starts a purger and a ticker, and records them
 * when it stops them, which then cannot run out of memory halfway through a close. A reservation that finds no
 * room first drops the threads that have terminated, and grows the array only if that leaves it more than half
 * full: amortized O(1) per thread, and never more than about four times the threads still alive plus a small
 * constant, however often a pool is released and rebooted while nobody awaits its termination. (Exited workers
 * are linked through the {@link Worker}s instead, which allocates nothing.)
 */
final class ExitedThreads {
    private static final int MIN_CAPACITY = 16;

    private Thread[] threads = new Thread[MIN_CAPACITY];
    private int size;

    /** Makes room for {@code n} more threads, so that the next {@code n} calls of {@link #add} allocate nothing. */
    void reserve(int n) {
        if (threads.length - size >= n) {
            return;
        }
        prune();
        int needed = size + n;
        if (needed > threads.length >> 1) {
            threads = Arrays.copyOf(threads, Math.max(threads.length, needed << 1));
        }
    }

    /** Records a thread the pool has let go, in room {@linkplain #reserve reserved} for it. */
    void add(Thread t) {
        threads[size++] = t;
    }

    /** Whether {@code t} is one of the threads recorded and not yet forgotten. */
    boolean contains(Thread t) {
        for (int i = 0; i < size; i++) {
            if (threads[i] == t) {
                return true;
            }
        }
        return false;
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
