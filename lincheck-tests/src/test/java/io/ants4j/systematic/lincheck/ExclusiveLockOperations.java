package io.ants4j.systematic.lincheck;

import java.util.concurrent.locks.Lock;
import java.util.function.Predicate;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The operations of an exclusive lock that never wait, {@code tryLock()}, {@code unlock()} and
 * {@code isLocked()}, for the Lincheck test of each such lock, and their sequential
 * specification. A subclass declares {@code unlock()} as an operation that calls
 * {@link #unlockLock()}. The locks are not owned: any thread may unlock them, and unlocking a
 * lock that is not held throws {@link IllegalMonitorStateException} and changes nothing.
 */
abstract class ExclusiveLockOperations<L extends Lock> {
    private final L lock;
    private final Predicate<L> locked;

    ExclusiveLockOperations(L lock, Predicate<L> locked) {
        this.lock = lock;
        this.locked = locked;
    }

    @Operation
    public boolean tryLock() {
        return lock.tryLock();
    }

    /** The lock's {@code unlock()}: each test declares it as an operation, saying who may call it concurrently. */
    void unlockLock() {
        lock.unlock();
    }

    @Operation
    public boolean isLocked() {
        return locked.test(lock);
    }

    /** The sequential lock: held or not. */
    public static final class Spec {
        private boolean held;

        public boolean tryLock() {
            if (held) {
                return false;
            }
            held = true;
            return true;
        }

        public void unlock() {
            if (!held) {
                throw new IllegalMonitorStateException();
            }
            held = false;
        }

        public boolean isLocked() {
            return held;
        }
    }
}
