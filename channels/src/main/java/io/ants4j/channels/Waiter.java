package io.ants4j.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread blocked on a channel: a send or a receive, alone or as one case of a select (Go's {@code sudog}).
 * A select has one waiter per case, all led by the first one, whose {@code outcome} says which case won.
 */
final class Waiter {
    /*
     * The outcome word is the only thing two threads race for. It lives in the leader and moves once, by CAS, from
     * WAITING to CANCELLED (the waiting thread gives up: interrupt, timeout) or to the chosen case (a counterpart
     * or close() claims the waiter: chosen(index, closed)). Whoever wins the CAS owns the waiter's outcome; a
     * counterpart that loses skips the waiter as Go's dequeue skips a sudog whose select already fired.
     *
     * A counterpart writes the value into the waiter's item BEFORE its CAS (a receive case's item is not read by
     * anyone else, so a lost CAS leaves only garbage to clear), and reads a sender's item after its own CAS; the
     * volatile outcome carries the item: the CAS happens-before the waiter's read of the outcome that sees it.
     *
     * A claimer unparks the thread only if it has set parks, as LinkedTransferQueue unparks only a waiter that
     * published itself: the thread writes parks and then reads the outcome; the claimer CASes the outcome and then
     * reads parks. Both are volatile, so one of them sees the other's write: the thread sees the claim (and does not
     * park), or the claimer sees parks (and unparks). A thread that sees its claim while spinning costs no unpark.
     * prev, next and queued are guarded by the lock of the waiter's channel.
     */
    static final int WAITING = 0;
    /** The outcome of a waiter that gave up; also what {@link #await} returns when its time ran out. */
    static final int CANCELLED = -1;
    /** What {@link #await} returns when an interrupt made the waiter give up (its outcome is CANCELLED). */
    static final int INTERRUPTED = -2;
    /**
     * Spins of a waiter before it parks, where a counterpart on another CPU often comes within them: on an unbuffered
     * channel, or on a platform thread. A virtual thread waiting on a buffered channel parks at once: its counterpart
     * is often a virtual thread waiting for the carrier this spin would keep (10,000 pairs: 7 times slower).
     */
    private static final int SPINS = Runtime.getRuntime().availableProcessors() > 1 ? 128 : 0;
    /**
     * Spins of a platform thread: its park and unpark cost microseconds each, so it spins eight times longer, which
     * covers its counterpart's hand-off on another CPU; with 128 spins a platform thread parked at nearly every wait
     * (docs/benchmark-notes.md).
     */
    private static final int PLATFORM_SPINS = SPINS * 8;
    /**
     * Spins in a row on one channel that ended without a counterpart, after which its waiters park at once: the
     * counterparts are busy (with more threads than CPUs, often waiting for the carrier the spin keeps).
     */
    private static final int MISSES_TO_STOP = 4;
    /** Once stopped, one wait in this many (a power of two) spins again, to notice when spinning pays again. */
    private static final int PROBE_EVERY = 64;

    private static final VarHandle OUTCOME;

    static {
        try {
            OUTCOME = MethodHandles.lookup().findVarHandle(Waiter.class, "outcome", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread to wake. */
    final Thread thread;
    /** The waiter whose outcome decides for every case of the same select; this one for a plain send or receive. */
    final Waiter leader;
    /** The case's index in its select (0 alone). */
    final int index;
    /** The channel the waiter is queued on. */
    final Chan<?> chan;
    /** The value to send, or the value received. */
    Object item;
    /** In the leader only: WAITING, CANCELLED or chosen(index, closed). */
    @SuppressWarnings("unused")
    private volatile int outcome;
    /** In the leader only: set by its thread before it first parks; a claim made before needs no unpark. */
    private volatile boolean parks;
    Waiter prev;
    Waiter next;
    boolean queued;
    /** The next of the waiters a close() claimed, woken after its unlock. */
    Waiter closedNext;

    /** A plain send or receive. */
    Waiter(Chan<?> chan, Object item) {
        this.thread = Thread.currentThread();
        this.leader = this;
        this.index = 0;
        this.chan = chan;
        this.item = item;
    }

    /** A case of a select led by {@code leader} (null: this one leads). */
    Waiter(Waiter leader, int index, Chan<?> chan, Object item) {
        this.thread = Thread.currentThread();
        this.leader = leader == null ? this : leader;
        this.index = index;
        this.chan = chan;
        this.item = item;
    }

    static int chosen(int index, boolean closed) {
        return ((index << 1) | (closed ? 1 : 0)) + 1;
    }

    static int chosenIndex(int outcome) {
        return (outcome - 1) >>> 1;
    }

    static boolean closedOutcome(int outcome) {
        return ((outcome - 1) & 1) != 0;
    }

    /** Claims this case for its select (or its plain operation): true if it won the outcome. */
    boolean claim(boolean closed) {
        return OUTCOME.compareAndSet(leader, WAITING, chosen(index, closed));
    }

    /** The waiting thread gives up: true if nobody claimed it first. */
    boolean cancel() {
        return OUTCOME.compareAndSet(leader, WAITING, CANCELLED);
    }

    /**
     * The outcome, read by the waiting thread: a volatile read, which sees the item written before the claim, and
     * which after the write of parks is ordered after it (an acquire read could be done before it: see wake).
     */
    int outcome() {
        return (int) OUTCOME.getVolatile(leader);
    }

    /** Whether to spin before parking: see SPINS, MISSES_TO_STOP and the channel's spinMisses. */
    private boolean spins() {
        if (SPINS == 0 || chan.cap() != 0 && thread.isVirtual()) {
            return false;
        }
        int misses = chan.spinMisses;
        if (misses < MISSES_TO_STOP || (misses & (PROBE_EVERY - 1)) == 0) {
            return true;
        }
        chan.spinMisses = misses + 1 & Integer.MAX_VALUE;
        return false;
    }

    /**
     * Waits, as the leader's thread, until the outcome is decided, and returns it; or gives up, when interrupted or
     * when {@code nanos} ran out (if {@code timed}), and returns INTERRUPTED or CANCELLED if that won the outcome,
     * with the interrupt status clear. An interrupt that lost the outcome to a claim stays set: the claim stands.
     */
    int await(boolean timed, long nanos) {
        int outcome;
        long deadline = timed ? System.nanoTime() + nanos : 0L; // the spin counts against the timeout
        if (spins()) {
            for (int i = thread.isVirtual() ? SPINS : PLATFORM_SPINS; i > 0; i--) {
                if ((outcome = outcome()) != WAITING) {
                    if (chan.spinMisses != 0) {
                        chan.spinMisses = 0;
                    }
                    return outcome;
                }
                if (timed && (i & 31) == 0 && System.nanoTime() - deadline >= 0L) {
                    break; // a timed wait spins no longer than its timeout
                }
                Thread.onSpinWait();
            }
            chan.spinMisses = chan.spinMisses + 1 & Integer.MAX_VALUE;
        }
        parks = true; // then the outcome is read again: a claim this misses unparks (see wake)
        for (;;) {
            if ((outcome = outcome()) != WAITING) {
                return outcome;
            }
            boolean interrupted = Thread.interrupted();
            long remaining = timed ? deadline - System.nanoTime() : 1L;
            if (interrupted || remaining <= 0L) {
                if (cancel()) {
                    return interrupted ? INTERRUPTED : CANCELLED;
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return outcome();
            }
            try {
                if (timed) {
                    LockSupport.parkNanos(chan, remaining);
                } else {
                    LockSupport.park(chan);
                }
            } catch (RuntimeException | Error e) { // e.g. no memory to park a virtual thread
                if (cancel()) {
                    throw e; // nothing was done: the caller removes the waiter
                }
                return outcome(); // the operation was done: it stands
            }
        }
    }

    /**
     * Unparks the waiter's thread after it was claimed, if it parks. A thread the JDK cannot unpark (a virtual thread whose
     * scheduler refuses it; on JDK 21 an OutOfMemoryError) is lost alone: the operation that claimed it is done, and
     * its caller is not told (it would have to say it failed when it did not).
     */
    void wake() {
        if (!leader.parks) {
            return; // its thread has not parked, and reads the outcome before it does
        }
        try {
            LockSupport.unpark(thread);
        } catch (RuntimeException | Error lost) {
            // the waiter keeps its outcome, for when its thread runs again, if it ever does
        }
    }
}
