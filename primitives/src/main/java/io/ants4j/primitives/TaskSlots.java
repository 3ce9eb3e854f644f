package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The limit of a {@link TaskGroup}: how many of its tasks may run at once, how many slots are
 * taken, and the submitters waiting for one, served first come, first served. The group's state is
 * guarded by the same {@link #lock}, so that taking a slot and registering the task that uses it
 * are one critical section; every method whose name ends in {@code Locked} is called with it held.
 */
final class TaskSlots {
    /*
     * Implementation notes.
     *
     * active counts the slots taken: by the tasks let in and not yet returned, and by waiting
     * submitters that were handed a slot and have not yet registered their task. A slot given
     * back while a submitter waits is handed to the oldest one (direct hand-off, as in a fair
     * java.util.concurrent.Semaphore or Go's semaphore.Weighted): the waiter is taken out of the
     * queue and marked SLOT under the lock, and active does not change. From then on the slot is
     * that submitter's, however long it takes to run again, so nobody can take it in between, no
     * slot is promised twice, and no submitter waits twice. A newcomer (go, tryGo) takes a slot
     * only if one is free and nobody waits. Hence the invariant, whenever the lock is free: while
     * a submitter waits, active >= limit; so a submitter that leaves the queue without a slot
     * strands none. One that leaves after a slot was handed to it (it was interrupted before it
     * returned, or its park threw) gives that slot back, and it goes to the next in line.
     *
     * The limit changes only while no slot is taken (errgroup's SetLimit panics otherwise), except
     * to "none", which errgroup allows at any time; either way the waiters that now fit are
     * handed slots at once. Waiters are released without a slot (CANCELLED) when the group is
     * cancelled. Nodes are allocated by the submitter before it takes the lock, so nothing here
     * allocates, and the threads are unparked after the lock is released. active and limit are
     * written under the lock; a platform-thread submitter reads them without it (opaque) to decide
     * whether to spin before it queues.
     */

    /** The limit that means none. */
    static final int NO_LIMIT = Integer.MAX_VALUE;
    /** Wake status of a waiter that was handed a slot. */
    static final int SLOT = 1;
    /** Wake status of a waiter let go because the group was cancelled. */
    static final int CANCELLED = 2;

    private static final VarHandle ACTIVE;
    private static final VarHandle LIMIT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ACTIVE = lookup.findVarHandle(TaskSlots.class, "active", int.class);
            LIMIT = lookup.findVarHandle(TaskSlots.class, "limit", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final WaitQueue queue = new WaitQueue();
    /** Guards the slots and the group's state. */
    final SpinLock lock = queue.lock;
    private int limit;
    private int active;

    /** Creates the slots of a group with at most {@code limit} tasks at once; negative: no limit. */
    TaskSlots(int limit) {
        this.limit = limit < 0 ? NO_LIMIT : limit;
    }

    /** Whether a newcomer may take a slot now: one is free and nobody waits. */
    boolean freeLocked() {
        return active < limit && queue.first() == null;
    }

    /** Takes a slot that {@link #freeLocked} found free. */
    void takeLocked() {
        active++;
    }

    /** Queues {@code w}, a node allocated before the lock was taken, for a slot. */
    void enqueueLocked(WaitQueue.Waiter w) {
        queue.enqueue(w, false);
    }

    /**
     * Parks until {@code w}, queued by {@link #enqueueLocked}, is handed a slot or let go, or the
     * thread is interrupted; called without the lock. The interrupt status is read last: a waiter
     * interrupted before it returns (before it queued, too) leaves the queue, passing on a slot
     * handed to it meanwhile, and returns {@link WaitQueue#INTERRUPTED} whatever woke it; so
     * does one whose park throws (e.g. no memory to park a virtual thread), which then rethrows. If
     * passing the slot on throws (waking its taker failed), that propagates with the interrupt status
     * set again.
     *
     * @return {@link #SLOT} (the slot is the caller's), {@link #CANCELLED}, or
     *     {@link WaitQueue#INTERRUPTED} (the interrupt status cleared)
     */
    int await(WaitQueue.Waiter w) {
        int woken;
        try {
            woken = WaitQueue.park(w, true, false, 0L);
        } catch (Throwable t) {
            leave(w);
            throw t;
        }
        // park returns a wake status it finds before it looks at the interrupt status: so that an
        // interrupt that came first (even before the waiter queued) wins, it is read once more.
        if (woken == WaitQueue.INTERRUPTED || Thread.interrupted()) {
            try {
                leave(w);
            } catch (Throwable t) {
                Thread.currentThread().interrupt(); // the slot went on, then waking its taker threw: keep the interrupt
                throw t;
            }
            return WaitQueue.INTERRUPTED;
        }
        return woken;
    }

    /** Takes {@code w} out of the queue; if it was handed a slot meanwhile, gives the slot back. */
    private void leave(WaitQueue.Waiter w) {
        WaitQueue.Waiter next = null;
        lock.lock();
        try {
            if (!queue.withdraw(w) && w.status() == SLOT) {
                next = releaseLocked();
            }
        } finally {
            lock.unlock();
        }
        WaitQueue.unparkAll(next);
    }

    /**
     * Gives back a slot: to the oldest waiter if any, else to the free ones.
     *
     * @return the waiter handed the slot, for {@link WaitQueue#unparkAll} once the lock is released
     */
    WaitQueue.Waiter releaseLocked() {
        WaitQueue.Waiter next = queue.take(1, SLOT);
        if (next == null) {
            active--;
        }
        return next;
    }

    /**
     * Lets every waiter go without a slot.
     *
     * @return the waiters, for {@link WaitQueue#unparkAll} once the lock is released
     */
    WaitQueue.Waiter cancelLocked() {
        return queue.take(Integer.MAX_VALUE, CANCELLED);
    }

    /**
     * Sets the limit ({@code limit} negative: none) and hands slots to the waiters that fit now.
     *
     * @return the waiters handed a slot, for {@link WaitQueue#unparkAll} once the lock is released
     * @throws IllegalStateException if {@code limit} is not negative and a slot is taken
     */
    WaitQueue.Waiter setLimitLocked(int limit) {
        if (limit >= 0 && active != 0) {
            throw new IllegalStateException(
                    "TaskGroup: modify limit while " + active + " tasks of the group are still active");
        }
        this.limit = limit < 0 ? NO_LIMIT : limit;
        int fit = 0;
        for (WaitQueue.Waiter w = queue.first(); w != null && active + fit < this.limit; w = w.next) {
            fit++;
        }
        active += fit;
        return queue.take(fit, SLOT);
    }

    /** Whether every slot is taken and nobody waits; read without the lock, possibly stale. */
    boolean fullAndNobodyWaits() {
        return (int) ACTIVE.getOpaque(this) >= (int) LIMIT.getOpaque(this) && queue.isEmpty();
    }

    /** The limit, {@link #NO_LIMIT} for none. */
    int limitLocked() {
        return limit;
    }

    /** The slots taken. */
    int activeLocked() {
        return active;
    }
}
