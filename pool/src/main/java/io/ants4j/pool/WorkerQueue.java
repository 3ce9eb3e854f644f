package io.ants4j.pool;

import java.util.List;

/**
 * The container of idle workers (ants' {@code workerQueue}). Not thread-safe: every method is called with the
 * pool's lock held.
 *
 * <p>Invariant of every implementation: the workers come out of {@link #refresh} oldest first, which holds
 * because workers are inserted in the order of their {@link Worker#lastUsed} stamps (stamped under the same
 * lock from a monotonic clock). That order is what lets {@code refresh} find the expired ones by binary search.
 */
interface WorkerQueue {

    /** Returns the number of idle workers held. */
    int len();

    /** Returns whether no idle worker is held. */
    default boolean isEmpty() {
        return len() == 0;
    }

    /**
     * Adds an idle worker, most recently used.
     *
     * @return false if the queue is full (the caller then retires the worker)
     */
    boolean insert(Worker w);

    /** Removes and returns the idle worker to run the next task, or {@code null} if there is none. */
    Worker detach();

    /**
     * Removes every worker whose {@code lastUsed} stamp is at or before {@code cutoff} (a
     * {@link System#nanoTime()} value) and appends them, oldest first, to {@code expired}. The caller stops
     * them after releasing the lock. A worker leaves the queue only once it is in {@code expired}: if appending
     * throws (an {@link OutOfMemoryError} growing the list), the workers appended so far are removed and the
     * others stay.
     */
    void refresh(long cutoff, List<Worker> expired);

    /**
     * Sets the {@code lastUsed} stamp of every worker stamped {@code stale} to {@code raised}. They are the most
     * recently used ones when {@code stale} is the latest stamp held, and {@code raised} is later than it, so the
     * order by stamps holds; walks only those workers.
     */
    void raiseStamps(long stale, long raised);
}
