package io.ants4j.stress.primitives;

import io.ants4j.primitives.Mutex;
import io.ants4j.primitives.RWMutex;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.Lock;

/** Mutex and RWMutex helpers of the tests. */
final class Locks {

    private Locks() {
    }

    /** A plain counter that threads increment under a lock, in two steps so that a lost update shows. */
    static final class GuardedCounter {
        int value;

        void increment(Lock lock) {
            lock.lock();
            try {
                int v = value;
                Thread.onSpinWait();
                value = v + 1;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Timed lock, then unlock, as a result value: 1 acquired, 0 timed out, 2 interrupted (flag
     * cleared). An interrupt that arrives after the call returned is cleared too, so it stays in
     * this sample.
     */
    static int lockUnlock(Lock lock, long timeout, TimeUnit unit) {
        try {
            if (!lock.tryLock(timeout, unit)) {
                return 0;
            }
            lock.unlock();
            return 1;
        } catch (InterruptedException e) {
            return 2;
        } finally {
            Thread.interrupted();
        }
    }

    /** {@link #lockUnlock} with the tests' patience: 1 unless the lock never came. */
    static int patientlyLockUnlock(Lock lock) {
        return lockUnlock(lock, Spin.PATIENCE_SECONDS, TimeUnit.SECONDS);
    }

    /** From a single thread after a race: the mutex is free, has no waiters left and still works. */
    static boolean consistent(Mutex m) {
        if (m.isLocked() || !m.toString().endsWith("[unlocked, waiters=0]") || !m.tryLock()) {
            return false;
        }
        m.unlock();
        return !m.isLocked();
    }

    /** From a single thread after a race: no reader or writer left counted, and both views still work. */
    static boolean consistent(RWMutex rw) {
        if (rw.readers() != 0 || !rw.writeLock().tryLock()) {
            return false;
        }
        boolean readerShut = !rw.readLock().tryLock();
        rw.writeLock().unlock();
        if (!readerShut || !rw.readLock().tryLock()) {
            return false;
        }
        rw.readLock().unlock();
        return rw.readers() == 0;
    }

    /** Waits (bounded) until {@code m}'s description contains {@code text}; whether it did. */
    static boolean until(Object m, String text) {
        return Spin.until(() -> m.toString().contains(text));
    }

    /**
     * Puts {@code m} in starvation mode, held by the calling thread, with a waiter at the head of
     * its queue: the waiter (a new virtual thread running {@code body}, which must start by
     * locking {@code m} with a timeout) waits past the 1 ms threshold, the caller unlocks and at
     * once barges in with {@code tryLock()}, and the woken waiter, beaten, queues again with
     * starvation mode on. About 1.2 ms a sample.
     *
     * @return the waiter; {@code null} if the setup missed (the waiter won the race or had not
     *     starved yet): the waiter has then finished, and the caller holds {@code m} in normal mode
     */
    static Thread starve(Mutex m, Runnable body) {
        m.lock();
        Thread waiter = Helper.start(body);
        until(m, "waiters=1");
        long start = System.nanoTime();
        for (long left; (left = 1_200_000L - (System.nanoTime() - start)) > 0L; ) {
            LockSupport.parkNanos(left);
        }
        m.unlock();
        boolean barged = m.tryLock();
        // The waiter may have had the lock and gone before this thread barged in: then no one re-queues.
        if (barged && Spin.until(() -> m.toString().contains("waiters=1") || !waiter.isAlive())
                && m.toString().contains("starving")) {
            return waiter;
        }
        if (barged) {
            m.unlock();
        }
        Helper.join(waiter);
        m.lock();
        return null;
    }
}
