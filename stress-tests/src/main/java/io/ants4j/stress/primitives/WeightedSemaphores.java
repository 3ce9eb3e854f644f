package io.ants4j.stress.primitives;

import io.ants4j.primitives.WeightedSemaphore;
import io.ants4j.stress.support.Spin;

import java.util.concurrent.TimeUnit;

/** WeightedSemaphore helpers of the tests. */
final class WeightedSemaphores {

    private WeightedSemaphores() {
    }

    /**
     * Acquires {@code n} permits within the timeout, runs {@code whileHeld}, and releases them.
     *
     * @return 1 acquired (and released), 0 timed out, 2 interrupted (flag cleared)
     */
    static int use(WeightedSemaphore sem, long n, long timeout, TimeUnit unit, Runnable whileHeld) {
        try {
            if (!sem.tryAcquire(n, timeout, unit)) {
                return 0;
            }
        } catch (InterruptedException e) {
            return 2;
        }
        try {
            whileHeld.run();
        } finally {
            sem.release(n);
        }
        return 1;
    }

    /** {@link #use} with the tests' patience: 0 means never acquired (a lost wake-up). */
    static int use(WeightedSemaphore sem, long n, Runnable whileHeld) {
        return use(sem, n, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS, whileHeld);
    }

    /** How many threads are queued, from {@code toString()} (which counts them under the lock). */
    static int waiting(WeightedSemaphore sem) {
        String s = sem.toString();
        return Integer.parseInt(s.substring(s.lastIndexOf('=') + 1, s.length() - 1));
    }

    /** Waits until {@code count} threads are queued on {@code sem}; false if they never are. */
    static boolean untilWaiting(WeightedSemaphore sem, int count) {
        return Spin.until(() -> waiting(sem) == count);
    }

    /**
     * Checks, from a single thread after a race, that every permit is back and nobody waits, and
     * that the semaphore still works: all {@code size} permits can be taken at once, none more,
     * and given back.
     */
    static boolean whole(WeightedSemaphore sem, long size) {
        try {
            if (sem.available() != size || waiting(sem) != 0 || !sem.tryAcquire(size) || sem.tryAcquire(1)) {
                return false;
            }
            sem.release(size);
            return sem.available() == size;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
