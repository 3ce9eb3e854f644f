package io.ants4j.primitives;

/**
 * A counting semaphore with FIFO hand-off, the counterpart of the Go runtime's
 * {@code runtime_Semacquire}/{@code runtime_Semrelease} that {@link WaitGroup} parks on.
 *
 * <p>Implementation notes. The permit count and the {@link WaitQueue} are guarded by the queue's
 * lock. {@link #release} hands permits directly to the longest-waiting threads (marking them
 * {@link #GRANTED}) and banks the rest, so a permit released while a thread is between "no
 * permit" and "parked" is never lost, and a late acquirer cannot overtake a parked one. A waiter
 * that gives up withdraws under the lock; if a permit was granted to it first, it keeps it and the
 * acquisition succeeds. Actions before {@code release} happen-before the return of an
 * acquisition that takes one of its permits.
 */
final class Sema {
    private static final int GRANTED = 1;

    private final WaitQueue queue = new WaitQueue();
    private int permits; // guarded by queue.lock

    /** Adds {@code n} permits, handing them first to the longest-waiting threads. */
    void release(int n) {
        WaitQueue.Waiter woken;
        queue.lock.lock();
        try {
            woken = queue.take(n, GRANTED);
            int granted = 0;
            for (WaitQueue.Waiter w = woken; w != null; w = w.next) {
                granted++;
            }
            permits += n - granted;
        } finally {
            queue.lock.unlock();
        }
        WaitQueue.unparkAll(woken);
    }

    /** Takes a permit, waiting through interrupts (the interrupt status is restored on return). */
    void acquireUninterruptibly() {
        acquire(false, false, 0L);
    }

    /**
     * Takes a permit, waiting at most until {@code deadline} when {@code timed}, or until the
     * thread is interrupted.
     *
     * @return {@code true} if a permit was taken, {@code false} if the deadline passed first
     * @throws InterruptedException if interrupted before a permit was granted
     */
    boolean acquire(boolean timed, long deadline) throws InterruptedException {
        int outcome = acquire(true, timed, deadline);
        if (outcome == WaitQueue.INTERRUPTED) {
            throw new InterruptedException();
        }
        return outcome == GRANTED;
    }

    /** Returns {@link #GRANTED}, or the {@link WaitQueue#await} outcome of a wait given up. */
    private int acquire(boolean interruptible, boolean timed, long deadline) {
        WaitQueue.Waiter w;
        queue.lock.lock();
        try {
            if (permits > 0) {
                permits--;
                return GRANTED;
            }
            w = queue.enqueue();
        } finally {
            queue.lock.unlock();
        }
        return queue.await(w, interruptible, timed, deadline);
    }
}
