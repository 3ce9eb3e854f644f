package io.ants4j.pool;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.agrona.concurrent.CachedNanoClock;

/**
 * The machinery shared by {@link Pool} and {@link PoolWithFunc} (ants' {@code poolCommon}), parameterized by
 * the {@link #runner} that runs one payload: a {@code Runnable} for {@code Pool}, the argument of the fixed
 * function for {@code PoolWithFunc}. Also each sub-pool of a multi-pool.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>State and lock.</b> One {@link SpinLock} guards the idle {@link WorkerQueue}, the counts
 *     {@link #running} and {@link #waiting}, the {@link #capacity} changes and the open/closed {@link #state}.
 *     The counts are volatile so the public getters read them without the lock, but they change only under
 *     it. Two {@link Cond}s hang on the lock: {@link #cond} for submitters waiting for a worker and
 *     {@link #termination} for threads waiting for the pool to terminate. A {@code SpinLock} and not a
 *     {@code Mutex}: every section is a few dozen instructions that never block, so a thread that misses
 *     should retry, not pay a park and an unpark; side by side, a {@code Mutex} here was no faster on
 *     trivial tasks and slower on a burst of a million (docs/benchmark-notes.md).</li>
 * <li><b>Fast lane</b> ({@link SpinningWorkers}, not in ants): a worker that has just finished a task spins
 *     briefly before it reverts, and a submitter hands its payload to that running thread without the lock
 *     and without an unpark. Skipped while submitters wait, after release and above a tuned-down capacity,
 *     so the paths below keep their meaning; a submitter about to wait tries the lane once more.</li>
 * <li><b>Submit</b> ({@link #dispatch}, ants' {@code retrieveWorker}): under the lock, take the most recently
 *     idle worker; else, if {@code running < capacity}, count the new worker <em>under the lock</em> (so
 *     concurrent submitters can never start more than {@code capacity} workers: ants #374, fixed in #376) and
 *     start it after unlocking with the payload already in its slot; else reject ({@code nonblocking}, or
 *     {@code maxBlockingTasks} reached), or wait on {@code cond} and retry. A submitter that parks is counted
 *     once in {@link #blocked} and its time parked in {@link #blockedNanos}, after unlocking (a counter may
 *     allocate), as is its JFR event. Before it parks, a submitter looks
 *     again a few times with spin-waits in between (unlocked), because parking and unparking a thread costs
 *     more than a short task; it does so only while nobody waits, so it never overtakes a parked submitter
 *     (waiters stay first come, first served). The hand-off itself happens after
 *     unlocking (see {@link Worker}).</li>
 * <li><b>Revert</b> (ants' {@code revertWorker}): after each task the worker stamps itself from the cached
 *     clock and goes back on the queue under the lock, signalling one waiting submitter if there is one. It
 *     is refused (and the worker ends) when the pool is closed or runs above a tuned-down capacity.</li>
 * <li><b>Exit</b>: a worker's count is given back under the lock, which signals a waiter (its slot is free
 *     now), so no wake-up is lost: by the worker itself when revert refuses it or an unexpected throwable ends
 *     it, and by whoever takes an idle worker off the queue to stop it (release, purger), so termination
 *     never waits for an idle thread to wind down. Invariant: {@code running} = workers counted by dispatch
 *     and not yet given back {@code <=} capacity, except after a tune down.</li>
 * <li><b>Purger</b> (every {@code expiryDuration}): cuts the expired prefix off the queue under the lock
 *     (binary search on the stamps) and gives back those workers' counts there, then stops them after
 *     unlocking. <b>Ticker</b>: refreshes the {@link CachedNanoClock} every
 *     {@code min(500 ms, expiry / 10)}, so a stamp lags real time by at most a tenth of the expiry; it does
 *     so under the lock and never backwards, so stamps taken under the lock never decrease. Only the
 *     purger reads the stamps, so without a purger ({@code disablePurge}) there is no ticker either. Both
 *     are of the workers' kind of thread: virtual with the default factory; with a user's factory, the kind
 *     of the first worker thread it makes, so they start with that worker ({@link #threadKind}).</li>
 * <li><b>Release</b> closes under the lock, stops purger and ticker, stops the idle workers and broadcasts to
 *     waiters, who then throw {@link PoolClosedException}. Busy workers end when their task returns.
 *     <b>Reboot</b> reopens under the lock and starts a new purger and ticker without waiting for the old
 *     ones to end (that could take as long as a carrier thread stays busy).</li>
 * <li><b>Termination</b> = closed and {@code running == 0}: every worker has given back its count, so no task
 *     runs and none will. It does not wait for threads to end: a stopped worker's thread may still be winding
 *     down, and the purger and ticker are only asked to stop. Every thread the pool lets go is recorded under
 *     the lock when it is let go (a worker in the list through {@link Worker#nextExited}, a purger or ticker of
 *     any generation in {@link #exited}), so {@link #awaitTermination} returns true only when, under the lock,
 *     the pool is terminated and every recorded thread has ended: no thread of the pool is alive then.</li>
 * <li><b>Failures</b>: {@link #runPayload} catches whatever a task throws and reports it
 *     ({@link TaskFailures}: handler, else logger, else the thread's uncaught-exception handler), never letting
 *     a throwable out of the worker loop. Every path that changes the lock, {@code waiting} or {@code running}
 *     restores them in a {@code finally} or a catch of {@code Throwable}; giving back a count allocates
 *     nothing, so it works when the heap is exhausted. A stack overflow is the exception: one that strikes
 *     again inside that recovery, or inside the JDK's own scheduler, cannot be undone from Java.</li>
 * </ul>
 * Memory effects: a submitter's actions before {@code dispatch} happen-before its payload runs (slot
 * release/acquire); a task's actions happen-before the {@code running} decrement that lets
 * {@code awaitTermination} return.
 */
