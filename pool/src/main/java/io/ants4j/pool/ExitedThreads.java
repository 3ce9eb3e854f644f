package io.ants4j.pool;

import java.util.Arrays;

/**
 * The threads a pool has let go that may still be alive: workers that have given back their count, and the
 * purger and ticker of every generation once told to stop. {@link PoolCore#awaitTermination} joins them, so
 * that no thread of the pool is alive when it reports termination, and a thread found here runs no task of the
 * pool ({@link PoolCore#runsNoTaskOfThisPool}). Not thread-safe: every method is called with the pool's lock
 * held.
 *
 * <p>Implementation notes. Nothing here may allocate when a thread is recorded: a worker exits and a close stops
 * the background threads also on an exhausted heap.
 * <ul>
 * <li><b>Workers</b> are linked through {@link Worker#nextExited}, oldest first, which allocates nothing. A thread
 *     that never ends at the head must not keep the ones behind it, whose threads ended: once the list has grown
 *     to twice what the last pruning kept (plus a few), {@link #link} forgets every worker whose thread has ended,
 *     wherever it is. Amortized O(1) per worker, and the list stays within about twice the threads still alive
 *     plus a small constant.</li>
 * <li><b>Background threads</b> go into an array with room reserved ahead ({@link #reserve}), so that
 *     {@link #add} allocates nothing: the pool reserves before it starts a purger and a ticker, and records them
 *     when it stops them, which then cannot run out of memory halfway through a close. A reservation that finds
 *     no room first drops the threads that have terminated, and grows the array only if that leaves it more than
 *     half full: amortized O(1) per thread, and never more than about four times the threads still alive plus a
 *     small constant, however often a pool is released and rebooted while nobody awaits its termination.</li>
 * </ul>
 */
final class ExitedThreads {
    private static final int MIN_CAPACITY = 16;
    /** How far past twice what the last pruning kept the worker list may grow before it is pruned again. */
    private static final int PRUNING_SLACK = 16;

    private Thread[] threads = new Thread[MIN_CAPACITY];
    private int size;

    private Worker head;
    private Worker tail;
    /** How many workers the list links, and how many its last pruning kept. */
    private int linked;
    private int keptByPruning;

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

    /** Records a background thread the pool has let go, in room {@linkplain #reserve reserved} for it. */
    void add(Thread t) {
        threads[size++] = t;
    }

    /** Links {@code w}, a worker that has given back its count, at the tail of the list. Allocates nothing. */
    void link(Worker w) {
        if (oldestWorkerAlive() == null) {
            head = w;
        } else {
            tail.nextExited = w;
        }
        tail = w;
        if (++linked > 2 * keptByPruning + PRUNING_SLACK) {
            pruneWorkers();
        }
    }

    /** Whether {@code t} is the thread of a worker or a background thread recorded and not yet forgotten. */
    boolean contains(Thread t) {
        for (int i = 0; i < size; i++) {
            if (threads[i] == t) {
                return true;
            }
        }
        for (Worker w = head; w != null; w = w.nextExited) {
            if (w.thread() == t) {
                return true;
            }
        }
        return false;
    }

    /** Forgets the background threads that have terminated and returns a copy of the others. */
    Thread[] backgroundAlive() {
        prune();
        return Arrays.copyOf(threads, size);
    }

    /** The oldest exited worker whose thread is still alive, forgetting the ones before it; null if none. */
    Worker oldestWorkerAlive() {
        while (head != null && !head.thread().isAlive()) {
            head = head.nextExited;
            linked--;
        }
        return head;
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

    private void pruneWorkers() {
        Worker kept = null;
        int n = 0;
        for (Worker x = head; x != null; x = x.nextExited) {
            if (x.thread().isAlive()) {
                if (kept == null) {
                    head = x;
                } else {
                    kept.nextExited = x;
                }
                kept = x;
                n++;
            }
        }
        if (kept == null) {
            head = null;
        } else {
            kept.nextExited = null;
            tail = kept;
        }
        linked = n;
        keptByPruning = n;
    }
}
