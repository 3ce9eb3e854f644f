package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.SpinLock;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link SpinLock}'s {@code tryLock()}, {@code unlock()} and
 * {@code isLocked()}, with the unlocks made by one thread at a time. Proves: {@code tryLock()}
 * succeeds if and only if the lock was free at one instant of the call; {@code unlock()} of a
 * held lock by any thread frees it, of a free one throws {@link IllegalMonitorStateException};
 * {@code isLocked()} is a state that existed. Two concurrent unlocks of one hold (a misuse) are
 * left out: {@code unlock()} checks the state with a plain read and then stores, so both may
 * succeed (see the class's implementation notes).
 */
public class SpinLockLincheckTest extends ExclusiveLockOperations<SpinLock> {
    public SpinLockLincheckTest() {
        super(new SpinLock(), SpinLock::isLocked);
    }

    @Operation(nonParallelGroup = "unlock")
    public void unlock() {
        unlockLock();
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(3)
                .sequentialSpecification(Spec.class).check(getClass());
    }
}