final class PoolCore implements Core {
    private static final int OPENED = 0;
    private static final int CLOSED = 1;
    private static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** Times a submitter that finds every worker busy looks again before it parks on {@code cond}. */
    private static final int RETRIES_BEFORE_WAIT = 16;
    /** Spin-waits between two of those looks. */
    private static final int SPINS_PER_RETRY = 32;

    private static final int UNKNOWN = 0;
    private static final int VIRTUAL = 1;
    private static final int PLATFORM = 2;

    private final String name;
    private final Consumer<Object> runner;
    private final PoolOptions options;
    private final TaskFailures failures;
    private final ThreadFactory threadFactory;
    private final boolean preAlloc;
    private final boolean nonblocking;
    private final int maxBlockingTasks;
    private final long expiryNanos;
    private final long tickNanos;

    private final SpinLock lock = new SpinLock();
    private final Cond cond = new Cond(lock);
    private final Cond termination = new Cond(lock);
    private final WorkerQueue workers;
    private final CachedNanoClock clock = new CachedNanoClock();
    /** The pool's fast lane; the sub-pools of a multi-pool share one. */
    private final SpinningWorkers lane;

    /** Workers whose thread has started and not yet exited, for {@code shutdownNow}. */
    private final Set<Worker> live = ConcurrentHashMap.newKeySet();
    /**
     * Workers that have given back their count but whose thread may not have terminated yet, oldest first,
     * linked through {@link Worker#nextExited}; guarded by the lock. Linking allocates nothing, so a worker
     * can exit even when the heap is exhausted.
     */
    private Worker exitedHead;
    private Worker exitedTail;
    /** Stopped purgers and tickers of every generation that may not have terminated; guarded by the lock. */
    private final ExitedThreads exited = new ExitedThreads();

    private volatile int capacity;
    private volatile int running;
    private volatile int waiting;
    private volatile int state;
    /**
     * Whether the workers' threads are virtual or platform ones, which the purger and ticker follow; unknown
     * until a user's thread factory has made its first thread. Written under the lock.
     */
    private volatile int threadKind;
    /** Set by {@link #shutdownNow} until {@link #reboot}: a task that starts meanwhile starts interrupted. */
    private volatile boolean interruptTasks;
    /** The purger and ticker of the current generation; null when not running. Guarded by the lock. */
    private PeriodicTask purger;
    private PeriodicTask ticker;

    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder blocked = new LongAdder();
    private final LongAdder blockedNanos = new LongAdder();

