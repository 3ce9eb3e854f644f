package io.ants4j.primitives;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same as {@link FirstContendedLockOutOfMemoryTest}, with {@code tryLock()}'s call site linked first, but the
 * call that changes the state and then takes the contended queue lock runs in a virtual thread: {@link SpinLock}'s
 * backoff yields (and at its cap parks), which unmounts the virtual thread, and on a full heap that throws
 * ({@code SpinLock}'s own notes: "a virtual thread with no memory to unmount"), out of {@code lock()}, after the
 * caller changed its state. Contracts as there: Mutex's javadoc ("unlock throws that after the lock is released, and
 * the next waiter is woken in its place"), WaitQueue's notes ("none of that may fail halfway"). The {@code -linked}
 * cases of {@link FirstContendedLockOutOfMemoryTest} are the controls (platform threads): they pass.
 */
class VirtualContendedLockOutOfMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"mutex-unlock-linked-virtual", "waitgroup-done-linked-virtual"})
    void aVirtualThreadsContendedQueueLockAfterAStateChangeOnAFullHeapStillWakesTheWaiter(String probe)
            throws Exception {
        LockTests.runOutOfMemoryProbe(FirstContendedLockOutOfMemoryProbe.class, probe);
    }
}
