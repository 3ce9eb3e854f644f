package io.ants4j.pool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker: a thread that runs payloads handed to it one at a time (ants' {@code goWorker} and
 * {@code goWorkerWithFunc}: what the payload means is the {@link PoolCore}'s business).
 *
 * <p>Implementation notes. The worker's "channel" is a single slot, {@link #slot}, holding {@link #EMPTY},
 * {@link #PARKED}, a payload (any object, {@code null} included), or {@link #STOP}. Ownership makes a one-slot
 * hand-off enough: a submitter writes a payload only into a worker it has just {@linkplain WorkerQueue#detach()
 * detached} from the idle queue under the pool lock, and the purger or {@code release} writes {@code STOP} only
 * into a worker it has just removed from that queue, so at most one writer ever targets a slot that the
 * worker has emptied.
 *
 * <p>Waking a parked thread is the expensive part of a hand-off (for a virtual thread, a submission to its
 * scheduler), so it is paid only when the worker really sleeps: an idle worker announces that it is about to
 * park by CASing the slot from {@code EMPTY} to {@code PARKED}. The writer swaps its payload in with one {@code getAndSet} and unparks the
 * thread only if it took {@code PARKED} out: a CAS and a swap on the same word cannot both miss each other,
 * so either the worker sees the payload before it parks, or the writer sees {@code PARKED} and unparks it. A
 * park that returns early (a stale permit, an interrupt) just re-reads the slot. The swap is a volatile
 * read-modify-write and the worker reads with acquire, so everything the submitter did before handing a
 * payload over happens-before the worker runs it, and a hand-off never allocates.
 *
 * <p>Life cycle: a worker is made with its first payload already in the slot and lives as long as one thread:
 * {@link #newThread} asks the pool's factory for it and {@link #start} starts it. A factory may hand back a
 * thread it has started itself (or that something else runs), so {@link #run} first passes an admission,
 * {@link #admission}: {@code start} sets it {@code ADMITTED} just before {@link Thread#start()}, and
 * {@code run} goes on only if it turns it from {@code ADMITTED} to {@code RUNNING}; a run that finds it
 * anything else (a thread the factory started before the pool admitted the worker, a second run) returns at
 * once without touching the pool. If {@code Thread.start()} throws (it does on a started thread), {@code start}
 * turns {@code ADMITTED} into {@code REVOKED}: when that CAS wins, the worker never ran and never will, and the
 * start failed as a factory failure does; when it loses, the worker is already running in the thread, which is
 * then simply its thread, and the start succeeded. The two CASes on one word cannot both win. The release store
 * of {@code ADMITTED} and the volatile CAS that reads it give a thread the factory started the worker's fields
 * (its first payload, its thread), which {@code Thread.start()}'s happens-before does not cover there. The
 * thread loops run, spin
 * for a while in the pool's {@linkplain SpinningWorkers fast lane} (taking payloads there as long as they keep
 * coming), {@link PoolCore#revertWorker revert} (take the payload of the longest waiting submitter, or go
 * back onto the idle queue and wait for the next payload; a worker that withdrew from the lane leaves it in
 * that revert, under the pool lock); it ends on {@code STOP}, which revert also returns
 * when it refuses the worker (pool closed or above capacity). A worker that leaves the loop while
 * hot in the lane (only an unexpected throwable can make it) gives the lane back first. Its last-used stamp
 * {@link #lastUsed} and its link {@link #nextExited} are written and read only under the pool lock.
 */
final class Worker implements Runnable {

    /** The slot is empty: the worker waits. */
    static final Object EMPTY = new Object() {
        @Override
        public String toString() {
            return "EMPTY";
        }
    };

    /** The slot is empty and the worker thread parks: a writer must unpark it. */
    static final Object PARKED = new Object() {
        @Override
        public String toString() {
            return "PARKED";
        }
    };

    /** Tells the worker to end (ants' {@code finish()} sending {@code nil}). */
    static final Object STOP = new Object() {
        @Override
        public String toString() {
            return "STOP";
        }
    };

    /** {@link #admission}: not yet admitted; a run that begins now is not the pool's and returns at once. */
    private static final int NEW = 0;
    /** {@link #admission}: the pool is starting the thread; the first run to begin is the worker's. */
    private static final int ADMITTED = 1;
    /** {@link #admission}: the worker runs, or ran, in its thread. */
    private static final int RUNNING = 2;
    /** {@link #admission}: the thread could not be started; the worker never runs. */
    private static final int REVOKED = 3;

    /** {@link #runState}: the run has not begun, goes on, or has ended. */
    private static final int RUN_NOT_BEGUN = 0;
    private static final int RUN_GOES_ON = 1;
    private static final int RUN_ENDED = 2;

    private static final VarHandle SLOT;
    private static final VarHandle ADMISSION;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SLOT = l.findVarHandle(Worker.class, "slot", Object.class);
            ADMISSION = l.findVarHandle(Worker.class, "admission", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PoolCore pool;

    /** The one-slot channel; accessed through {@link #SLOT}. */
    @SuppressWarnings("unused")
    private Object slot = EMPTY;

    /**
     * {@code RUN_NOT_BEGUN}, {@code RUN_GOES_ON} once {@link #run} has begun, {@code RUN_ENDED} once it has ended (the
     * worker exits); guarded by {@link #runLock} (see {@link #interrupt}).
     */
    private int runState = RUN_NOT_BEGUN;
    /**
     * The monitor of {@link #runState}: not this worker's own, which the thread factory may hold, being handed the
     * worker as its runnable.
     */
    private final Object runLock = new Object();
    /** {@code NEW}, {@code ADMITTED}, {@code RUNNING} or {@code REVOKED}; accessed through {@link #ADMISSION}. */
    @SuppressWarnings("unused")
    private int admission = NEW;

    /**
     * The worker's thread; written before the thread starts and before the worker is published to the pool,
     * read by submitters after a detach and by {@code shutdownNow}.
     */
    private Thread thread;

    /** When the worker last went idle, in cached {@code nanoTime}; guarded by the pool lock. */
    long lastUsed;

    /** The next worker in the pool's list of exited workers; guarded by the pool lock. */
    Worker nextExited;

    /**
     * Whether the current task has called {@code close()} on the pool ({@link PoolCore#closing}); written under
     * the pool lock by the worker's own thread, the only thread that reads it.
     */
    boolean closing;

    /** A worker whose thread will run {@code first} before anything else. */
    Worker(PoolCore pool, Object first) {
        this.pool = pool;
        this.slot = first;
    }

    /**
     * Makes this worker's thread; whatever the factory throws propagates.
     *
     * @return false if the factory returned {@code null}
     */
    boolean newThread(ThreadFactory factory) {
        Thread t = factory.newThread(this);
        if (t == null) {
            return false;
        }
        thread = t;
        return true;
    }

    /**
     * Starts the thread made by {@link #newThread} and admits this worker to run in it. Returns normally when
     * the worker runs in that thread, or will: also when {@link Thread#start()} threw but the worker had
     * already begun to run in it (a factory that started the thread itself, after the admission).
     *
     * @throws IllegalThreadStateException if the thread had been started (by the factory, or by whatever it
     *                                     handed the thread to) and the worker did not run in it: it never will
     *                                     now; whatever else {@code Thread.start()} throws propagates likewise
     */
    void start() {
        admit();
        try {
            thread.start();
        } catch (Throwable t) {
            if (revoke()) {
                throw t;
            }
            // the worker already runs in the thread: it is the worker's thread, and the start succeeded
        }
    }

    /** Lets the first run in {@link #thread} go on; publishes the first payload and the thread to a started thread. */
    private void admit() {
        ADMISSION.setRelease(this, ADMITTED);
    }

    /**
     * Runs this worker, made with {@link #STOP} as its first payload, in the calling thread as its own thread would
     * run it: its admission, its first take and its exit, which touch no count of the pool. For
     * {@link PoolCore}'s linking of the call sites a worker's thread runs first.
     */
    void runInCallingThread() {
        thread = Thread.currentThread();
        admit();
        run();
    }

    /** Takes back an admission the worker has not used; whether it had not, so the worker never runs. */
    boolean revoke() {
        return ADMISSION.compareAndSet(this, ADMITTED, REVOKED);
    }

    /** Hands a payload to this (detached, idle) worker and wakes it. */
    void hand(Object payload) {
        if (SLOT.getAndSet(this, payload) == PARKED) {
            LockSupport.unpark(thread);
        }
    }

    /**
     * Unparks the worker thread again, for a submitter whose {@link #hand} failed after the payload was in the
     * slot (an unpark that ran out of stack): a spurious unpark only makes the worker re-read its slot.
     */
    void wake() {
        LockSupport.unpark(thread);
    }

    /**
     * Tells this (removed, idle) worker to end (ants' {@code finish()}). Throws nothing: the stop is in the slot
     * before the unpark, and a thread the JDK cannot unpark is lost ({@link LostThreads}).
     */
    void finish() {
        if (SLOT.getAndSet(this, STOP) == PARKED) {
            LostThreads.unpark(thread);
        }
    }

    /**
     * Interrupts the worker thread (for {@code shutdownNow}) while the worker's run goes on: before it begins or
     * after it ends the thread runs no task of the pool (a factory's thread may run code of its own), and the
     * interrupt is not for it (a run that begins after the pool's stop mark was set starts its task interrupted
     * all the same). The check and the interrupt hold {@link #runLock}, which the run's beginning and end take
     * too.
     */
    void interrupt() {
        Thread t = thread;
        if (t != null) {
            synchronized (runLock) {
                if (runState == RUN_GOES_ON) {
                    t.interrupt();
                }
            }
        }
    }

    /** Whether the worker's run goes on: it has begun in its thread and not ended. */
    boolean runGoesOn() {
        synchronized (runLock) {
            return runState == RUN_GOES_ON;
        }
    }

    Thread thread() {
        return thread;
    }

    /**
     * The worker loop, run once by the thread the pool started; any other run (in a thread the factory started
     * before the pool admitted the worker, in a thread other than the one the factory returned, after a failed
     * start, or a second one) returns at once and leaves the pool alone.
     */
    @Override
    public void run() {
        // The thread first: the pool wakes, interrupts and joins the thread the factory returned, so the
        // worker runs in that one only (a factory may also run the runnable in another thread of its own).
        if (Thread.currentThread() != thread || !ADMISSION.compareAndSet(this, ADMITTED, RUNNING)) {
            return;
        }
        synchronized (runLock) {
            runState = RUN_GOES_ON;
        }
        boolean counted = true;
        Object fromLane = SpinningWorkers.NONE;
        try {
            Object payload = take();
            while (payload != STOP) {
                pool.runPayload(payload);
                if (closing) {
                    pool.closingTaskEnded(this);
                }
                payload = pool.nextFromLane(fromLane);
                if (payload == SpinningWorkers.NONE || payload == SpinningWorkers.WITHDRAWING) {
                    fromLane = SpinningWorkers.NONE; // revert frees a withdrawing worker's lane on every path
                    // a waiting submitter's payload, NONE, or STOP
                    payload = pool.revertWorker(this, payload == SpinningWorkers.WITHDRAWING);
                    if (payload == SpinningWorkers.NONE) {
                        payload = take();
                    }
                } else {
                    fromLane = payload;
                }
            }
            counted = false; // whoever sent STOP, revert included, gave back the worker's count
        } finally {
            synchronized (runLock) { // waits out an interrupt under way: none reaches the thread after this
                runState = RUN_ENDED;
            }
            if (fromLane != SpinningWorkers.NONE) {
                pool.leaveLane();
            }
            pool.workerExited(this, counted);
        }
    }

    /** Waits for the next payload and empties the slot. Interrupts do not end the wait: only STOP does. */
    private Object take() {
        SLOT.compareAndSet(this, EMPTY, PARKED); // fails if a payload is there: the loop then takes it at once
        Object v;
        while ((v = SLOT.getAcquire(this)) == PARKED) {
            LockSupport.park(this);
            // an interrupt aimed at a task that has already finished must not turn park into a busy loop
            Thread.interrupted();
        }
        return consume(v);
    }

    private Object consume(Object v) {
        SLOT.setOpaque(this, EMPTY);
        return v;
    }

    @Override
    public String toString() {
        Thread t = thread;
        return "Worker[" + (t == null ? "unstarted" : t.getName()) + ']';
    }
}
