package io.ants4j.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The submitters blocked in one {@link PoolCore}, first come, first served: a FIFO list guarded by the pool's
 * lock, through which whatever frees up is handed straight to the submitter that has waited longest.
 *
 * <p>Implementation notes. A waiter is not woken to compete for a worker (a newcomer could take the worker
 * first, and the loser would wait again at the tail); it is given its outcome, under the pool lock, in its
 * {@link Waiter#grant} word, and then unparked:
 * <ul>
 * <li>{@link #HANDED}: a worker going back to idle took the waiter's payload and runs it;</li>
 * <li>{@link #SLOT}: a worker's count was freed (or {@code tune} raised the capacity) and is now counted for
 *     the waiter, which starts a new worker with its payload;</li>
 * <li>{@link #CLOSED}: the pool was released; the waiter throws {@link PoolClosedException}.</li>
 * </ul>
 * Since every worker or slot that frees while somebody waits goes to the head of this list, a pool with waiters
 * has no idle worker and no free slot, so a newcomer finds nothing to overtake them with; and since the outcome
 * is decided when the pool is released, a reboot right after cannot take it back. A waiter that gives up (timeout,
 * interrupt, an unexpected throwable) leaves the list under the lock unless a grant came first, which it then
 * honours, or gives back (a slot). The links change only under the pool lock; the pool counts the waiters in
 * a field of its own, next to its other hot fields, for the readers without the lock (the fast path, a worker
 * spinning in the lane).
 *
 * <p>Memory effects: a submitter's payload is written before its waiter is linked under the pool lock, and read
 * by the worker that unlinks it under the same lock; the grant is a volatile write that the waiter reads.
 */
final class Waiters {
    /** Not granted yet. */
    static final int WAITING = 0;
    /** A worker took the payload. */
    static final int HANDED = 1;
    /** A worker count is held for the waiter: it must start a worker, or give the count back. */
    static final int SLOT = 2;
    /** The pool was released. */
    static final int CLOSED = 3;
    /** Not granted, and taken out of the list by {@link #withdraw}: a second withdraw changes nothing. */
    static final int WITHDRAWN = 4;

    /** One blocked submitter. */
    static final class Waiter {
        private static final VarHandle GRANT;

        static {
            try {
                GRANT = MethodHandles.lookup().findVarHandle(Waiter.class, "grant", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Object payload;
        final Thread thread = Thread.currentThread();
        private Waiter prev;
        private Waiter next;
        /** {@link #WAITING} until the pool grants an outcome; accessed through {@link #GRANT}. */
        @SuppressWarnings("unused")
        private int grant;

        Waiter(Object payload) {
            this.payload = payload;
        }

        /** The outcome granted so far; read with acquire, so a granted waiter sees what the granter did. */
        int grant() {
            return (int) GRANT.getAcquire(this);
        }

        /** Sets the outcome; pool lock held, the waiter already unlinked. Wakes nobody: see {@link #wake()}. */
        void grantLocked(int outcome) {
            GRANT.setRelease(this, outcome);
        }

        /**
         * Unparks the waiter after its grant; a spurious unpark only makes it read its grant again. Throws nothing:
         * a waiter the JDK cannot unpark is lost with its grant ({@link LostThreads}).
         */
        void wake() {
            LostThreads.unpark(thread);
        }
    }

    private Waiter head;
    private Waiter tail;

    /** Appends {@code w}; lock held. Allocates nothing. */
    void add(Waiter w) {
        w.prev = tail;
        if (tail == null) {
            head = w;
        } else {
            tail.next = w;
        }
        tail = w;
    }

    /** Unlinks and returns the longest waiter, or null; lock held. */
    Waiter poll() {
        Waiter w = head;
        if (w != null) {
            unlink(w);
        }
        return w;
    }

    /**
     * Takes {@code w} out of the list if it is still waiting; lock held.
     *
     * @return {@link #WAITING} if this call withdrew it, else the outcome granted to it first, or
     *         {@link #WITHDRAWN} if an earlier call withdrew it
     */
    int withdraw(Waiter w) {
        int g = w.grant();
        if (g == WAITING) {
            unlink(w);
            w.grantLocked(WITHDRAWN);
        }
        return g;
    }

    private void unlink(Waiter w) {
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
    }
}
