package io.ants4j.primitives;

/**
 * A counting semaphore of parked threads: the Go runtime's semaphore
 * ({@code runtime_SemacquireMutex}/{@code runtime_Semrelease}) as {@link Mutex} and
 * {@link RWMutex} use it.
 *
 * <p>Implementation notes. A release grants its permits to the queued waiters from the head and
 * stores the rest, for threads that are counted by the owner's state word but have not queued
 * yet; such a thread takes a stored permit instead of queueing. Everything happens under
 * {@code queue.lock}, and the owners keep their state word in step with the queue inside the same
 * critical sections: that is how a waiter that gives up learns, atomically, whether a grant was
 * already on its way to it. The grant is the waiter's status ({@link #GRANTED}, a release store
 * read with acquire), so whatever the releasing thread did before happens-before the woken
 * thread's return from its park.
 */
final class Sema {
    /** Status of a waiter that was given a permit. */
    static final int GRANTED = 1;

    /** The parked threads; its lock guards {@link #permits} too. */
    final WaitQueue queue = new WaitQueue();

    /** Permits released while nobody was queued. Guarded by {@code queue.lock}. */
    private int permits;

    /**
     * Takes a stored permit, or else queues {@code w}: at the head when {@code lifo} (a thread
     * that was woken and beaten keeps its place), else at the tail. Caller holds {@code queue.lock}.
     *
     * @return {@code true} if a permit was taken and {@code w} was not queued
     */
    boolean takeOrEnqueue(WaitQueue.Waiter w, boolean lifo) {
        if (permits > 0) {
            permits--;
            return true;
        }
        queue.enqueue(w, lifo);
        return false;
    }

    /**
     * Whether {@code w} has been granted a permit; for a thread with no node ({@code null}: it
     * could not allocate one), whether a stored permit was there for it to take (it takes it).
     * Caller holds {@code queue.lock}.
     */
    boolean granted(WaitQueue.Waiter w) {
        if (w != null) {
            return w.status() != WaitQueue.WAITING;
        }
        if (permits > 0) {
            permits--;
            return true;
        }
        return false;
    }

    /**
     * Releases {@code n} permits: grants up to {@code n} queued waiters from the head and stores
     * the rest. Caller holds {@code queue.lock}; unpark the returned chain with
     * {@link WaitQueue#unparkAll} after releasing it.
     *
     * @return the granted waiters, linked through {@code next}, or {@code null}
     */
    WaitQueue.Waiter release(int n) {
        WaitQueue.Waiter granted = queue.take(n, GRANTED);
        int left = n;
        for (WaitQueue.Waiter w = granted; w != null; w = w.next) {
            left--;
        }
        permits += left;
        return granted;
    }
}
