package io.ants4j.channels;

/**
 * The blocked senders or the blocked receivers of a channel, first come first served (Go's {@code waitq}); guarded by
 * the channel's lock.
 */
final class WaitQueue {
    private Waiter head;
    private Waiter tail;

    void add(Waiter w) {
        w.prev = tail;
        w.next = null;
        if (tail == null) {
            head = w;
        } else {
            tail.next = w;
        }
        tail = w;
        w.queued = true;
    }

    /** Removes {@code w} if it is still queued here. */
    void remove(Waiter w) {
        if (!w.queued) {
            return;
        }
        Waiter p = w.prev;
        Waiter n = w.next;
        if (p == null) {
            head = n;
        } else {
            p.next = n;
        }
        if (n == null) {
            tail = p;
        } else {
            n.prev = p;
        }
        w.prev = null;
        w.next = null;
        w.queued = false;
    }

    /**
     * Removes the waiters from the head until one is claimed, and returns that one; null if none could be. A waiter
     * that cannot be claimed (its select chose another case, or it gave up) is dropped: it no longer waits here.
     *
     * @param item given to a claimed receiver, written before the claim; null when claiming a sender
     * @param closed whether the claim is close()'s
     */
    Waiter claimFirst(Object item, boolean closed) {
        for (Waiter w = head; w != null; w = head) {
            remove(w);
            if (item != null) {
                w.item = item;
            }
            if (w.claim(closed)) {
                return w;
            }
            if (item != null) {
                w.item = null;
            }
        }
        return null;
    }
}
