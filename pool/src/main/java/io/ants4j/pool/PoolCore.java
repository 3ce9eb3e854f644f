package io.ants4j.pool;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The machinery shared by {@link Pool} and {@link PoolWithFunc} (ants' {@code poolCommon}), parameterized by
 * the {@link #runner} that runs one payload: a {@code Runnable} for {@code Pool}, the argument of the fixed
 * function for {@code PoolWithFunc}. Also each sub-pool of a multi-pool.
 *
 * <p>Implementation notes.
 * <ul>
 * <li><b>State and lock.</b> One {@link SpinLock} guards the idle {@link WorkerQueue}, the {@link #waiters}
 *     (submitters waiting for a worker, first come, first served), the counts {@link #running} and
 *     {@link #waiting}, the {@link #capacity} changes and the open/closed {@link #state}. The counts are
 *     volatile so the public getters, the fast path and a spinning worker read them without the lock, but
 *     they change only under it. A getter that combines two values reads them under the lock, so that it
 *     gives the value of one instant: {@link #free} (capacity and count), {@link #idle} (the idle queue and the
 *     lane, see below); a multi-pool holds all its sub-pools' locks to sum their counts. A {@link Cond} hangs on the lock,
 *     {@link #termination}, for threads waiting for the pool to terminate. A {@code SpinLock} and not a
 *     {@code Mutex}: every section is a few dozen instructions that never block, so a thread that misses
 *     should retry, not pay a park and an unpark; side by side, a {@code Mutex} here was no faster on
 *     trivial tasks and slower on a burst of a million (docs/benchmark-notes.md).</li>
 * <li><b>Fast lane</b> ({@link SpinningWorkers}, not in ants): a worker that has just finished a task spins
 *     briefly before it reverts, and a submitter hands its payload to that running thread without the lock
 *     and without an unpark. Skipped while submitters wait (on both sides: a submitter never takes the lane
 *     past a waiting one, and a spinning worker stops as soon as one waits), after release and above a
 *     tuned-down capacity, so the paths below keep their meaning; a submitter about to wait first tries the
 *     lane once more. A worker already spinning when {@code tune} lowers the capacity is an idle worker like
 *     one on the queue, which a submitter takes whatever the capacity (as ants' {@code retrieveWorker}
 *     does): it may run one more task, and revert retires it after that. A worker that spins in vain withdraws
 *     ({@link SpinningWorkers#WITHDRAWING}: no payload can reach it, and it still holds the lane) and frees the
 *     lane in its revert, under the lock, so that {@link #idle}, read under the lock, counts it once: in the
 *     lane or on the queue. Were it to leave the lane first and take the lock after, a reader between the two
 *     would miss it, and one reading the lane before and the queue after (a multi-pool's sub-pools) would count
 *     it twice.</li>
 * <li><b>Submit</b> ({@link #dispatch}, ants' {@code retrieveWorker}): under the lock, if nobody waits, take
 *     an idle worker off the queue (its head: the most recently idle on a stack, the longest idle on a ring), or,
 *     if the queue is empty, the one withdrawing from the lane; else, if
 *     {@code running < capacity}, count the new worker <em>under the
 *     lock</em> (so concurrent submitters can never start more than {@code capacity} workers: ants #374, fixed
 *     in #376) and start it after unlocking with the payload already in its slot; else reject
 *     ({@code nonblocking}, or {@code maxBlockingTasks} reached), or join the {@link Waiters} and park until
 *     served (see there: a freed worker or slot is handed to the longest waiter, never competed for). A
 *     submitter that waits is counted once in {@link #blocked} and its time in {@link #blockedNanos}, after
 *     unlocking (a counter may allocate), as is its JFR event. Before it waits, a submitter looks again a few
 *     times with spin-waits in between (unlocked), because parking and unparking a thread costs more than a
 *     short task; it does so only while nobody waits, so it never overtakes a waiting submitter. The
 *     hand-off itself happens after unlocking (see {@link Worker}).</li>
 * <li><b>Revert</b> (ants' {@code revertWorker}): after each task the worker, under the lock, takes the
 *     payload of the longest waiting submitter if there is one, or else stamps itself from the cached clock
 *     and goes back on the queue. It is refused (and the worker ends) when the pool is closed or runs above a
 *     tuned-down capacity.</li>
 * <li><b>Exit</b>: a worker's count is given back under the lock, and handed on to the longest waiter if the
 *     capacity allows, so no slot is lost: by the worker itself when revert refuses it or an unexpected
 *     throwable ends it, and by whoever takes an idle worker off the queue to stop it (release, purger), so
 *     termination never waits for an idle thread to wind down. Invariants: {@code running} = workers counted
 *     by dispatch or for a waiter and not yet given back {@code <=} capacity, except after a tune down; while
 *     a submitter waits, no worker is idle on the queue and {@code running >= capacity}.</li>
 * <li><b>Purger</b> (every {@code expiryDuration}): cuts the expired prefix off the queue under the lock
 *     (binary search on the stamps) and gives back those workers' counts there, then stops them after
 *     unlocking. <b>Ticker</b>: refreshes the {@link CachedNanoClock} every
 *     {@code tick = min(500 ms, expiry / 10)} (at least 1 ms); it does so under the lock and never backwards,
 *     so stamps taken under the lock never decrease. A stamp lags its worker's idle time by at most a tick, also
 *     when ticker and purger could not run for a while (every carrier held by CPU-bound tasks): a refresh that
 *     finds the clock older than a tick raises the stamps taken from it to a tick before now, and the purger
 *     refreshes the clock before it reads the stamps. So no worker is retired before it has been idle for
 *     {@code expiry - tick}. Only the
 *     purger reads the stamps, so without a purger ({@code disablePurge}) there is no ticker either. Both
 *     are of the workers' kind of thread: virtual with the default factory; with a user's factory, the kind
 *     of the first worker thread it makes, so they start with that worker ({@link #threadKind}).</li>
 * <li><b>Release</b> closes under the lock, grants every waiter {@code CLOSED} (it throws
 *     {@link PoolClosedException} even if a reboot follows before it wakes), stops purger and ticker and the
 *     idle workers. Busy workers end when their task returns. <b>Reboot</b> starts a new purger and ticker, then
 *     reopens, under the lock, without waiting for the old ones to end (that could take as long as a carrier
 *     thread stays busy). Both allocate before they change the state: a reboot that runs out of memory leaves
 *     the pool closed, and a release records the stopped purger and ticker in room reserved when they
 *     started.</li>
 * <li><b>Stop</b> ({@link #shutdownNow}) marks the pool stopping ({@link #interruptTasks}) with the close, under
 *     the lock, then interrupts every live worker. The walk's iterator is made first, in the same hold of the
 *     lock (out of memory, a shutdownNow changes nothing; a multi-pool then releases that sub-pool), and workers
 *     enter {@link #live} under the lock: a worker the walk misses entered after the mark. (The walk allocates
 *     again only if it meets a resize of the set, which a worker admitted before the close and entering after it
 *     can start: then an error there leaves the later workers uninterrupted.) {@link #stopLock} keeps a reboot
 *     out until that walk is over,
 *     and the reboot clears the mark under the lock (a multi-pool's, once every sub-pool has reopened). A
 *     worker clears its interrupt before each task and then reads the mark ({@link #runPayload}), so an
 *     interrupt that reached it between tasks (in the fast lane, say) never outlives the reboot, and a task
 *     started while stopping starts interrupted. The walk calls the logger when an interrupt throws, with
 *     {@code stopLock} held: a reboot from there is refused, and so is a wait for termination
 *     ({@link #inTransitionOnCurrentThread}), which the tasks the walk has not interrupted yet would hold up
 *     while the walk waits for it.</li>
 * <li><b>Close from a task</b> ({@link #awaitClose}): a task cannot wait for its own worker, so it waits until
 *     every counted worker runs a task that is closing the pool ({@link #closers}, each such task counted
 *     until it ends): two tasks that close their pool wait for every other task, not for each other. The
 *     termination {@code Cond} serves both waits. A reboot may reopen the pool while such a task waits; the
 *     tasks that end then leave idle workers, so the wait counts only workers that are neither idle on the queue
 *     nor closers, and {@link #closeWaits} (the tasks waiting, a multi-pool's closing task included in each
 *     other sub-pool) makes a worker that retires or goes idle in an open pool wake them. A worker withdrawing
 *     from the lane counts as idle too; one still spinning does not, since a submitter that found the pool open
 *     may yet hand it a task, so the wait takes it out of the lane ({@link SpinningWorkers#takeOutSpinner}):
 *     withdrawing, it is idle at once, however long its thread takes to look at the slot. A worker that has just
 *     finished a task goes no more into the lane while such a task waits, and one already spinning leaves it
 *     ({@link #stopsSpinning}): it goes back to its pool, whose revert wakes the waiting tasks (a worker that went
 *     into the lane unseen would wake nobody). The wait's volatile count of waiters, written before it looks at the
 *     lane, and the worker's entry into the lane, made before it reads that count, are ordered like Dekker's flags:
 *     either the wait finds the worker in the lane, or the worker finds the wait. A worker preempted between its
 *     entry and its first look delays the wait until it runs again, as a worker preempted anywhere between the end
 *     of its task and its return to the pool does.</li>
 * <li><b>Termination</b> = closed and {@code running == 0}: every worker has given back its count, so no task
 *     runs and none will. It does not wait for threads to end: a stopped worker's thread may still be winding
 *     down, and the purger and ticker are only asked to stop. Every thread the pool lets go is recorded under
 *     the lock when it is let go, in {@link #exited} (a worker when it gives back its count, a purger or ticker
 *     of any generation when it is stopped), so {@link #awaitTermination} returns true only when, under the lock,
 *     the pool is terminated and every recorded thread has ended: no thread of the pool is alive then.</li>
 * <li><b>Failures</b>: {@link #runPayload} catches whatever a task throws and reports it
 *     ({@link TaskFailures}: handler, else logger, else the thread's uncaught-exception handler), never letting
 *     a throwable out of the worker loop. Every path that changes the lock, the waiters or {@code running}
 *     restores them in a {@code finally} or a catch of {@code Throwable}; giving back a count allocates
 *     nothing, so it works when the heap is exhausted. Neither does what follows a change of state (a hand-off,
 *     a stop, a grant, a wake-up of termination's waiters) once its code is linked: the first run of a
 *     {@code VarHandle} call site in the JVM allocates, so the constructor runs those paths once on objects of
 *     no pool ({@link #linkStateChanges}). A worker leaves the live set only after its count is given back: a
 *     {@code ConcurrentHashMap} removal may allocate a counter cell. A thread factory that throws, returns
 *     {@code null} or returns a thread already started fails the start, which gives the count back; a worker runs
 *     only once the pool has admitted it, just before {@code Thread.start()}, so it never runs in a thread the
 *     factory started, unless it began there after that admission (then the thread is the worker's and the start
 *     succeeded: {@link Worker}). A stack overflow is the exception: one that strikes
 *     again inside that recovery, or inside the JDK's own scheduler, cannot be undone from Java.</li>
 * </ul>
 * Memory effects: a submitter's actions before {@code dispatch} happen-before its payload runs (slot
 * release/acquire, or the lock for a waiter's payload that a reverting worker takes); a task's actions
 * happen-before the {@code running} decrement that lets {@code awaitTermination} or a closing task's wait
 * return.
 */
final class PoolCore implements Core, SpinningWorkers.Owner {
    private static final int OPENED = 0;
    private static final int CLOSED = 1;
    private static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** Times a submitter that finds every worker busy looks again before it waits. */
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

    /** This pool's marks in the lane's slot while one of its workers spins or withdraws (see {@link SpinningWorkers}). */
    private final SpinningWorkers.Marks marks = SpinningWorkers.newMarks();
    private final SpinLock lock = new SpinLock();
    /** Submitters waiting for a worker, served first come, first served; guarded by the lock. */
    private final Waiters waiters = new Waiters();
    private final Cond termination = new Cond(lock);
    /**
     * Held by {@link #shutdownNow} while it interrupts the workers and by {@link #reboot}, so that no interrupt
     * of a {@code shutdownNow} goes out after the reboot that follows it. Never taken on the submit path nor by
     * a worker, and taken before {@link #lock}.
     */
    private final ReentrantLock stopLock = new ReentrantLock();
    private final WorkerQueue workers;
    private final CachedNanoClock clock = new CachedNanoClock();
    /** Where the ticker and purger read the time: {@link System#nanoTime()}, or a test's hand-driven clock. */
    private final NanoClock realTime;
    /** The pool's fast lane; the sub-pools of a multi-pool share one. */
    private final SpinningWorkers lane;

    /** Workers whose thread has started and not yet exited, for {@code shutdownNow}; added to under the lock. */
    private final Set<Worker> live = ConcurrentHashMap.newKeySet();
    /**
     * The threads the pool has let go that may not have terminated: exited workers, stopped purgers and tickers
     * of every generation; guarded by the lock.
     */
    private final ExitedThreads exited = new ExitedThreads();

    private volatile int capacity;
    private volatile int running;
    /** The submitters in {@link #waiters}; changed with the list, under the lock. */
    private volatile int waiting;
    private volatile int state;
    /** Workers whose current task has called {@code close()} on the pool ({@link #awaitClose}); guarded by the lock. */
    private int closers;
    /**
     * Tasks waiting in {@link #awaitOnlyClosers} (of this pool, or of another sub-pool of its multi-pool); changed
     * under the lock, read without it by a worker about to spin or spinning in the lane, which then goes back to its
     * pool instead, where its revert wakes them.
     */
    private volatile int closeWaits;
    /**
     * Whether the workers' threads are virtual or platform ones, which the purger and ticker follow; unknown
     * until a user's thread factory has made its first thread. Written under the lock.
     */
    private volatile int threadKind;
    /**
     * Set by {@link #shutdownNow} until {@link #reboot}, both under the lock: a task that starts meanwhile starts
     * interrupted.
     */
    private volatile boolean interruptTasks;
    /** The purger and ticker of the current generation; guarded by the lock. */
    private final BackgroundThreads background;

    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder blocked = new LongAdder();
    private final LongAdder blockedNanos = new LongAdder();

    /**
     * A pool named {@code name}: its default worker threads are {@code <name>-worker-<k>}, its purger and
     * ticker {@code <name>-purger} and {@code <name>-ticker}.
     */
    PoolCore(String name, int size, PoolOptions options, Consumer<Object> runner, SpinningWorkers lane) {
        this(name, size, options, runner, lane, SystemNanoClock.INSTANCE);
    }

    /** A pool whose ticker and purger read the time from {@code realTime}: a test drives it to stall them. */
    PoolCore(String name, int size, PoolOptions options, Consumer<Object> runner, SpinningWorkers lane,
             NanoClock realTime) {
        linkStateChanges(); // first: what may run out of memory comes before any state
        this.name = name;
        this.realTime = realTime;
        this.lane = lane;
        this.options = java.util.Objects.requireNonNull(options, "options");
        this.runner = runner;
        this.failures = new TaskFailures(name, options);
        this.background = new BackgroundThreads(name, failures, exited);
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
        clock.update(realTime.nanoTime());
        lock.lock();
        try {
            startBackground();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs once, on objects of no pool, the code that changes a pool's state after a count, a queue or the open
     * state has changed: handing a payload or {@code STOP} to a worker taken off the idle queue, granting a
     * waiting submitter its outcome, a waiting submitter's reads of its outcome, waking the threads waiting for
     * termination, and a worker's admission (its thread's first steps, up to its first payload, and a failed start
     * taking it back). The first run of each
     * {@code VarHandle} call site in the JVM links it, which allocates: were that first run a release or a
     * hand-off on an exhausted heap, its {@code OutOfMemoryError} would leave a worker off the queue without its
     * payload or {@code STOP}, a submitter out of the list without an outcome, or a started worker counted with
     * its thread ended before its first payload. Called by the constructor,
     * before the pool has any state.
     */
    private void linkStateChanges() {
        Worker linking = new Worker(this, Worker.PARKED);
        linking.run(); // not admitted: returns at once
        linking.revoke(); // nothing to take back: fails
        linking.hand(Worker.STOP); // takes PARKED out: the unpark runs too, on no thread
        new Worker(this, Worker.PARKED).finish(); // the same through the stop of an idle worker (LostThreads)
        new Worker(this, Worker.STOP).runInCallingThread(); // admitted, takes STOP, exits: live.remove finds nothing
        Waiters waiting = new Waiters();
        Waiters.Waiter withdrawn = new Waiters.Waiter(null);
        waiting.add(withdrawn);
        waiting.withdraw(withdrawn); // reads the grant, then grants WITHDRAWN
        termination.broadcast();
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
     * Starts purger and ticker ({@link BackgroundThreads}) unless purge is disabled or the kind of thread is not
     * known yet; lock held. The ticker only keeps the clock of the idle workers' stamps fresh, and only the purger
     * reads the stamps: a pool that never purges has no background thread at all.
     */
    private void startBackground() {
        int kind = threadKind;
        if (options.disablePurge() || expiryNanos <= 0 || kind == UNKNOWN) {
            return;
        }
        ArrayList<Worker> stale = new ArrayList<>();
        background.start(kind == VIRTUAL, expiryNanos, () -> purgeStaleWorkers(stale), tickNanos, this::tick);
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
    public boolean stopsSpinning() {
        return waiting > 0 || state == CLOSED || closeWaits > 0;
    }

    @Override
    public SpinningWorkers.Marks marks() {
        return marks;
    }

    @Override
    public int cap() {
        return capacity;
    }

    /**
     * {@code -1} only when unlimited; 0, not negative, while running above a tuned-down capacity. Under the lock,
     * so that capacity and count are read at one instant ({@code tune} changes both).
     */
    @Override
    public int free() {
        lock.lock();
        try {
            return freeLocked();
        } finally {
            lock.unlock();
        }
    }

    /** {@link #free()}, lock held. */
    int freeLocked() {
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
            return queuedLocked();
        } finally {
            lock.unlock();
        }
    }

    /** {@link #queued()}, lock held. */
    int queuedLocked() {
        return workers.len();
    }

    /**
     * The queued idle workers, and the worker idle in the lane, read together under the lock: the queue does
     * not change meanwhile, and a worker goes from the lane to the queue under it ({@link #revertWorker}), so
     * none is counted twice or missed.
     */
    @Override
    public int idle() {
        lock.lock();
        try {
            return workers.len() + lane.idleWorkers();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the pool's lock, for a multi-pool reading the counts of all its sub-pools at one instant (see
     * {@link MultiPoolCore}: the only place that holds two pools' locks); {@link #unlockCounts} releases it.
     */
    void lockCounts() {
        lock.lock();
    }

    /** Releases the lock taken by {@link #lockCounts}. */
    void unlockCounts() {
        lock.unlock();
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
     * {@link Core#dispatch} says; a submitter that must wait joins the {@link Waiters} and is served in turn.
     */
    @Override
    public boolean dispatch(Object payload, boolean timed, long nanos) {
        if (state == CLOSED) {
            throw new PoolClosedException();
        }
        if (waiting == 0 && lane.tryHand(payload, this)) { // never past a waiting submitter
            return true;
        }
        final long deadline = timed ? System.nanoTime() + nanos : 0L;
        int retries = RETRIES_BEFORE_WAIT;
        Waiters.Waiter waiter;
        boolean locked = false;
        try {
            lock.lock();
            locked = true;
            for (;;) {
                if (state == CLOSED) {
                    throw new PoolClosedException();
                }
                boolean first = waiting == 0; // else there is neither an idle worker nor a free slot
                if (first) {
                    Worker w = workers.detach();
                    if (w != null) {
                        locked = false;
                        lock.unlock();
                        try {
                            w.hand(payload);
                        } catch (Throwable t) { // the payload is in the slot: the worker must wake up to run it
                            w.wake();
                            throw t;
                        }
                        return true;
                    }
                    if (lane.tryHandWithdrawing(payload, this)) { // idle, on its way from the lane to the queue
                        return true;
                    }
                    int cap = capacity;
                    if (cap < 0 || running < cap) {
                        running++; // counted under the lock: running never exceeds capacity (ants #376)
                        locked = false;
                        lock.unlock();
                        startWorker(payload);
                        return true;
                    }
                }
                if (first && lane.hasSpinner()) { // a worker began to spin after the fast path was tried:
                    // free, so neither a rejection nor a wait
                    locked = false;
                    lock.unlock();
                    if (lane.tryHand(payload, this)) {
                        return true;
                    }
                    lock.lock();
                    locked = true;
                    continue;
                }
                if ((nonblocking && !timed) || (maxBlockingTasks != 0 && waiting >= maxBlockingTasks)) {
                    if (timed) {
                        return false;
                    }
                    throw new PoolOverloadException(nonblocking
                            ? "no free worker in a nonblocking pool of capacity " + capacity
                            : "no free worker and maxBlockingTasks=" + maxBlockingTasks
                                    + " submitters already wait");
                }
                if (timed && deadline - System.nanoTime() <= 0L) {
                    return false;
                }
                if (first && --retries >= 0) { // a short task's worker is about to come back: no park yet
                    locked = false;
                    lock.unlock();
                    for (int i = 0; i < SPINS_PER_RETRY; i++) {
                        Thread.onSpinWait();
                    }
                    lock.lock();
                    locked = true;
                    continue;
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new RejectedExecutionException("interrupted while waiting for a free worker",
                            new InterruptedException());
                }
                waiter = new Waiters.Waiter(payload); // before the list changes: may run out of memory
                waiters.add(waiter);
                waiting++;
                locked = false;
                lock.unlock();
                break;
            }
        } finally {
            if (locked) {
                lock.unlock();
            }
        }
        return awaitTurn(waiter, timed, deadline);
    }

    /**
     * Parks a submitter in the {@link Waiters} until its turn comes, it times out, or it is interrupted, then
     * acts on what it was granted. Counts it as blocked, with the time it waited.
     *
     * @return true when its payload was handed over; false if {@code timed} and the deadline passed first
     */
    private boolean awaitTurn(Waiters.Waiter waiter, boolean timed, long deadline) {
        final long parkedAt = System.nanoTime();
        PoolEvents.SubmitBlocked event = null;
        boolean interrupted = false;
        int grant;
        try {
            event = PoolEvents.beginBlocked();
            while ((grant = waiter.grant()) == Waiters.WAITING && !interrupted) {
                if (!timed) {
                    LockSupport.park(this);
                } else {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0L) {
                        break;
                    }
                    LockSupport.parkNanos(this, remaining);
                }
                interrupted = Thread.interrupted();
            }
            if (grant == Waiters.WAITING) {
                grant = withdraw(waiter); // unless a grant came first: that one is honoured
            }
        } catch (Throwable t) {
            abandon(waiter);
            throw t;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            countBlocked(System.nanoTime() - parkedAt, event);
        }
        switch (grant) {
            case Waiters.HANDED:
                return true;
            case Waiters.SLOT:
                startWorker(waiter.payload);
                return true;
            case Waiters.CLOSED:
                throw new PoolClosedException();
            default:
                if (interrupted) {
                    throw new RejectedExecutionException("interrupted while waiting for a free worker",
                            new InterruptedException());
                }
                return false;
        }
    }

    /** Takes a waiter that gives up out of the list; what it was granted first, or {@code WAITING}. */
    private int withdraw(Waiters.Waiter waiter) {
        lock.lock();
        try {
            return withdrawLocked(waiter);
        } finally {
            lock.unlock();
        }
    }

    /** Unlinks the longest waiter, or returns null; lock held. */
    private Waiters.Waiter nextWaiterLocked() {
        Waiters.Waiter w = waiters.poll();
        if (w != null) {
            waiting--;
        }
        return w;
    }

    /** Unlinks {@code w} unless it was granted an outcome first; lock held. See {@link Waiters#withdraw}. */
    private int withdrawLocked(Waiters.Waiter w) {
        int grant = waiters.withdraw(w);
        if (grant == Waiters.WAITING) {
            waiting--;
        }
        return grant;
    }

    /**
     * For a waiter leaving on an unexpected throwable: takes it out of the list, or gives back the worker count
     * it was granted (to the next waiter). A payload a worker has taken runs all the same.
     */
    private void abandon(Waiters.Waiter waiter) {
        lock.lock();
        try {
            if (withdrawLocked(waiter) == Waiters.SLOT) {
                retireLocked(null);
            }
        } finally {
            lock.unlock();
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
     * the count back before the exception propagates. A factory that returns a thread already started fails
     * like one that throws, unless the worker began to run in that thread after it was admitted: then the
     * thread is the worker's, and the start succeeded ({@link Worker#start}).
     *
     * @throws RejectedExecutionException if the factory returned {@code null}, or threw a
     *                                    {@code RuntimeException} (the cause, a {@code RejectedExecutionException}
     *                                    of its own included), or returned a started thread the worker does
     *                                    not run in ({@code Thread.start()}'s
     *                                    {@code IllegalThreadStateException}: the cause); an {@code Error} from
     *                                    the factory or from {@link Thread#start()} propagates as it is
     */
    private void startWorker(Object payload) {
        Worker w = null;
        boolean listed = false;
        RejectedExecutionException noThread = null;
        try {
            w = new Worker(this, payload);
            if (!w.newThread(threadFactory)) {
                noThread = new RejectedExecutionException("the pool's threadFactory returned null");
                throw noThread;
            }
            lock.lock();
            try { // before start, so that a concurrent shutdownNow finds the thread; under the lock, see shutdownNow
                listed = live.add(w);
            } finally {
                lock.unlock();
            }
            w.start();
        } catch (Throwable t) {
            lock.lock();
            try {
                retireLocked(null);
            } finally {
                lock.unlock();
            }
            if (listed) { // after the count: a ConcurrentHashMap removal may allocate (a counter cell) and fail
                live.remove(w);
            }
            if (t == noThread) {
                throw noThread;
            }
            if (t instanceof Error e) {
                throw e;
            }
            // wrapped whatever it is: a factory's own RejectedExecutionException (a PoolClosedException, one caused
            // by an InterruptedException) is not this pool's verdict
            throw new RejectedExecutionException("cannot start a worker thread", t);
        }
        if (threadKind == UNKNOWN) {
            learnThreadKind(w.thread());
        }
    }

    // ------------------------------------------------------------------------------------------ worker side

    /**
     * Runs one payload on the current worker thread, reports a failure, and clears an interrupt the task left
     * behind; never throws. As in {@code ThreadPoolExecutor.runWorker}, the task starts interrupted exactly
     * when the pool is stopping: an interrupt that reached the worker between two tasks (a {@code shutdownNow}
     * whose pool has been rebooted since, a {@code cancel(true)} that came late) is cleared first, and the stop
     * state read after that, so a {@code shutdownNow} that comes meanwhile still reaches the task.
     */
    void runPayload(Object payload) {
        Thread.interrupted();
        if (interruptTasks) { // shutdownNow came before this task could start
            try {
                Thread.currentThread().interrupt();
            } catch (Throwable t) { // a thread whose interrupt() throws: the task accepted still runs
                failures.reportOnCaller(t,
                        "shutdownNow: interrupting a worker thread threw; its task runs all the same");
            }
        }
        Throwable failure = null;
        try {
            runner.accept(payload);
        } catch (Throwable t) {
            failure = t;
        }
        if (failure != null) { // reported before it is counted: counting may run out of memory, reporting never throws
            failures.report(failure);
            PoolEvents.taskFailed(name, failure);
        }
        try {
            (failure == null ? completed : failed).increment();
        } catch (Throwable countNotKept) {
            // a counter could not allocate its cell: the statistics lose one task, the worker goes on
        }
        // An interrupt aimed at the task that just ended must not disturb the worker's own waits.
        Thread.interrupted();
    }

    /**
     * The next payload for a worker that has just run one, from the {@linkplain SpinningWorkers fast lane};
     * {@link SpinningWorkers#NONE} if it must revert; or {@link SpinningWorkers#WITHDRAWING} if it must revert
     * and its revert must free the lane ({@link #revertWorker}). The lane is skipped when a submitter waits
     * (revert serves it), when the pool is closed, and above a tuned-down capacity (revert retires the surplus).
     *
     * @param last the payload the worker has just run if it came from the lane, else {@code NONE}
     */
    Object nextFromLane(Object last) {
        int cap = capacity;
        if (waiting > 0 || state == CLOSED || closeWaits > 0 || (cap >= 0 && running > cap)) {
            if (last != SpinningWorkers.NONE) {
                lane.leave();
            }
            return SpinningWorkers.NONE;
        }
        return lane.spin(last, this);
    }

    /** Takes a worker that is hot in the lane out of it (see {@link SpinningWorkers#leave()}). */
    void leaveLane() {
        lane.leave();
    }

    /**
     * Puts an idle worker back on the queue (ants' {@code revertWorker}), or hands it the payload of the
     * submitter that has waited longest if one waits. A worker that may not go back (pool closed, above a
     * tuned-down capacity, or queue full) is retired here, under the lock, so that the next worker finishing
     * sees the lowered count and a tune down retires exactly the surplus.
     *
     * <p>A worker that has withdrawn from the lane ({@code withdrawing}) is taken out of it in the same critical
     * section, whatever the outcome (even an exception, or the lock failing), so that {@link #idle} and a
     * multi-pool's count, read under the lock, find it in the lane or past it, never in both nor in neither.
     *
     * @param withdrawing whether the worker holds the lane as {@link SpinningWorkers#WITHDRAWING}
     * @return the payload to run next (a waiting submitter's, or one a submitter handed the worker in the lane
     *         as it withdrew); {@link SpinningWorkers#NONE} if the worker is on the idle queue and
     *         must wait for one; or {@link Worker#STOP} if it was retired and must end (its count is already
     *         given back)
     */
    Object revertWorker(Worker w, boolean withdrawing) {
        Waiters.Waiter next;
        boolean locked = false;
        try {
            lock.lock();
            locked = true;
            if (withdrawing) {
                Object handed = lane.withdrawn();
                withdrawing = false; // after: if the swap threw, the finally frees the lane
                if (handed != SpinningWorkers.NONE) {
                    return handed; // a submitter handed it a payload as it withdrew: that submission succeeded
                }
            }
            int cap = capacity;
            if (state == CLOSED || (cap >= 0 && running > cap)) {
                retireLocked(w);
                return Worker.STOP;
            }
            next = nextWaiterLocked();
            if (next == null) {
                w.lastUsed = clock.nanoTime();
                if (workers.insert(w)) {
                    wakeTerminationWaitersLocked(); // an idle worker runs no task: a rebooted pool a task closes
                    return SpinningWorkers.NONE;
                }
                retireLocked(w);
                return Worker.STOP;
            }
            next.grantLocked(Waiters.HANDED);
        } finally {
            if (withdrawing) {
                lane.withdrawn();
            }
            if (locked) {
                lock.unlock();
            }
        }
        next.wake();
        return next.payload;
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
            exited.link(w);
        }
        grantSlotsLocked();
        wakeTerminationWaitersLocked();
    }

    /**
     * Wakes the waits on {@link #termination} once what they wait for may hold, lock held: no task but closers
     * runs, and the pool is closed (termination, and close from a task) or a task waits in
     * {@link #awaitOnlyClosers} (a pool rebooted while a task closes it, or a multi-pool's other sub-pool).
     */
    private void wakeTerminationWaitersLocked() {
        if (onlyClosersRunLocked() && (state == CLOSED || closeWaits > 0)) {
            termination.broadcast();
        }
    }

    /**
     * Counts a new worker for each waiter, longest first, while the capacity allows; lock held. The waiter
     * starts the worker (see {@link Waiters}); a worker that cannot start gives its count back to the next.
     */
    private void grantSlotsLocked() {
        for (int cap = capacity; cap < 0 || running < cap; cap = capacity) {
            Waiters.Waiter w = nextWaiterLocked();
            if (w == null) {
                return;
            }
            running++;
            w.grantLocked(Waiters.SLOT);
            w.wake();
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

    /**
     * Whether {@code t} is a thread of this pool that runs no task: its purger or ticker, of this generation or an
     * earlier one, or a thread whose worker has exited (its uncaught-exception handler runs there).
     */
    boolean runsNoTaskOfThisPool(Thread t) {
        lock.lock();
        try {
            return background.runsOn(t) || exited.contains(t);
        } finally {
            lock.unlock();
        }
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

    /**
     * One run of the purger: retires the workers idle for at least the expiry by their stamps. The clock is
     * advanced first, as a tick would, so that a purger that runs before a late ticker judges no stamp taken
     * from a stale clock.
     *
     * @param stale the list for the workers cut off the queue, cleared before and after
     */
    void purgeStaleWorkers(List<Worker> stale) {
        if (state == CLOSED) {
            return;
        }
        stale.clear();
        try {
            lock.lock();
            try {
                advanceClockLocked();
                workers.refresh(clock.nanoTime() - expiryNanos, stale);
            } finally {
                // every worker taken off the queue, and only those (refresh leaves a worker on the queue until
                // it is in the list), gives back its count here, even if refresh ran out of memory
                for (int i = 0, k = stale.size(); i < k; i++) {
                    retireLocked(stale.get(i));
                }
                lock.unlock();
            }
        } finally {
            // and is told to stop, or its thread would park for ever
            for (int i = 0, k = stale.size(); i < k; i++) {
                stale.get(i).finish();
            }
            stale.clear();
        }
    }

    /** One run of the ticker. */
    void tick() {
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
     *
     * <p>If the clock was last moved more than a tick ago (the ticker could not run: every carrier busy, a
     * long pause), a worker stamped with its value may have gone idle at any time since; its stamp is raised
     * to a tick before now, the latest it may lag by, so that no stamp lags its worker's idle time by more
     * than a tick and the purger never retires a worker early for a clock that stood still. Those workers are
     * the newest on the queue and the raised stamps are above every other, so the order holds. A tick on time
     * finds the clock a little more than a tick old as well and raises by that little; a raised stamp is below
     * the new clock value and never raised again, so the walks cost at most one write per revert.
     */
    private void advanceClockLocked() {
        long now = realTime.nanoTime();
        long cached = clock.nanoTime();
        if (now - cached > 0L) {
            clock.update(now);
            long lagBound = now - tickNanos;
            if (lagBound - cached > 0L) {
                workers.raiseStamps(cached, lagBound);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ life cycle

    @Override
    public long tune(int size) {
        lock.lock();
        try {
            int cap = capacity;
            if (cap == -1 || size <= 0 || size == cap || preAlloc) {
                return Core.capacities(cap, cap);
            }
            capacity = size;
            grantSlotsLocked();
            return Core.capacities(cap, size);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void reportOnCaller(Throwable failure, String message) {
        failures.reportOnCaller(failure, message);
    }

    /** Closes the pool; whether this call closed it. */
    @Override
    public boolean release() {
        lock.lock();
        try {
            return closeLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes the pool: stops purger, ticker and the idle workers, and rejects every waiting submitter; lock
     * held. Whether this call closed it.
     */
    private boolean closeLocked() {
        if (state == CLOSED) {
            return false;
        }
        state = CLOSED;
        // first: nothing here can fail (a waiter the JDK cannot unpark is lost alone: LostThreads)
        for (Waiters.Waiter w; (w = nextWaiterLocked()) != null;) {
            w.grantLocked(Waiters.CLOSED);
            w.wake();
        }
        background.stop();
        for (Worker w; (w = workers.detach()) != null;) {
            retireLocked(w);
            w.finish();
        }
        wakeTerminationWaitersLocked();
        return true;
    }

    /**
     * Releases and interrupts every busy worker; whether this call closed the pool. The pool is marked stopping
     * with the close, under the lock, and the interrupts go out under {@link #stopLock}, which
     * {@link #reboot} takes too: a reboot waits until they are all delivered, so none reaches a task of the
     * reopened pool, and no reboot can slip between the close and the mark. The walk's iterator is made first,
     * under the lock too (a shutdownNow out of memory changes nothing): workers enter the live set under the
     * lock, so a worker it does not list entered after the mark, and starts its task interrupted.
     */
    @Override
    public boolean shutdownNow() {
        stopLock.lock();
        try {
            boolean closed;
            Iterator<Worker> walk;
            lock.lock();
            try {
                walk = live.iterator();
                closed = closeLocked();
                interruptTasks = true; // with the close: a worker the walk misses starts its task interrupted
            } finally {
                lock.unlock();
            }
            while (walk.hasNext()) {
                interrupt(walk.next());
            }
            return closed;
        } finally {
            stopLock.unlock();
        }
    }

    /**
     * Interrupts a worker's thread for {@link #shutdownNow}; an interrupt that throws (closing the interruptible
     * channel its task blocks on can) is logged and does not keep the other workers from their interrupts.
     */
    private void interrupt(Worker w) {
        try {
            w.interrupt();
        } catch (Throwable t) {
            failures.reportOnCaller(t, "shutdownNow: interrupting a worker thread threw; the others were interrupted");
        }
    }

    /** Reopens the pool; waits for the interrupts of a {@link #shutdownNow} under way to go out first. */
    @Override
    public void reboot() {
        reboot(true);
    }

    /**
     * Reopens a closed pool. With {@code clearStopMark} false a {@link #shutdownNow}'s stop mark stays, so a task
     * handed over before it still starts interrupted, until {@link #clearStopMark}: a multi-pool clears its
     * sub-pools' marks only once every one has reopened, so the sub-pools that a reboot failing part-way closes
     * again are still stopping.
     */
    void reboot(boolean clearStopMark) {
        if (inTransitionOnCurrentThread()) {
            throw new IllegalStateException(
                    "reboot() called from inside this pool's shutdownNow (by its logger): it would reopen the pool"
                            + " halfway through");
        }
        stopLock.lock();
        try {
            lock.lock();
            try {
                if (state != CLOSED) {
                    return;
                }
                // first what may fail (startBackground allocates): a reboot out of memory leaves the pool closed,
                // and the next reboot tries again
                advanceClockLocked();
                startBackground();
                state = OPENED;
                if (clearStopMark) {
                    interruptTasks = false;
                }
            } finally {
                lock.unlock();
            }
        } finally {
            stopLock.unlock();
        }
    }

    /** Whether the current thread holds {@link #stopLock}: inside {@link #shutdownNow}, its logger. */
    @Override
    public boolean inTransitionOnCurrentThread() {
        return stopLock.isHeldByCurrentThread();
    }

    /** Clears the stop mark that {@code reboot(false)} kept. */
    void clearStopMark() {
        lock.lock();
        try {
            interruptTasks = false;
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

    @Override
    public boolean awaitTermination(long nanos) throws InterruptedException {
        return awaitTermination(nanos, runsNoTaskOfThisPool(Thread.currentThread()));
    }

    /**
     * Waits until the pool has terminated and, unless {@code ownThread}, every thread it let go (workers, purgers
     * and tickers of every generation) has ended. A thread of the pool that runs no task (the logger on the purger,
     * an ending worker's uncaught-exception handler) calls this with {@code ownThread}: it would wait for itself,
     * and two of them for each other. The threads are joined without the lock, then the pool is checked again,
     * since a reboot and a release meanwhile may have let more threads go.
     *
     * @return false if that did not happen within {@code nanos}
     */
    boolean awaitTermination(long nanos, boolean ownThread) throws InterruptedException {
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
                if (ownThread) {
                    return true;
                }
                Thread[] alive = exited.backgroundAlive();
                Worker worker = exited.oldestWorkerAlive();
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

    @Override
    public void awaitReleased(Duration timeout) throws TimeoutException {
        java.util.Objects.requireNonNull(timeout, "timeout");
        long deadline = System.nanoTime() + nanos(timeout);
        // from a worker thread: the others
        boolean done = keepingInterrupts(() -> awaitClose(deadline - System.nanoTime(), false));
        if (!done) {
            int n = running;
            throw new TimeoutException(name + " did not terminate within " + timeout + ": "
                    + (n > 0 ? n + " worker(s) still running" : "threads of the pool still ending"));
        }
    }

    /** A wait that an interrupt cuts short. */
    interface InterruptibleWait<T> {
        T await() throws InterruptedException;
    }

    /**
     * Waits with {@code wait} until it returns without an {@link InterruptedException}, starting it over after each;
     * an interrupt it took in is set again on every exit, also when a later pass throws (an
     * {@code OutOfMemoryError}): a wait that does not give up at an interrupt keeps it for the caller.
     */
    static <T> T keepingInterrupts(InterruptibleWait<T> wait) {
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return wait.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The threads of the purger and ticker running now (for the tests: they are virtual, so nothing lists them). */
    List<Thread> backgroundThreads() {
        lock.lock();
        try {
            return background.threads();
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
     * until every task of the pool that is not itself closing it has ended, since the caller's worker can only
     * end after the caller's task returns.
     *
     * @return false if that did not happen within {@code nanos}
     */
    @Override
    public boolean awaitClose(long nanos) throws InterruptedException {
        return awaitClose(nanos, true);
    }

    /**
     * {@link #awaitClose}; with {@code closes} false (a {@code releaseTimeout}), a task that was not closing the
     * pool counts as closing it only while it waits: if the wait fails, it no longer does.
     */
    boolean awaitClose(long nanos, boolean closes) throws InterruptedException {
        final long deadline = deadline(nanos);
        Worker self = workerOf(Thread.currentThread());
        if (self == null) {
            return awaitTermination(nanos);
        }
        return whileClosing(self, closes, () -> awaitOnlyClosers(deadline));
    }

    /**
     * Counts the task of {@code w}, the calling thread's worker, as closing the pool ({@link #closing}) and runs
     * {@code others}; returns what it returned. With {@code closes} false (a {@code releaseTimeout}), a task that
     * was not closing the pool stops counting as closing it if the wait failed.
     */
    boolean whileClosing(Worker w, boolean closes, InterruptibleWait<Boolean> others) throws InterruptedException {
        boolean keep = closing(w) || closes;
        boolean done = false;
        try {
            done = others.await();
            return done;
        } finally {
            if (!done && !keep) {
                notClosing(w);
            }
        }
    }

    /**
     * The live worker of this pool whose thread is {@code t} and whose run goes on, or null: a thread whose worker's
     * run has not begun (the factory's own code before it) or has ended (its uncaught-exception handler, say) runs
     * no task of the pool. Two live workers may share a thread for a moment, a running worker's and one whose start
     * is failing (a factory that handed out a thread already started): the one whose run goes on is the thread's.
     */
    Worker workerOf(Thread t) {
        for (Worker w : live) {
            if (w.thread() == t && w.runGoesOn()) { // a worker's own thread always sees its current thread field
                return w;
            }
        }
        return null;
    }

    /**
     * Counts the task that {@code w}, the calling thread's worker, runs as closing the pool until it ends
     * ({@link #closingTaskEnded}), so that other tasks closing the pool do not wait for it, nor it for them;
     * returns whether it was counted already.
     */
    boolean closing(Worker w) {
        lock.lock();
        try {
            if (w.closing) {
                return true;
            }
            w.closing = true;
            closers++;
            wakeTerminationWaitersLocked();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Undoes {@link #closing} for a task whose {@code releaseTimeout} timed out: it no longer closes the pool. */
    void notClosing(Worker w) {
        lock.lock();
        try {
            if (w.closing) {
                w.closing = false;
                closers--;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Called by a worker whose task had called {@link #closing}, once that task has ended. */
    void closingTaskEnded(Worker w) {
        lock.lock();
        try {
            w.closing = false;
            closers--;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every worker counted in {@code running} runs a task that is closing the pool or is idle on
     * the queue (only in a pool rebooted meanwhile): no other task runs, nor will while the pool stays closed.
     *
     * @param deadline a {@link System#nanoTime()} value
     * @return false if that did not happen before the deadline
     */
    boolean awaitOnlyClosers(long deadline) throws InterruptedException {
        lock.lock();
        try {
            closeWaits++;
            try {
                while (!onlyClosersRunTakingOutTheSpinnerLocked()) {
                    long rem = deadline - System.nanoTime();
                    if (rem <= 0L) {
                        return false;
                    }
                    termination.await(rem, TimeUnit.NANOSECONDS);
                }
                return true;
            } finally {
                closeWaits--;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether only closing tasks run in every one of {@code pools} at one moment (a multi-pool's sub-pools, whose
     * task may close the whole): holds all their locks at once, taken in the order given (the multi-pool's index
     * order, as its counts take them), so that no task starts in one already looked at; a worker spinning in the
     * lane is taken out as {@link #awaitOnlyClosers} does. A worker takes a task only under its pool's lock or from
     * the lane, where a spinning worker counts as running one.
     */
    static boolean onlyClosersRunInEvery(PoolCore[] pools) {
        int locked = 0;
        try {
            for (PoolCore p : pools) {
                p.lock.lock();
                locked++;
                if (!p.onlyClosersRunTakingOutTheSpinnerLocked()) {
                    return false;
                }
            }
            return true;
        } finally {
            while (locked > 0) {
                pools[--locked].lock.unlock();
            }
        }
    }

    /**
     * {@link #onlyClosersRunLocked}, once more after taking a worker spinning in the lane out of it (a worker idle in
     * the lane runs no task: it may have been the one waited for, or withdrawn meanwhile); lock held.
     */
    private boolean onlyClosersRunTakingOutTheSpinnerLocked() {
        if (onlyClosersRunLocked()) {
            return true;
        }
        lane.takeOutSpinner();
        return onlyClosersRunLocked();
    }

    /**
     * Whether every counted worker either is idle (on the queue, or withdrawing from the lane to it) or runs a
     * task closing the pool; lock held. A closed pool has no idle worker but one withdrawing to retire, so there
     * it means that only closers run; a pool rebooted while a task closes it keeps the idle workers of the tasks
     * that ended since. A worker spinning in the lane is not counted idle: a submitter that found the pool open
     * may still hand it a task, until it withdraws ({@link #awaitOnlyClosers} takes it out of the lane).
     */
    private boolean onlyClosersRunLocked() {
        return running - workers.len() - (lane.isWithdrawing(this) ? 1 : 0) <= closers;
    }
}
