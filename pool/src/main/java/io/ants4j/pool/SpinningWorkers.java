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
 * and no worker is started here, so {@code running <= capacity} is untouched. Nor does it let a submission
 * overtake a waiting submitter: the pool skips the lane while submitters wait, and a spinning worker stops as
 * soon as one waits in its pool ({@link #spin}), so that reverting it hands it to the longest waiter.
 *
 * <p>Everything happens in one word, {@link #slot}, so that a hand-off moves as few cache lines as possible
 * between the submitter's core and the worker's:
 * <ul>
 * <li>{@code null}: nobody is in the lane. A worker that finishes a task enters by CAS from {@code null} to its
 *     pool's {@linkplain Marks spinning mark}.</li>
 * <li>a spinning mark ({@code SPINNING}): the one worker in the lane, of the pool the mark is of, is free and spins
 *     on the slot. A submitter takes it by CAS from that mark to its payload ({@link #NULL} stands for a
 *     {@code null} payload). When its spin budget is spent the worker withdraws by CAS from its spinning mark to
 *     its pool's withdrawing mark ({@code WITHDRAWING}); exactly one of the two CASes wins, so the worker either
 *     leaves or has a payload to run, never both or neither. Another thread may withdraw it for it the same way
 *     ({@link #takeOutSpinner}: a task waiting for the other tasks of its pool, which an idle worker does not
 *     run), and the worker, at its next look, finds its withdrawing mark and withdraws. Each mark names its pool in
 *     the one word, so that whoever reads or swaps it knows whose worker it is, with no second read that the
 *     lane changing hands in between could make stale.</li>
 * <li>a withdrawing mark ({@code WITHDRAWING}): the worker in the lane has stopped spinning and is on its way to its pool's idle
 *     queue. It still counts as idle, and is still the one worker in the lane, until its pool, in the critical
 *     section that queues it (or hands it a waiting submitter's payload, or retires it), swaps in {@code null}
 *     ({@link #withdrawn}). So a reader holding that pool's lock sees the worker either here or past the lane,
 *     never in both places nor in neither: {@link #idleWorkers} read under the locks of every pool sharing the
 *     lane, with their idle queues, counts each idle worker once. A submitter's fast path treats it as
 *     {@code null}; one that holds its pool's lock and finds no other free worker hands it its payload by CAS
 *     ({@link #tryHandWithdrawing}), which the worker's swap finds: it runs that payload, not hot (its token is
 *     given back already), instead of queueing.</li>
 * <li>anything else: the payload last handed over; the worker (still "hot", in the lane) runs it and then
 *     stores its spinning mark back, or {@code null} when it leaves. A plain release store is enough: no other
 *     thread writes the slot in this state, since the others replace only a mark and an entering worker only
 *     {@code null}.</li>
 * </ul>
 * The slot is {@code null} only while nobody is in the lane, so no second worker can enter while one is in it,
 * and a spinning mark always means that one worker: a pool's constant serves where the worker itself would, and
 * lets a submitter try the hand-off blind with its own pool's mark, with one {@code compareAndExchange} that both
 * takes the spinning worker and, when it fails, reads the slot: one cache-line transfer where a read and then a
 * CAS would take two. Only a submitter to one sub-pool of a multi-pool that finds another sub-pool's worker
 * spinning in their shared lane needs a second CAS, with the mark it read.
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
 * back when it withdraws (a withdrawing worker no longer spins) or leaves.
 *
 * <p>Memory effects: the submitter's CAS is a volatile write and the worker reads the slot with acquire, so a
 * submitter's actions before the hand-off happen-before the payload runs.
 */
final class SpinningWorkers {

    /** The pool of a worker in the lane, as the lane sees it. */
    interface Owner {
        /**
         * Whether its worker stops spinning: a submitter waits in this pool (reverting serves it), the pool is
         * closed (reverting retires the worker, so a released pool does not wait for a spin to run out), or a task
         * waits for the pool's other tasks to end (reverting wakes it). A submitter waiting for the hot worker to
         * come back stops too: it may not take the worker past a submitter that waits now.
         */
        boolean stopsSpinning();

        /**
         * What the slot holds while a worker of this pool spins or withdraws ({@link #newMarks}, one per pool): a
         * reader knows whose worker it is, and only a submitter of the same pool hands a payload to a withdrawing
         * worker ({@link #tryHandWithdrawing}), since it may have withdrawn to serve a submitter waiting in its
         * pool. The default, one pair for every owner that keeps it, is for a lane no other pool shares.
         */
        default Marks marks() {
            return SOLE_POOL_MARKS;
        }
    }

    /**
     * A pool's marks in the slot: this object while one of its workers spins, {@link #withdrawing} while one
     * withdraws.
     */
    static final class Marks {
        final Object withdrawing = new WithdrawingMark();

        private Marks() {
        }

        @Override
        public String toString() {
            return "SPINNING";
        }
    }

    /** The {@linkplain Owner#marks marks} of a pool that shares its lane with no other. */
    private static final Marks SOLE_POOL_MARKS = new Marks();

    /** A pool's mark in the slot while one of its workers withdraws. */
    private static final class WithdrawingMark {
        @Override
        public String toString() {
            return "WITHDRAWING";
        }
    }

    /** Makes a pool's {@linkplain Owner#marks marks}. */
    static Marks newMarks() {
        return new Marks();
    }

    /** Returned to a worker that must take the slow path (revert and park). */
    static final Object NONE = new Object() {
        @Override
        public String toString() {
            return "NONE";
        }
    };

    /**
     * What {@link #spin} returns to a worker that has withdrawn and not yet reached its pool's idle queue (the slot
     * then holds its pool's {@linkplain Marks#withdrawing withdrawing mark}): its pool must call {@link #withdrawn}.
     */
    static final Object WITHDRAWING = new Object() {
        @Override
        public String toString() {
            return "WITHDRAWING";
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

    /** Whether the call sites are linked: no lane is made before ({@link #link}). */
    private static volatile boolean linked;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(SpinningWorkers.class, "slot", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        try {
            link();
        } catch (Throwable t) {
            // an exhausted heap: the first lane made links, or throws (a failed initialization would be final)
        }
    }

    /**
     * Runs every {@code VarHandle} call site of the lane once, on a scratch lane of no pool: the first run of a call
     * site in the JVM links it, which allocates, and a worker's first spin, withdrawal or hand-off on an exhausted
     * heap must not fail after it took a token or the slot. Class initialization links, and if that runs out of
     * memory the first lane's constructor does (the JVM refuses for good a class whose initialization threw). No
     * lane is made before, so no worker holds a token: one the linking took is given back if it fails halfway.
     */
    private static synchronized void link() {
        if (linked) {
            return;
        }
        try {
            runEachCallSite();
            linked = true;
        } finally {
            if (!linked) {
                IN_LANES.set(0);
            }
        }
    }

    private static void runEachCallSite() {
        SpinningWorkers scratch = new SpinningWorkers(1, true);
        Owner spinning = () -> false;
        Object payload = new Object();
        scratch.tryHand(payload, spinning); // nobody in the lane
        scratch.spin(NONE, spinning); // enters, spins once, withdraws
        scratch.tryHandWithdrawing(payload, spinning);
        scratch.withdrawn(); // takes the payload handed as it withdrew
        if (takeToken()) {
            scratch.spin(payload, spinning); // hot: back in the lane, then withdraws
            scratch.withdrawn();
        }
        if (takeToken()) {
            scratch.slot = SOLE_POOL_MARKS;
            scratch.leave();
        }
        scratch.slot = payload; // a hot worker busy: the submitter waits for it, in vain
        scratch.tryHand(payload, spinning);
        scratch.slot = new Marks(); // another pool's worker spins in the shared lane: a second CAS takes it
        scratch.tryHand(payload, spinning);
        scratch.hasSpinner();
        scratch.idleWorkers();
        scratch.isWithdrawing(spinning);
        scratch.slot = SOLE_POOL_MARKS;
        scratch.takeOutSpinner();
        scratch.withdrawn();
    }

    /** {@code null}, a pool's mark, or the hot worker's payload; accessed through {@link #SLOT}. */
    @SuppressWarnings("unused")
    private volatile Object slot;
    /** Slot reads a spinning worker makes before it withdraws: {@link #WORKER_SPINS} but in a test. */
    private final int workerSpins;
    /** Submissions left that skip spinning; a racy hint, read and written plainly. */
    private int skips;
    /** Submitter spins in a row that ended empty-handed; a racy hint like {@link #skips}. */
    private int misses;

    /** A lane whose spinning worker reads the slot {@link #WORKER_SPINS} times before it withdraws. */
    SpinningWorkers() {
        this(WORKER_SPINS);
    }

    /**
     * A lane whose spinning worker reads the slot {@code workerSpins} times before it withdraws: a test makes
     * it 1 or 2, so that a submitter's hand-off meets the withdrawal often (the race is then a few scheduling
     * steps wide instead of a thousand spins).
     */
    SpinningWorkers(int workerSpins) {
        if (!linked) {
            link(); // before the lane exists: on a heap still exhausted no lane is made
        }
        this.workerSpins = workerSpins;
    }

    /** The scratch lane of {@link #runEachCallSite}. */
    private SpinningWorkers(int workerSpins, boolean scratch) {
        this.workerSpins = workerSpins;
    }

    /**
     * Hands {@code payload} to the spinning worker, waiting briefly for a busy hot worker to become free.
     *
     * @param owner the submitter's pool: the hand-off is tried blind with its spinning mark, and again with the
     *              one read when a worker of another pool sharing the lane spins
     * @return false if no worker took it: the caller takes the slow path
     */
    boolean tryHand(Object payload, Owner owner) {
        Object p = payload == null ? NULL : payload;
        int spins = skips > 0 ? 0 : SUBMITTER_SPINS;
        Object spinning = owner.marks();
        for (Object v; (v = SLOT.compareAndExchange(this, spinning, p)) != spinning; spinning = v) {
            while (!(v instanceof Marks)) {
                if (v == null || v instanceof WithdrawingMark // nobody in the lane, or nobody coming back to it
                        || owner.stopsSpinning()) { // a submitter waits now (or the pool closed): not past it
                    return false;
                }
                if (--spins < 0) {
                    int s = skips;
                    if (s > 0) {
                        skips = s - 1;
                    } else {
                        int m = Math.min(misses + 1, FREE_MISSES + MAX_DOUBLINGS);
                        misses = m;
                        skips = m <= FREE_MISSES ? 0 : (1 << (m - FREE_MISSES)) - 1;
                    }
                    return false;
                }
                Thread.onSpinWait();
                v = SLOT.getAcquire(this); // read while the hot worker is busy: no CAS traffic
            }
            if (owner.stopsSpinning()) { // looked again before each CAS but the first (the caller's look)
                return false;
            }
        }
        if (misses != 0) { // written only when it changes: the slot shares its cache line
            misses = 0;
            skips = 0;
        }
        return true;
    }

    /** Returns whether a worker spins in the lane right now (a submitter about to wait retries instead). */
    boolean hasSpinner() {
        return SLOT.getAcquire(this) instanceof Marks;
    }

    /**
     * Returns whether the worker in the lane is {@code owner}'s, withdrawing to its idle queue: idle, and, read
     * under that pool's lock, staying so until the lock is released (see {@link #WITHDRAWING}).
     */
    boolean isWithdrawing(Owner owner) {
        return slot == owner.marks().withdrawing;
    }

    /**
     * Takes the worker spinning in the lane out of it, as if its spin budget were spent: from then on it is
     * withdrawing (idle, on its way to its pool's idle queue, see {@link #WITHDRAWING}), and no submitter's fast
     * path hands it a payload. Called by a task that waits for the other tasks of its pool, which an idle worker
     * does not run: the worker may not get to look at the slot for a while (a descheduled thread), and until
     * it withdraws a submitter that found its pool open could still hand it a task.
     *
     * @return whether the slot changed
     */
    boolean takeOutSpinner() {
        Object v = slot; // a volatile read: no call site to link
        return v instanceof Marks spinning && SLOT.compareAndSet(this, spinning, spinning.withdrawing);
    }

    /**
     * Returns the idle workers in the lane: 1 if one spins or is withdrawing to its idle queue, else 0. Exact
     * together with the idle queues only if read under the locks of every pool that shares the lane (see
     * {@link #WITHDRAWING}).
     */
    int idleWorkers() {
        Object v = SLOT.getAcquire(this);
        return v instanceof Marks || v instanceof WithdrawingMark ? 1 : 0;
    }

    /**
     * Called by a worker that has finished a payload and may take another: spins in the lane for one, and
     * stops as soon as its pool {@linkplain Owner#stopsSpinning says so} (a submitter waits there, which the worker
     * then serves by reverting; the pool is closed; a task waits for the others to end).
     *
     * @param last  the payload it has just run if that came from the lane (the worker is hot), else
     *              {@link #NONE}
     * @param owner the worker's pool
     * @return the next payload; {@link #NONE} if the worker could not enter the lane; or {@link #WITHDRAWING} if
     *         it spun in vain and withdrew: it has given back its token but still holds the slot, until its pool
     *         calls {@link #withdrawn} in the critical section that puts it on the idle queue
     */
    Object spin(Object last, Owner owner) {
        Marks mine = owner.marks();
        if (last != NONE) {
            SLOT.setRelease(this, mine); // hot: it owns the slot and holds a token already
        } else if (!takeToken()) {
            return NONE;
        } else if (!SLOT.compareAndSet(this, null, mine)) {
            IN_LANES.decrementAndGet();
            return NONE; // another worker is in the lane
        }
        Object v = mine;
        for (int i = 0; i < workerSpins && !owner.stopsSpinning(); i++) {
            v = SLOT.getAcquire(this);
            if (v != mine) {
                break;
            }
            Thread.onSpinWait();
        }
        if (v == mine && SLOT.compareAndSet(this, mine, mine.withdrawing)) {
            v = mine.withdrawing;
        } else if (v == mine) {
            v = slot; // a submitter's payload, or taken out (a volatile read: no call site to link)
        }
        if (v == mine.withdrawing) { // withdrawn, by itself or by takeOutSpinner
            IN_LANES.decrementAndGet();
            return WITHDRAWING;
        }
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

    /**
     * Hands {@code payload} to the worker of {@code owner} withdrawing from the lane: idle, on its way to its pool's
     * idle queue, it runs the payload instead ({@link #withdrawn}). Called by a submitter that holds its pool's lock and
     * found no worker on the idle queue, before it starts a new one or waits, so that a worker counted idle is
     * not passed over.
     *
     * @return false if no worker was withdrawing, or it reached its pool first
     */
    boolean tryHandWithdrawing(Object payload, Owner owner) {
        Object mark = owner.marks().withdrawing;
        return slot == mark // a (volatile) read first: most submitters find no worker of their pool withdrawing
                && SLOT.compareAndSet(this, mark, payload == null ? NULL : payload);
    }

    /**
     * Called, under its pool's lock, for the worker that {@link #spin} returned {@link #WITHDRAWING} to, in the
     * critical section that puts it on the idle queue, hands it a waiting submitter's payload or retires it: the
     * lane is free again. The swap decides against {@link #tryHandWithdrawing}: either the worker leaves the
     * lane empty-handed, or it takes the payload handed to it meanwhile.
     *
     * @return that payload, or {@link #NONE}
     */
    Object withdrawn() {
        Object v = SLOT.getAndSet(this, null);
        return v instanceof WithdrawingMark ? NONE : v == NULL ? null : v;
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
