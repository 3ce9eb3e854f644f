package io.ants4j.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * The machinery shared by {@link MultiPool} and {@link MultiPoolWithFunc} (ants' {@code MultiPool} and
 * {@code MultiPoolWithFunc}): N independent {@link PoolCore}s, all running the same kind of payload, and a
 * load-balancing choice among them.
 *
 * <p>Implementation notes. Each sub-pool has its own lock, so N sub-pools cut lock contention N-fold.
 * {@link LoadBalancing#ROUND_ROBIN} takes {@code index.incrementAndGet()} modulo N; the counter has 64 bits, so
 * that it never wraps (a 32-bit one would, after 2^32 submissions, and then skip a turn unless N divides 2^32),
 * and when the chosen sub-pool is overloaded retries once on the least-running one, as ants does;
 * {@link LoadBalancing#LEAST_TASKS} scans the {@code running()} counts (a racy but harmless snapshot).
 * Submissions and rejections are counted once per submission by the multi-pool (the sub-pools' dispatch counts
 * none); completed, failed and blocked submissions are summed from the sub-pools. Sub-pool {@code i} is named
 * {@code <name>-<i>}. The sub-pools are all bounded or all unlimited ({@code sizePerPool <= 0}, as ants allows):
 * they share one size, and {@code tune} leaves unlimited ones alone. {@link #cap} and {@link #free} are then -1,
 * else sums taken in a {@code long} and saturated at {@code Integer.MAX_VALUE}.
 *
 * <p>Counts. Every count of the multi-pool ({@link #running}, {@link #waiting}, {@link #idle}, {@link #cap},
 * {@link #free}) is a sum read with every sub-pool's lock held, taken in index order, so it is the value at one
 * instant, as {@code WorkerPool} promises. A sum read part by part adds counts of different moments: it could
 * read no worker running while a worker of sub-pool 1 retired and one of sub-pool 0 started, though one or two
 * ran throughout; and the idle count found the one worker both in the shared lane and, withdrawn from it
 * meanwhile, on its idle queue (review 5).
 * Reading the counts is a monitoring matter: it never runs on the submit path, and holds each lock for a few
 * reads. The only other path that holds two sub-pools' locks, the last look of a task waiting for the others to end
 * (below), takes them in the same order, so the order rules out deadlock.
 *
 * <p>Life cycle. The multi-pool's own open/closed {@link #state} is read without a lock by the submit path;
 * the transitions ({@link #release}, {@link #shutdownNow}, {@link #reboot}, {@link #tune}) walk every sub-pool
 * and are serialized by {@link #lifecycle}, so no two walks interleave: without it a reboot could reopen some
 * sub-pools while a release closes the others, leaving an open multi-pool with a closed part (execute throws
 * {@link PoolClosedException}) or a closed one with an open part (it never terminates). Within a walk the
 * order keeps the submit path right: a release marks the multi-pool closed before closing the sub-pools, a
 * reboot reopens the sub-pools before marking it open, so a submitter that sees it open finds every sub-pool
 * open unless a later release is under way (the submission then loses to that release). A reboot that fails
 * part-way (a sub-pool's reboot runs out of memory) releases again the sub-pools it reopened before it throws;
 * their {@code shutdownNow} stop marks are cleared only once every sub-pool has reopened, so those sub-pools are
 * still stopping then (a task handed over before the {@code shutdownNow} still starts interrupted). Every reboot,
 * failed or not, moves {@link #reboots} as it begins and as it ends: the sub-pools it reopened may have started
 * threads and tasks, so a wait for termination that passed over the sub-pools one by one while it ran starts over.
 * A task closing the multi-pool waits for the other tasks in each sub-pool in turn, then looks at every sub-pool
 * with all their locks held ({@link PoolCore#onlyClosersRunInEvery}): after a reboot a task may have started in a
 * sub-pool already passed, even in a pass that no reboot overlapped (review 53), and the look sees it.
 * A reboot from inside a transition on the same thread (the logger, told by {@code shutdownNow} that an interrupt
 * threw) is refused: {@link #lifecycle} is reentrant, and it would reopen the multi-pool halfway through. So is a
 * wait for termination there ({@code close}, {@code awaitTermination}, {@code releaseTimeout}): the sub-pools the
 * walk has not reached yet are still open, and it waits for the logger.
 * Invariant, whenever {@code lifecycle} is free: every sub-pool is closed exactly when the multi-pool is.
 *
 * <p>The sub-pools share one {@linkplain SpinningWorkers fast lane}: a payload goes to whichever sub-pool's
 * worker spins in it, whatever sub-pool the balancing chose, and runs there (counted by that sub-pool). With a
 * lane each, round robin would find the one spinning worker the JVM allows in the lane only every N-th
 * submission, and wake a parked worker for all the others. A submitter skips the lane while submitters wait in
 * the sub-pool it picked, and a spinning worker leaves it as soon as one waits in its own sub-pool, checking on
 * every spin; between a submitter's joining the waiters of a sub-pool and that worker's next check (a spin
 * or two), a submitter of another sub-pool can still take the worker: the one place where a sub-pool's waiters
 * are not strictly first come, first served (checking the other sub-pools' waiters on the fast path would cost
 * every hand-off a read of their cache lines).
 */
final class MultiPoolCore implements Core {
    private static final int OPENED = 0;
    private static final int CLOSED = 1;

    private final String name;
    private final PoolCore[] pools;
    private final SpinningWorkers lane = new SpinningWorkers();
    private final LoadBalancing lb;
    private final AtomicLong index = new AtomicLong(-1L);
    /** Open or closed; changed only under {@link #lifecycle}. */
    private final AtomicInteger state = new AtomicInteger(OPENED);
    /** Serializes the life-cycle transitions; never taken on the submit path. */
    private final ReentrantLock lifecycle = new ReentrantLock();
    /**
     * Twice the reboots begun so far, plus one while one is under way (a sequence count): changed under
     * {@link #lifecycle} as a reboot begins and as it ends, failed or not; a wait for termination or for the
     * other tasks that saw the same even count before and after its pass over the sub-pools met no reboot.
     */
    private volatile int reboots;

    MultiPoolCore(String name, int n, int sizePerPool, LoadBalancing lb, PoolOptions options,
                  Consumer<Object> runner) {
        if (n <= 0) {
            throw new IllegalArgumentException("pools must be positive: " + n);
        }
        this.name = name;
        this.lb = Objects.requireNonNull(lb, "lb");
        Objects.requireNonNull(options, "options");
        pools = new PoolCore[n];
        try {
            for (int i = 0; i < n; i++) {
                pools[i] = new PoolCore(name + '-' + i, sizePerPool, options, runner, lane);
            }
        } catch (RuntimeException | Error e) {
            for (PoolCore p : pools) {
                if (p != null) {
                    p.release();
                }
            }
            throw e;
        }
    }

    private int next(LoadBalancing strategy) {
        if (strategy == LoadBalancing.ROUND_ROBIN) {
            return (int) (index.incrementAndGet() % pools.length);
        }
        int best = 0;
        int least = Integer.MAX_VALUE;
        for (int i = 0; i < pools.length; i++) {
            int n = pools[i].running();
            if (n < least) {
                least = n;
                best = i;
            }
        }
        return best;
    }

    /**
     * Hands {@code payload} to a worker of the sub-pool the strategy picks; round robin, when that sub-pool is
     * overloaded (or, {@code timed}, gives up), looks once more on the least-running one, with the time left.
     */
    @Override
    public boolean dispatch(Object payload, boolean timed, long nanos) {
        if (state.get() == CLOSED) {
            throw new PoolClosedException();
        }
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        boolean ok;
        try {
            ok = pools[next(lb)].dispatch(payload, timed, nanos);
        } catch (PoolOverloadException e) { // only untimed: a timed dispatch returns false instead
            if (lb != LoadBalancing.ROUND_ROBIN) {
                throw e;
            }
            ok = false;
        }
        if (!ok && lb == LoadBalancing.ROUND_ROBIN) {
            ok = pools[next(LoadBalancing.LEAST_TASKS)].dispatch(payload, timed,
                    timed ? Math.max(0L, deadline - System.nanoTime()) : 0L);
        }
        return ok;
    }

    private PoolCore pool(int i) {
        return pools[Objects.checkIndex(i, pools.length)];
    }

    /** The sum of the sub-pools' running workers, at one instant ({@link #sum}). */
    @Override
    public int running() {
        return sum(PoolCore::running, false);
    }

    int running(int i) {
        return pool(i).running();
    }

    /**
     * The sum of the parts' free slots, at one instant, saturated at {@code Integer.MAX_VALUE}; -1 if the parts
     * are unlimited.
     */
    @Override
    public int free() {
        return sum(PoolCore::freeLocked, false);
    }

    int free(int i) {
        return pool(i).free();
    }

    /** The sum of the sub-pools' waiting submitters, at one instant. */
    @Override
    public int waiting() {
        return sum(PoolCore::waiting, false);
    }

    int waiting(int i) {
        return pool(i).waiting();
    }

    /**
     * The sum of the parts' capacities, at one instant, saturated at {@code Integer.MAX_VALUE}; -1 if the parts
     * are unlimited.
     */
    @Override
    public int cap() {
        return sum(PoolCore::cap, false);
    }

    /** The idle workers of every sub-pool's queue and the one idle in the shared lane, at one instant. */
    @Override
    public int idle() {
        return sum(PoolCore::queuedLocked, true);
    }

    /**
     * Sums {@code count} over the sub-pools, and with {@code withLane} the worker idle in the shared lane, with
     * every sub-pool's lock held, so that the sum is the value at one instant: the sub-pools' counts change only
     * under their locks, and a worker goes from the lane to its idle queue under its sub-pool's lock. The locks
     * are taken in index order; nothing else holds two sub-pools' locks at once, so this cannot deadlock.
     *
     * @return the sum, saturated at {@code Integer.MAX_VALUE} (it is taken in a {@code long}); -1 if a
     *         sub-pool's count is -1 (unlimited)
     */
    private int sum(ToIntFunction<PoolCore> count, boolean withLane) {
        int locked = 0;
        try {
            long n = 0L;
            boolean unlimited = false;
            for (PoolCore p : pools) {
                p.lockCounts();
                locked++;
                int c = count.applyAsInt(p);
                unlimited |= c < 0;
                n += c;
            }
            if (withLane) {
                n += lane.idleWorkers();
            }
            return unlimited ? -1 : (int) Math.min(n, Integer.MAX_VALUE);
        } finally {
            while (locked > 0) {
                pools[--locked].unlockCounts();
            }
        }
    }

    @Override
    public long tune(int size) {
        lifecycle.lock();
        try {
            int before = cap();
            for (PoolCore p : pools) {
                p.tune(size);
            }
            return Core.capacities(before, cap());
        } finally {
            lifecycle.unlock();
        }
    }

    /** The sub-pools share the options, and so the logger: the first reports for all. */
    @Override
    public void reportOnCaller(Throwable failure, String message) {
        pools[0].reportOnCaller(failure, message);
    }

    @Override
    public boolean isClosed() {
        return state.get() == CLOSED;
    }

    @Override
    public boolean release() {
        return close(false);
    }

    /** Closes like {@link #release} and interrupts the busy workers of every sub-pool, even if already closed. */
    @Override
    public boolean shutdownNow() {
        return close(true);
    }

    /**
     * Shuts {@code p} down; if that throws (out of memory, it changed nothing), releases it, so that every sub-pool
     * is closed with the multi-pool, and rethrows.
     */
    private static void shutdownNowOrRelease(PoolCore p) {
        try {
            p.shutdownNow();
        } catch (Throwable t) {
            p.release();
            throw t;
        }
    }

    /** The indexes of the sub-pools with a worker running. */
    private List<Integer> busyParts() {
        List<Integer> busy = new ArrayList<>();
        for (int i = 0; i < pools.length; i++) {
            if (pools[i].running() > 0) {
                busy.add(i);
            }
        }
        return busy;
    }

    /** Whether this call closed the multi-pool. */
    private boolean close(boolean interrupt) {
        lifecycle.lock();
        try {
            boolean wasOpen = state.get() != CLOSED;
            if (!wasOpen && !interrupt) {
                return false;
            }
            state.set(CLOSED); // first: from now on no submitter passes the check in dispatch
            Throwable failure = null;
            for (PoolCore p : pools) { // every sub-pool, whatever one throws: a closed part never reopens alone
                try {
                    if (interrupt) {
                        shutdownNowOrRelease(p);
                    } else {
                        p.release();
                    }
                } catch (Throwable t) {
                    if (failure == null) {
                        failure = t;
                    }
                }
            }
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            return wasOpen;
        } finally {
            lifecycle.unlock();
        }
    }

    /**
     * Waits for all sub-pools, released together by the caller, against one deadline, so that they wind down in
     * parallel; reports every sub-pool still alive at the deadline in one exception. An interrupt does not cut the
     * wait short but is kept.
     */
    @Override
    public void awaitReleased(Duration timeout) throws TimeoutException {
        Objects.requireNonNull(timeout, "timeout");
        long deadline = System.nanoTime() + PoolCore.nanos(timeout);
        List<Integer> late = PoolCore.keepingInterrupts(() -> {
            Boolean closedAsATask = awaitOtherTasks(deadline, false); // from a worker thread: the others
            return closedAsATask == null ? awaitParts(deadline) : closedAsATask ? List.of() : busyParts();
        });
        if (!late.isEmpty()) {
            List<String> why = new ArrayList<>(late.size());
            for (int i : late) {
                why.add("pool " + i + ": " + pools[i].running() + " worker(s) still running");
            }
            throw new TimeoutException(name + " did not terminate within " + timeout + ": "
                    + String.join(" | ", why));
        }
    }

    @Override
    public void reboot() {
        if (inTransitionOnCurrentThread()) {
            throw new IllegalStateException("reboot() called from inside another life-cycle transition of this"
                    + " multi-pool (by its logger): it would reopen the multi-pool halfway through");
        }
        lifecycle.lock();
        try {
            if (state.get() != CLOSED) {
                return;
            }
            reboots++; // odd: under way, before any sub-pool reopens
            int reopened = 0;
            try {
                for (; reopened < pools.length; reopened++) {
                    pools[reopened].reboot(false);
                }
            } catch (Throwable t) { // closes again what it reopened: the multi-pool stays closed as a whole
                for (int i = 0; i < reopened; i++) {
                    try {
                        pools[i].release();
                    } catch (Throwable ignored) { // the reboot's failure is the one reported; close the rest
                    }
                }
                reboots++; // even again: a wait that overlapped this reboot starts over
                throw t;
            }
            for (PoolCore p : pools) { // every sub-pool open: no interrupt of a shutdownNow reaches their tasks now
                p.clearStopMark();
            }
            index.set(-1L);
            reboots++; // even again, after the sub-pools: a wait that overlapped this reboot starts over
            state.set(OPENED); // last: a submitter that sees the multi-pool open finds every sub-pool open
        } finally {
            lifecycle.unlock();
        }
    }

    /** Whether the current thread holds {@link #lifecycle}: inside a transition, its logger. */
    @Override
    public boolean inTransitionOnCurrentThread() {
        return lifecycle.isHeldByCurrentThread();
    }

    /** Under {@link #lifecycle}, so the answer holds for all sub-pools at one instant. */
    @Override
    public boolean isTerminated() {
        lifecycle.lock();
        try {
            if (state.get() != CLOSED) {
                return false;
            }
            for (PoolCore p : pools) {
                if (!p.isTerminated()) {
                    return false;
                }
            }
            return true;
        } finally {
            lifecycle.unlock();
        }
    }

    @Override
    public boolean awaitTermination(long nanos) throws InterruptedException {
        return awaitParts(PoolCore.deadline(nanos)).isEmpty();
    }

    /**
     * Waits until every sub-pool has terminated with all its threads ended, or the deadline (a
     * {@link System#nanoTime()} value) has passed. The sub-pools are awaited one after the other; if the
     * multi-pool was rebooted meanwhile, a sub-pool awaited before the reboot may have started threads again,
     * so the wait starts over (until the deadline: reboots that keep coming leave every sub-pool unvouched
     * for). No transition is held up: the sub-pools' own waits do the blocking.
     *
     * @return the indexes of the sub-pools not known to have terminated by the deadline; empty if all had
     */
    private List<Integer> awaitParts(long deadline) throws InterruptedException {
        List<Integer> late = new ArrayList<>();
        Thread self = Thread.currentThread();
        boolean ownThread = false; // a thread of a sub-pool that runs no task waits for no thread: see PoolCore
        for (PoolCore p : pools) {
            ownThread |= p.runsNoTaskOfThisPool(self);
        }
        for (;;) {
            int seen = awaitNoRebootUnderWay();
            for (int i = 0; i < pools.length; i++) {
                if (!pools[i].awaitTermination(deadline - System.nanoTime(), ownThread)) {
                    late.add(i);
                }
            }
            if (!late.isEmpty() || reboots == seen) {
                return late;
            }
            if (deadline - System.nanoTime() <= 0L) {
                for (int i = 0; i < pools.length; i++) {
                    late.add(i);
                }
                return late;
            }
        }
    }

    /**
     * The {@link #reboots} count once no reboot is under way: if one is, waits for it by taking and leaving
     * {@link #lifecycle} (a reboot holds it throughout), which holds up no transition.
     */
    private int awaitNoRebootUnderWay() throws InterruptedException {
        int seen = reboots;
        while ((seen & 1) != 0) {
            lifecycle.lockInterruptibly();
            lifecycle.unlock();
            seen = reboots;
        }
        return seen;
    }

    @Override
    public PoolStats stats() {
        PoolStats s = pools[0].stats();
        for (int i = 1; i < pools.length; i++) {
            s = s.plus(pools[i].stats());
        }
        return s;
    }

    @Override
    public String state() {
        return (isClosed() ? (isTerminated() ? "terminated" : "closed") : "open") + ", pools=" + pools.length
                + ", lb=" + lb;
    }

    /**
     * Waits as {@code ExecutorService.close} must: until the multi-pool has terminated ({@link #awaitTermination}),
     * or, called from a worker thread of a sub-pool (a task closing its own multi-pool), until every task of every
     * sub-pool that is not itself closing the multi-pool has ended, against one deadline; see
     * {@link PoolCore#awaitClose}.
     *
     * @return false if that did not happen within {@code nanos}
     */
    @Override
    public boolean awaitClose(long nanos) throws InterruptedException {
        long deadline = PoolCore.deadline(nanos);
        Boolean closedAsATask = awaitOtherTasks(deadline, true);
        return closedAsATask != null ? closedAsATask : awaitParts(deadline).isEmpty();
    }

    /**
     * Called on a worker thread of a sub-pool: waits until every task of the multi-pool has ended but those
     * closing it ({@link PoolCore#awaitClose}), and returns whether that happened by the deadline; called on
     * any other thread: returns null at once. With {@code closes} false (a {@code releaseTimeout}), a task that
     * was not closing the multi-pool counts as closing it only while it waits: if the wait fails, it no longer
     * does.
     */
    private Boolean awaitOtherTasks(long deadline, boolean closes) throws InterruptedException {
        Thread self = Thread.currentThread();
        for (PoolCore own : pools) {
            Worker w = own.workerOf(self);
            if (w != null) {
                return own.whileClosing(w, closes, () -> awaitOnlyClosers(deadline));
            }
        }
        return null;
    }

    /**
     * Waits until only closing tasks run in every sub-pool at one moment, also across reboots; whether by the
     * deadline. A pass waits in each sub-pool in turn; since the multi-pool may be open again (a reboot), a task may
     * have started meanwhile in a sub-pool already passed, so the pass ends only when a look at all sub-pools at
     * once ({@link PoolCore#onlyClosersRunInEvery}) finds it so, else it starts over.
     */
    private boolean awaitOnlyClosers(long deadline) throws InterruptedException {
        for (;;) {
            for (PoolCore p : pools) {
                if (!p.awaitOnlyClosers(deadline)) {
                    return false;
                }
            }
            if (PoolCore.onlyClosersRunInEvery(pools)) {
                return true;
            }
            if (deadline - System.nanoTime() <= 0L) {
                return false;
            }
        }
    }
}
