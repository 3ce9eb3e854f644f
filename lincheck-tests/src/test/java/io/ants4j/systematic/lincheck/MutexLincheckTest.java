package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.Mutex;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Mutex}'s {@code tryLock()}, {@code unlock()} and {@code isLocked()}.
 * Proves: {@code tryLock()} succeeds if and only if the lock was free at one instant of the
 * call; {@code unlock()} of a held lock by any thread frees it, of a free one throws
 * {@link IllegalMonitorStateException} and changes nothing; {@code isLocked()} is a state that
 * existed.
 */
public class MutexLincheckTest extends ExclusiveLockOperations<Mutex> {
    public MutexLincheckTest() {
        super(new Mutex(), Mutex::isLocked);
    }

    @Operation
    public void unlock() {
        unlockLock();
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(3)
                .sequentialSpecification(Spec.class).check(getClass());
    }
}