    /**
     * A pool named {@code name}: its default worker threads are {@code <name>-worker-<k>}, its purger and
     * ticker {@code <name>-purger} and {@code <name>-ticker}.
     */
    PoolCore(String name, int size, PoolOptions options, Consumer<Object> runner, SpinningWorkers lane) {
        this.name = name;
        this.lane = lane;
        this.options = java.util.Objects.requireNonNull(options, "options");
        this.runner = runner;
        this.failures = new TaskFailures(name, options);
        this.capacity = size <= 0 ? -1 : size;
        ThreadFactory factory = options.threadFactory();
        if (factory == null) {
            factory = Thread.ofVirtual().name(name + "-worker-", 1).factory();
            threadKind = VIRTUAL;
        }
        this.threadFactory = factory;
        this.preAlloc = options.preAlloc();
        this.nonblocking = options.nonblocking();
        this.maxBlockingTasks = options.maxBlockingTasks();
        this.expiryNanos = nanos(options.expiryDuration());
        this.tickNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(MAX_TICK_NANOS, expiryNanos / 10));
        if (preAlloc) {
            if (capacity < 0) {
                throw new IllegalArgumentException(
                        "preAlloc needs a bounded pool, but the capacity is " + size + " (unlimited)");
            }
            workers = new LoopQueue(capacity);
        } else {
            workers = new WorkerStack();
        }
        clock.update(System.nanoTime());
        lock.lock();
        try {
            startBackground();
        } finally {
            lock.unlock();
        }
    }

    /** {@code d} in nanoseconds: a negative one counts as zero, one too long for a {@code long} saturates. */
    static long nanos(Duration d) {
        if (d.isNegative()) {
            return 0L;
        }
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
    }

    /**
     * Starts purger and ticker unless purge is disabled or the kind of thread is not known yet; lock held,
     * pool open. The ticker only keeps the clock of the idle workers' stamps fresh, and only the purger reads
     * the stamps: a pool that never purges has no background thread at all. Both or neither: if the ticker
     * cannot start, the purger is stopped again before the failure propagates.
     */
    private void startBackground() {
        int kind = threadKind;
        if (options.disablePurge() || expiryNanos <= 0 || kind == UNKNOWN) {
            return;
        }
        boolean virtual = kind == VIRTUAL;
        ArrayList<Worker> stale = new ArrayList<>();
        purger = PeriodicTask.start(name + "-purger", virtual, expiryNanos, () -> purgeStaleWorkers(stale),
                options.logger());
        try {
            ticker = PeriodicTask.start(name + "-ticker", virtual, tickNanos, this::tick, options.logger());
        } catch (Throwable t) {
            stopBackground();
            throw t;
        }
    }

    /**
     * Learns the kind of the user's factory's threads from the first one, and starts purger and ticker of that
     * kind. Called after that worker has started, so it must not throw: the task is on its way. If the
     * background threads cannot start, the kind stays unknown and the next worker start tries again.
     */
    private void learnThreadKind(Thread first) {
        try {
            lock.lock();
            try {
                if (threadKind == UNKNOWN) {
                    threadKind = first.isVirtual() ? VIRTUAL : PLATFORM;
                    if (state != CLOSED) {
                        try {
                            startBackground();
                        } catch (Throwable t) {
                            threadKind = UNKNOWN;
                        }
                    }
                }
            } finally {
                lock.unlock();
            }
        } catch (Throwable t) {
            // no stack left to take the lock: the next worker start tries again
        }
    }

    // ------------------------------------------------------------------------------------------ counts

    @Override
    public int running() {
        return running;
    }

    @Override
    public int waiting() {
        return waiting;
    }

    @Override
    public int cap() {
        return capacity;
    }

    /** {@code -1} only when unlimited; 0, not negative, while running above a tuned-down capacity. */
    @Override
    public int free() {
        int c = capacity;
        return c < 0 ? -1 : Math.max(0, c - running);
    }

    @Override
    public boolean isClosed() {
        return state == CLOSED;
    }

    /** Idle workers on the queue; the one spinning in the lane is counted by whoever owns the lane. */
    int queued() {
        lock.lock();
        try {
            return workers.len();
        } finally {
            lock.unlock();
        }
    }

    /** The queued idle workers, and the worker spinning in the lane, free for a payload. */
    @Override
    public int idle() {
        return queued() + (lane.hasSpinner() ? 1 : 0);
    }

    @Override
    public PoolStats stats() {
        return new PoolStats(0L, completed.sum(), failed.sum(), 0L, blocked.sum(),
                Duration.ofNanos(blockedNanos.sum()));
    }

    @Override
    public String state() {
        return state == CLOSED ? (running == 0 ? "terminated" : "closed") : "open";
    }

    // ------------------------------------------------------------------------------------------ submit

    /**
     * Hands {@code payload} to an idle or a new worker (ants' {@code retrieveWorker} plus the send), as
     * {@link Core#dispatch} says. Counts a submitter that parks, and how long it parked.
     */
    @Override
    public boolean dispatch(Object payload, boolean timed, long nanos) {
        if (state == CLOSED) {
            throw new PoolClosedException();
        }
        if (lane.tryHand(payload)) {
            return true;
        }
        final long deadline = timed ? System.nanoTime() + nanos : 0L;
        int retries = RETRIES_BEFORE_WAIT;
        boolean locked = false;
        boolean woken = false;
        boolean returned = false;
        long parkedNanos = -1L; // -1: never parked
        PoolEvents.SubmitBlocked blockedEvent = null;
        try {
            lock.lock();
            locked = true;
            for (;;) {
                if (state == CLOSED) {
                    throw new PoolClosedException();
                }
                Worker w = workers.detach();
                if (w != null) {
                    locked = false;
                    lock.unlock();
                    returned = true;
                    try {
                        w.hand(payload);
                    } catch (Throwable t) { // the payload is in the slot: the worker must wake up to run it
                        w.wake();
                        throw t;
                    }
                    return true;
                }
                int cap = capacity;
                if (cap < 0 || running < cap) {
                    running++; // counted under the lock: running never exceeds capacity (ants #376)
                    locked = false;
                    lock.unlock();
                    returned = true;
                    startWorker(payload);
                    return true;
                }
                if ((nonblocking && !timed) || (maxBlockingTasks != 0 && waiting >= maxBlockingTasks)) {
                    if (timed) {
                        returned = true;
                        return false;
                    }
                    throw new PoolOverloadException(nonblocking
                            ? "no free worker in a nonblocking pool of capacity " + cap
                            : "no free worker and maxBlockingTasks=" + maxBlockingTasks
                                    + " submitters already wait");
                }
                if (lane.hasSpinner()) { // a worker began to spin after the fast path was tried
                    locked = false;
                    lock.unlock();
                    if (lane.tryHand(payload)) {
                        returned = true;
                        return true;
                    }
                    lock.lock();
                    locked = true;
                    continue;
                }
                long remaining = 0L;
                if (timed && (remaining = deadline - System.nanoTime()) <= 0L) {
                    returned = true;
                    return false;
                }
                if (waiting == 0 && --retries >= 0) { // a short task's worker is about to come back: no park yet
                    locked = false;
                    lock.unlock();
                    for (int i = 0; i < SPINS_PER_RETRY; i++) {
                        Thread.onSpinWait();
                    }
                    lock.lock();
                    locked = true;
                    continue;
                }
                if (parkedNanos < 0L) {
                    parkedNanos = 0L;
                    blockedEvent = PoolEvents.beginBlocked();
                }
                waiting++;
                long parkedAt = System.nanoTime();
                try {
                    if (timed) {
                        cond.await(remaining, TimeUnit.NANOSECONDS);
                    } else {
                        cond.await();
                    }
                } finally {
                    waiting--; // Cond.await returns and throws with the lock held
                    parkedNanos += System.nanoTime() - parkedAt;
                }
                woken = true;
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new RejectedExecutionException("interrupted while waiting for a free worker", ie);
        } finally {
            if (locked) {
                // A wake-up this submitter took but did not use (it leaves on an unexpected throwable, such as
                // a stack overflow) goes to the next waiter, after the unlock: the unlock needs the least stack.
                boolean passOn = !returned && woken && waiting > 0;
                lock.unlock();
                if (passOn) {
                    cond.signal();
                }
            }
            if (parkedNanos >= 0L) {
                countBlocked(parkedNanos, blockedEvent);
            }
        }
    }

    /** Counts a submitter that parked for {@code parkedNanos}; never throws, so it cannot hide a hand-off. */
    private void countBlocked(long parkedNanos, PoolEvents.SubmitBlocked event) {
        try {
            blocked.increment();
            blockedNanos.add(parkedNanos);
        } catch (Throwable countNotKept) {
            // a counter could not allocate its cell: the statistics lose one wait
        }
        PoolEvents.endBlocked(event, name);
    }

    /**
     * Starts a new worker (already counted in {@code running}) with its first payload; on any failure gives
     * the count back before the exception propagates.
     *
     * @throws RejectedExecutionException if the factory returned {@code null} or threw a
     *                                    {@code RuntimeException} (the cause); an {@code Error} from the
     *                                    factory or from {@link Thread#start()} propagates as it is
     */
    private void startWorker(Object payload) {
        Worker w = null;
        boolean listed = false;
        try {
            w = new Worker(this, payload);
            w.newThread(threadFactory);
            listed = live.add(w); // before start, so that a concurrent shutdownNow finds the thread
            w.start();
        } catch (Throwable t) {
            if (listed) {
                live.remove(w);
            }
            lock.lock();
            try {
                retireLocked(null);
            } finally {
                lock.unlock();
            }
            if (t instanceof RejectedExecutionException ree) {
                throw ree;
            }
            if (t instanceof Error e) {
                throw e;
            }
            throw new RejectedExecutionException("cannot start a worker thread", t);
        }
        if (threadKind == UNKNOWN) {
            learnThreadKind(w.thread());
        }
    }

    // ------------------------------------------------------------------------------------------ worker side

    /**
     * Runs one payload on the current worker thread, reports a failure, and clears an interrupt the task left
     * behind; never throws.
     */
    void runPayload(Object payload) {
        if (interruptTasks) {
            Thread.currentThread().interrupt(); // shutdownNow came before this task could start
        }
        Throwable failure = null;
        try {
            runner.accept(payload);
        } catch (Throwable t) {
            failure = t;
        }
        try {
            if (failure == null) {
                completed.increment();
            } else {
                failed.increment();
                failures.report(failure);
                PoolEvents.taskFailed(name, failure);
            }
        } catch (Throwable countNotKept) {
            // a counter could not allocate its cell: the statistics lose one task, the worker goes on
        }
        // An interrupt (e.g. from shutdownNow) is meant for the task that just ended, not for the next one.
        Thread.interrupted();
    }

    /**
     * The next payload for a worker that has just run one, from the {@linkplain SpinningWorkers fast lane},
     * or {@link SpinningWorkers#NONE} if it must revert: the lane is skipped when a submitter waits (revert
     * signals it), when the pool is closed, and above a tuned-down capacity (revert retires the surplus).
     *
     * @param last the payload the worker has just run if it came from the lane, else {@code NONE}
     */
    Object nextFromLane(Object last) {
        int cap = capacity;
        if (waiting > 0 || state == CLOSED || (cap >= 0 && running > cap)) {
            if (last != SpinningWorkers.NONE) {
                lane.leave();
            }
            return SpinningWorkers.NONE;
        }
        return lane.spin(last);
    }

    /** Takes a worker that is hot in the lane out of it (see {@link SpinningWorkers#leave()}). */
    void leaveLane() {
        lane.leave();
    }

    /**
     * Puts an idle worker back on the queue (ants' {@code revertWorker}). A worker that may not go back (pool
     * closed, above a tuned-down capacity, or queue full) is retired here, under the lock, so that the next
     * worker finishing sees the lowered count and a tune down retires exactly the surplus.
     *
     * @return false if the worker was retired and must end (its count is already given back)
     */
    boolean revertWorker(Worker w) {
        lock.lock();
        try {
            int cap = capacity;
            if (state != CLOSED && (cap < 0 || running <= cap)) {
                w.lastUsed = clock.nanoTime();
                if (workers.insert(w)) {
                    if (waiting > 0) {
                        cond.signal();
                    }
                    return true;
                }
            }
            retireLocked(w);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives back a worker's count; lock held. Allocates nothing, so it cannot fail.
     *
     * @param w the worker whose thread ends, linked into the exited list so that {@code awaitTermination}
     *          joins it; {@code null} for a worker whose thread never started
     */
    private void retireLocked(Worker w) {
        running--;
        if (w != null) {
            if (exitedWorkerAliveLocked() == null) {
                exitedHead = w;
            } else {
                exitedTail.nextExited = w;
            }
            exitedTail = w;
        }
        if (waiting > 0) {
            cond.signal();
        }
        if (state == CLOSED && running == 0) {
            termination.broadcast();
        }
    }

    /**
     * The last action of a worker thread.
     *
     * @param counted whether the worker still holds its count: it ended on an unexpected throwable, rather
     *                than being retired by {@link #revertWorker} or stopped by release or the purger
     */
    void workerExited(Worker w, boolean counted) {
        if (counted) {
            lock.lock();
            try {
                retireLocked(w);
            } finally {
                lock.unlock();
            }
        }
        live.remove(w);
    }

    /** The oldest exited worker whose thread is still alive, forgetting the ones before it; lock held. */
    private Worker exitedWorkerAliveLocked() {
        while (exitedHead != null && !exitedHead.thread().isAlive()) {
            exitedHead = exitedHead.nextExited;
        }
        return exitedHead;
    }

    /**
     * The {@link System#nanoTime()} deadline {@code nanos} from now; a negative {@code nanos} counts as zero,
     * so that {@code deadline - System.nanoTime()} cannot wrap around to a wait of centuries.
     */
    static long deadline(long nanos) {
        return System.nanoTime() + Math.max(0L, nanos);
    }

    /**
     * Joins {@code t} until the deadline (a {@link System#nanoTime()} value); whether it has ended, as
     * {@link Thread#isAlive()} says. {@code join(Duration)} is not used: it reports a platform thread as
     * terminated a moment before {@code isAlive()} turns false, while {@code join(long)} waits on the thread's
     * monitor, under which the JVM makes both changes.
     */
    static boolean join(Thread t, long deadline) throws InterruptedException {
        long rem = deadline - System.nanoTime();
        if (rem > 0L) {
            t.join(TimeUnit.NANOSECONDS.toMillis(rem) + 1L);
        }
        return !t.isAlive();
    }

    // ------------------------------------------------------------------------------------------ background

    private void purgeStaleWorkers(List<Worker> stale) {
        if (state == CLOSED) {
            return;
        }
        stale.clear();
        lock.lock();
        try {
            workers.refresh(System.nanoTime() - expiryNanos, stale);
        } finally {
            // every worker taken off the queue gives back its count here, even if refresh ran out of memory
            for (int i = 0, k = stale.size(); i < k; i++) {
                retireLocked(stale.get(i));
            }
            lock.unlock();
        }
        for (int i = 0, k = stale.size(); i < k; i++) {
            stale.get(i).finish();
        }
        stale.clear();
    }

    private void tick() {
        lock.lock();
        try {
            advanceClockLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves the cached clock to now, never backwards; lock held. Workers are stamped from it under the same
     * lock, so the stamps never decrease along the idle queue (what the purger's binary search relies on),
     * even when a ticker told to stop by a release is still in its last run after the reboot that follows.
     */
    private void advanceClockLocked() {
        long now = System.nanoTime();
        if (now - clock.nanoTime() > 0L) {
            clock.update(now);
        }
    }

    // ------------------------------------------------------------------------------------------ life cycle

    @Override
    public void tune(int size) {
        lock.lock();
        try {
            int cap = capacity;
            if (cap == -1 || size <= 0 || size == cap || preAlloc) {
                return;
            }
            capacity = size;
            if (size > cap) {
                if (size - cap == 1) {
                    cond.signal();
                } else {
                    cond.broadcast();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Closes the pool; whether this call closed it. */
    @Override
    public boolean release() {
        lock.lock();
        try {
            if (state == CLOSED) {
                return false;
            }
            state = CLOSED;
            stopBackground();
            for (Worker w; (w = workers.detach()) != null;) {
                retireLocked(w);
                w.finish();
            }
            cond.broadcast();
            if (running == 0) {
                termination.broadcast();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Releases and interrupts every busy worker; whether this call closed the pool. */
    @Override
    public boolean shutdownNow() {
        boolean closed = release();
        interruptTasks = true; // before the walk: a worker the walk misses starts its task interrupted
        for (Worker w : live) {
            w.interrupt();
        }
        return closed;
    }

    /** Stops purger and ticker and records their threads for {@link #awaitTermination}; lock held. */
    private void stopBackground() {
        stop(purger);
        stop(ticker);
        purger = null;
        ticker = null;
    }

    private void stop(PeriodicTask task) {
        if (task != null) {
            task.stop();
            exited.add(task.thread());
        }
    }

    @Override
    public void reboot() {
        lock.lock();
        try {
            if (state != CLOSED) {
                return;
            }
            state = OPENED;
            interruptTasks = false;
            advanceClockLocked();
            startBackground();
        } finally {
            lock.unlock();
        }
    }

    /** Closed and no worker left (see the class notes); under the lock, so both hold at one instant. */
    @Override
    public boolean isTerminated() {
        lock.lock();
        try {
            return state == CLOSED && running == 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the pool has terminated and every thread it let go (workers, purgers and tickers of every
     * generation) has ended. The threads are joined without the lock, then the pool is checked again, since a
     * reboot and a release meanwhile may have let more threads go.
     *
     * @return false if that did not happen within {@code nanos}
     */
    @Override
    public boolean awaitTermination(long nanos) throws InterruptedException {
        final long deadline = deadline(nanos);
        lock.lock();
        try {
            for (;;) {
                while (state != CLOSED || running != 0) {
                    long rem = deadline - System.nanoTime();
                    if (rem <= 0L) {
                        return false;
                    }
                    termination.await(rem, TimeUnit.NANOSECONDS);
                }
                Thread[] alive = exited.alive();
                Worker worker = exitedWorkerAliveLocked();
                if (alive.length == 0 && worker == null) {
                    return true;
                }
                lock.unlock();
                try {
                    for (Thread t : alive) {
                        if (!join(t, deadline)) {
                            return false;
                        }
                    }
                    if (worker != null && !join(worker.thread(), deadline)) {
                        return false;
                    }
                } finally {
                    lock.lock();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Releases, then waits for termination; an interrupt does not cut the wait short but is kept. */
    @Override
    public void releaseTimeout(Duration timeout) throws TimeoutException {
        java.util.Objects.requireNonNull(timeout, "timeout");
        release();
        boolean done;
        boolean interrupted = false;
        long deadline = System.nanoTime() + nanos(timeout);
        for (;;) {
            try {
                done = awaitTermination(deadline - System.nanoTime());
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!done) {
            int n = running;
            throw new TimeoutException(name + " did not terminate within " + timeout + ": "
                    + (n > 0 ? n + " worker(s) still running" : "threads of the pool still ending"));
        }
    }

    /** The threads of the purger and ticker running now (for the tests: they are virtual, so nothing lists them). */
    List<Thread> backgroundThreads() {
        lock.lock();
        try {
            List<Thread> threads = new ArrayList<>(2);
            if (purger != null) {
                threads.add(purger.thread());
            }
            if (ticker != null) {
                threads.add(ticker.thread());
            }
            return threads;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return name + '[' + state() + ", cap=" + capacity + ", running=" + running + ", waiting=" + waiting + ']';
    }

    // ------------------------------------------------------------------------------------------ ExecutorService

    /**
     * Waits as {@code ExecutorService.close} must once it has shut the pool down: until the pool has terminated
     * ({@link #awaitTermination}), or, called from a worker thread of this pool (a task closing its own pool),
     * until no other worker is left, since the caller's worker can only end after the caller's task returns.
     *
     * @return false if that did not happen within {@code nanos}
     */
    @Override
    public boolean awaitClose(long nanos) throws InterruptedException {
        Thread self = Thread.currentThread();
        return isWorkerThread(self) ? awaitOtherWorkers(self, nanos) : awaitTermination(nanos);
    }

    /** Whether {@code t} is the thread of a live worker of this pool. */
    boolean isWorkerThread(Thread t) {
        for (Worker w : live) {
            if (w.thread() == t) { // a worker's own thread always sees its current thread field
                return true;
            }
        }
        return false;
    }

    /**
     * Waits until the calling worker {@code self} is the only one counted in {@code running}: joins the threads
     * of the other live workers, then checks the count again. A worker that is counted but has no live thread
     * to join (being started, or between leaving {@link #live} and giving its count back) is waited for with
     * {@link Thread#yield()}; that window spans a thread start at most.
     */
    private boolean awaitOtherWorkers(Thread self, long nanos) throws InterruptedException {
        final long deadline = deadline(nanos);
        ArrayList<Thread> others = new ArrayList<>();
        while (running > 1) {
            for (Worker w : live) {
                Thread t = w.thread();
                if (t != self && t != null && t.isAlive()) {
                    others.add(t);
                }
            }
            for (Thread t : others) {
                if (!t.join(Duration.ofNanos(Math.max(0L, deadline - System.nanoTime())))) {
                    return false;
                }
            }
            if (others.isEmpty()) {
                if (deadline - System.nanoTime() <= 0L) {
                    return false;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                Thread.yield();
            }
            others.clear();
        }
        return true;
    }
}
