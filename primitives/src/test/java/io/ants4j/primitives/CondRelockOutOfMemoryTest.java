package io.ants4j.primitives;

import org.junit.jupiter.api.Test;

/**
 * {@link Cond#await()}'s javadoc: "@throws OutOfMemoryError ... the lock is held again and the thread is not left
 * waiting, so a caller's finally can restore its state and release the lock. The lock is taken again with its own
 * lock(): an OutOfMemoryError from it is retried until memory is found". {@code relock()} retries after
 * {@code Thread.yield()}; on a virtual thread on a full heap the yield throws {@code OutOfMemoryError} (it must
 * unmount), and {@code await} throws without the lock: the caller's {@code finally} then unlocks a lock it does not
 * hold (another thread's, for an unowned {@link Mutex} or {@link SpinLock}). Shown with a {@code Mutex}, whose
 * contended {@code lock()} throws when it cannot allocate its node. Runs {@link CondRelockOutOfMemoryProbe}
 * in a JVM of its own with a small heap.
 */
class CondRelockOutOfMemoryTest {

    @Test
    void aVirtualWaiterTakingTheLockAgainOnAFullHeapHoldsItWhenAwaitEnds() throws Exception {
        LockTests.runOutOfMemoryProbe(CondRelockOutOfMemoryProbe.class, "virtual");
    }

    /** The control: a platform waiter retries until the heap is freed and returns holding the lock; passes. */
    @Test
    void aPlatformWaiterTakingTheLockAgainOnAFullHeapHoldsItWhenAwaitEnds() throws Exception {
        LockTests.runOutOfMemoryProbe(CondRelockOutOfMemoryProbe.class, "platform");
    }
}
