package io.ants4j.primitives;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The first contended {@link SpinLock#lock()} of the JVM, on a full heap, after its caller changed a primitive's
 * state. Contracts: {@link Mutex}'s javadoc ("If the JDK cannot unpark a waiter that unlock chose ..., unlock
 * throws that after the lock is released, and the next waiter is woken in its place"), its notes and
 * {@link WeightedSemaphore}'s ("what follows a change (the queue's lock, its grant to a parked waiter) is linked by
 * WaitQueue's and SpinLock's class initialization, so an unlock on an exhausted heap still wakes its waiter"),
 * WaitQueue's ("The owners change their own state and then queue, grant or withdraw here, under lock; none of that
 * may fail halfway"), SpinLock's ("unlock() runs after its caller's critical section ... So class initialization
 * locks and unlocks a throwaway lock once"). That linking never runs a contended {@code lock()}: its spin calls
 * {@code tryLock()}, whose {@code getAcquire} call site is linked by nothing, so the first contended
 * {@code lock()} in the JVM allocates. {@code Mutex.unlock} takes its queue's lock after clearing LOCKED, and
 * {@code WaitGroup.done} after counting down to zero; if the queue's lock is held at that moment (a waiter
 * enqueueing or leaving) on a full heap, the {@code OutOfMemoryError} leaves the mutex free with its waiter parked
 * for good, and the round ended with its waiter parked for good. A {@link TaskGroup}'s returning task marks its slot
 * given back before it takes the group's lock to give it back ({@code TaskMember.giveSlotBack}): the slot is lost
 * for good, and a group with a limit of one lets no task in again. Each case runs
 * {@link FirstContendedLockOutOfMemoryProbe} in a JVM of its own with a small heap.
 */
class FirstContendedLockOutOfMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"mutex-unlock", "waitgroup-done", "taskgroup-slot"})
    void theJvmsFirstContendedQueueLockAfterAStateChangeOnAFullHeapStillWakesTheWaiter(String probe)
            throws Exception {
        LockTests.runOutOfMemoryProbe(FirstContendedLockOutOfMemoryProbe.class, probe);
    }

    /** The controls: the same with {@code tryLock()}'s call site linked first; they pass. */
    @ParameterizedTest
    @ValueSource(strings = {"mutex-unlock-linked", "waitgroup-done-linked", "taskgroup-slot-linked"})
    void theSameWithTryLockLinkedFirstWakesTheWaiter(String probe) throws Exception {
        LockTests.runOutOfMemoryProbe(FirstContendedLockOutOfMemoryProbe.class, probe);
    }
}
