package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * {@link TaskSlots} alone, single-threaded: the windows that {@code TaskGroup}'s threads reach only by the
 * timing of a scheduler (TaskGroupFrayTest explores them) are entered here step by step.
 */
class TaskSlotsTest {

    /**
     * A submitter interrupted before it queued, to which a slot is handed between its queueing and its first
     * look at its node, is rejected all the same, and the slot goes on to the next in line.
     */
    @Test
    void anInterruptedWaiterHandedASlotBeforeItLooksPassesItOn() {
        TaskSlots slots = new TaskSlots(0);
        WaitQueue.Waiter interrupted = new WaitQueue.Waiter();
        WaitQueue.Waiter next = new WaitQueue.Waiter();
        slots.lock.lock();
        try {
            slots.enqueueLocked(interrupted);
            slots.enqueueLocked(next);
            assertSame(interrupted, slots.setLimitLocked(1), "the slot goes to the head of the queue");
        } finally {
            slots.lock.unlock();
        }
        Thread.currentThread().interrupt();
        int woken;
        boolean stillInterrupted;
        try {
            woken = slots.await(interrupted);
        } finally {
            stillInterrupted = Thread.interrupted();
        }
        assertEquals(WaitQueue.INTERRUPTED, woken, "an interrupted waiter took the slot handed to it");
        assertFalse(stillInterrupted, "INTERRUPTED is returned with the status cleared");
        assertEquals(TaskSlots.SLOT, next.status(), "the slot was not passed on");
        slots.lock.lock();
        try {
            assertEquals(1, slots.activeLocked(), "one slot, now the next waiter's");
        } finally {
            slots.lock.unlock();
        }
    }

    /** Without an interrupt, a slot handed before the waiter looks is the waiter's. */
    @Test
    void aSlotHandedBeforeTheWaiterLooksIsItsOwn() {
        TaskSlots slots = new TaskSlots(0);
        WaitQueue.Waiter w = new WaitQueue.Waiter();
        slots.lock.lock();
        try {
            slots.enqueueLocked(w);
            slots.setLimitLocked(1);
        } finally {
            slots.lock.unlock();
        }
        assertEquals(TaskSlots.SLOT, slots.await(w));
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
