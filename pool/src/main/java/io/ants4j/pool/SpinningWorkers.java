package io.ants4j.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pool's fast lane: a worker that has just finished a task spins for a short while for the next one, and a
 * submitter that finds it hands its payload straight to that running thread instead of waking a parked one.
 *
 * <p>Implementation notes. Waking a parked virtual thread costs a submission to its scheduler and often the
 * wake-up of an idle carrier (microseconds); a payload written into a word that a running thread spins on
 * costs a few cache-line transfers. Go's scheduler keeps "spinning" threads for the same reason. The lane
 * changes nothing a pool promises: a payload goes only to a worker that is free, never behind another task,
 * and no worker is started here, so {@code running <= capacity} is untouched.
 *
 * <p>Everything happens in one word, {@link #slot}, so that a hand-off moves as few cache lines as possible
 * between the submitter's core and the worker's:
 * <ul>
 * <li>{@code null}: nobody is in the lane. A worker that finishes a task enters by CAS from {@code null} to
 *     itself.</li>
 * <li>a {@link Worker}: that worker is free and spins on the slot. A submitter takes it by CAS from the
 *     worker to its payload ({@link #NULL} stands for a {@code null} payload). When its spin budget is spent
 *     the worker withdraws by CAS from itself to {@code null}; exactly one of the two CASes wins, so the
 *     worker either leaves or has a payload to run, never both or neither.</li>
 * <li>anything else: the payload last handed over; the worker (still "hot", in the lane) runs it and
 *     then CASes it back to itself, or to {@code null} when it leaves. No other thread writes the slot in
 *     this state, since a submitter replaces only a worker and an entering worker only {@code null}, so the
 *     CAS back cannot suffer ABA even when the same payload object is handed twice.</li>
 * </ul>
 * A submitter that finds the hot worker busy spins a little for it to come back before it takes the pool's
 * slow path (lock, idle stack, unpark), so short tasks on a busy stream are all served by one running thread.
 * Spinning adapts to the tasks' length, as HotSpot's adaptive spinning does for monitors: the first
 * {@value #FREE_MISSES} spins in a row that end empty-handed cost nothing more (a preempted worker, a
 * collection), every further one doubles the number of following submissions that skip spinning (1, 3, 7, ...
 * up to 1023), and a hand-off resets the count. A stream of short tasks thus keeps spinning through an
 * occasional miss instead of falling onto the slow path, where each submission would start or wake another
 * worker; a pool whose tasks are long soon spins for a small fraction of its submissions only. The slot keeps
 * the last payload reachable until the hot worker comes back or leaves, which is at most its task plus its
 * spin budget.
 *
 * <p>Spinning occupies a carrier thread, and a virtual thread's scheduler has only as many carriers as CPUs: N
 * pools each with a spinning worker (a {@link MultiPool} of N) would leave no carrier for the workers that have
 * real work, and no CPU for the submitter. So all lanes of the JVM share a budget of
 * {@code max(1, CPUs / 2)} workers in the lane (spinning or hot), as Go caps its spinning threads at half the
 * processors; a worker that finds the budget spent parks at once. A worker takes a token of the budget when it
 * enters the lane and keeps it while it stays hot, so the hot path touches no shared counter; it gives the token
 * back when it withdraws or leaves.
 *
 * <p>Memory effects: the submitter's CAS is a volatile write and the worker reads the slot with acquire, so a
 * submitter's actions before the hand-off happen-before the payload runs.
 */
final class SpinningWorkers {

    /** Returned to a worker that must take the slow path (revert and park). */
    static final Object NONE = new Object() {
        @Override
        public String toString() {
            return "NONE";
        }
    };

    /** Stands for a {@code null} payload ({@code PoolWithFunc} takes null arguments). */
    private static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "NULL";
        }
    };

    /** Slot reads a spinning worker makes before it withdraws (tens of microseconds). */
    private static final int WORKER_SPINS = 1 << 10;
    /** Spins a submitter waits for the hot worker to come back before the slow path (tens of microseconds). */
    private static final int SUBMITTER_SPINS = 1 << 10;
    /** Submitter spins in a row that may end empty-handed before submissions start to skip spinning. */
    private static final int FREE_MISSES = 2;
    /** Doublings of the skip window at most: a miss makes at most {@code 2^10 - 1 = 1023} submissions skip. */
    private static final int MAX_DOUBLINGS = 10;

    /** Workers that may be in a lane (spinning or hot) at once, over all pools of the JVM. */
    static final int MAX_IN_LANES = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Workers in a lane now, over all pools: the tokens of the budget taken. */
    private static final AtomicInteger IN_LANES = new AtomicInteger();

    private static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(SpinningWorkers.class, "slot", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code null}, a spinning {@link Worker}, or the hot worker's payload; accessed through {@link #SLOT}. */
    @SuppressWarnings("unused")
    private volatile Object slot;
    /** Submissions left that skip spinning; a racy hint, read and written plainly. */
    private int skips;
    /** Submitter spins in a row that ended empty-handed; a racy hint like {@link #skips}. */
    private int misses;

    /**
     * Hands {@code payload} to the spinning worker, waiting briefly for a busy hot worker to become free.
     *
     * @return false if no worker took it: the caller takes the slow path
     */
    boolean tryHand(Object payload) {
        Object p = payload == null ? NULL : payload;
        for (int spins = skips > 0 ? 0 : SUBMITTER_SPINS;;) {
            Object v = SLOT.getAcquire(this);
            if (v instanceof Worker) {
                if (SLOT.compareAndSet(this, v, p)) {
                    if (misses != 0) { // written only when it changes: the slot shares its cache line
                        misses = 0;
                        skips = 0;
                    }
                    return true;
                }
            } else if (v == null) {
                return false;
            } else if (--spins < 0) {
                int s = skips;
                if (s > 0) {
                    skips = s - 1;
                } else {
                    int m = Math.min(misses + 1, FREE_MISSES + MAX_DOUBLINGS);
                    misses = m;
                    skips = m <= FREE_MISSES ? 0 : (1 << (m - FREE_MISSES)) - 1;
                }
                return false;
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Returns whether a worker spins in the lane right now (a submitter about to wait retries instead). */
    boolean hasSpinner() {
        return SLOT.getAcquire(this) instanceof Worker;
    }

    /**
     * Called by worker {@code w} that has finished a payload and may take another: spins in the lane for one.
     *
     * @param last the payload it has just run if that came from the lane (the worker is hot), else
     *             {@link #NONE}
     * @return the next payload; or {@link #NONE}, and then the worker has left the lane
     */
    Object spin(Worker w, Object last) {
        Object expected;
        if (last == NONE) {
            if (!takeToken()) {
                return NONE;
            }
            expected = null;
        } else {
            expected = last == null ? NULL : last; // hot: it holds a token already
        }
        if (!SLOT.compareAndSet(this, expected, w)) {
            IN_LANES.decrementAndGet();
            return NONE; // somebody else spins (only possible for a worker that was not hot)
        }
        for (int i = 0; i < WORKER_SPINS; i++) {
            Object v = SLOT.getAcquire(this);
            if (v != w) {
                return v == NULL ? null : v;
            }
            Thread.onSpinWait();
        }
        if (SLOT.compareAndSet(this, w, null)) {
            IN_LANES.decrementAndGet();
            return NONE;
        }
        Object v = SLOT.getAcquire(this); // a submitter won the race: its payload is there
        return v == NULL ? null : v;
    }

    /**
     * Called by the hot worker that leaves the lane without spinning (pool closing, over capacity, a
     * submitter waiting on the slow path).
     */
    void leave() {
        SLOT.setRelease(this, null);
        IN_LANES.decrementAndGet();
    }

    /** Submissions left that skip spinning (for tests). */
    int skipsLeft() {
        return skips;
    }

    /** Workers in a lane now, over all pools of the JVM. */
    static int inLanes() {
        return IN_LANES.get();
    }

    /** Takes a token of the JVM-wide lane budget, if one is left; reads before it writes the shared counter. */
    private static boolean takeToken() {
        for (int n = IN_LANES.get(); n < MAX_IN_LANES; n = IN_LANES.get()) {
            if (IN_LANES.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }
}
