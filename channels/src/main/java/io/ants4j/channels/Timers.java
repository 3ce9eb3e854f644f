package io.ants4j.channels;

import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The timers of {@link Chan#after} and {@link Ticker}: one daemon thread sends their values, started by a schedule
 * when none runs and ending once it has had no timer for {@link #IDLE_NANOS}.
 */
final class Timers {
    /*
     * Implementation notes. Go's timer heap, on one daemon platform thread: the timers in a binary heap ordered by
     * deadline, under one lock. The thread parks (LockSupport.parkNanos, outside the lock, this instance its blocker)
     * until the earliest deadline (a schedule that makes a new earliest one unparks it; an unpark between its unlock
     * and its park leaves a permit, so none is lost), then takes the timers due out of the heap (a ticker's goes back
     * with its next deadline) and, with the lock let go, offers Instant.now() into each one's channel of capacity 1,
     * which never blocks. A ticker's next deadline is the first multiple of its period after now: ticks missed by a
     * slow thread are dropped, so a ticker of a tiny period cannot hold the deadlines of the others back.
     *
     * The timers' lock is never held while a channel's lock is taken (by the thread, a stop or a reset), so a channel
     * whose lock is held for long (its holder preempted, or a select queued on another channel's lock) holds up no
     * schedule and no other timer. A tick that finds its channel full is dropped before the lock is tried (as Go's
     * non-blocking send looks at full() first), unless what fills it is the ticker's last tick and that tick's timer is
     * stopped: that stale tick, which a stop or reset has yet to take out, would not be in Go's channel (Go's Reset
     * drains it before a send can look), and the send takes it out first (below). The last tick and its timer are read
     * without the channel's lock, and so is the value first in the buffer (a hint): a tick that may be stale and first
     * goes the lock path, where the send drops it if the channel is full of anything but the stale tick (a tick kept
     * pending for a held lock is looked at again at each try). No tick of a ticker is dropped without the lock while
     * a stop or reset of it is under way, or if one started while the thread looked (LastTick's counts of those
     * started and ended, read before and after): as Go's timer cannot fire during its Reset, which drains the
     * channel first, a tick that falls due while a reset waits for the channel's lock to take the stale tick out
     * waits for the lock too, and is then sent into the channel the reset emptied (reviews 75 and 76: dropped, it was
     * the new period's first tick, lost; a receive that takes the live tick out meanwhile changes nothing, so a
     * preempted receiver gets no burst).
     *
     * The thread takes a channel's lock only if it is free within a short retry, else it keeps the tick pending and
     * tries it again after RETRY_NANOS, then twice as long after each miss (up to MAX_RETRY_NANOS), the other timers
     * firing meanwhile. The back-off is each pending tick's own, so a lock held for long does not slow the retries of a
     * tick whose lock was busy for a moment; ticks whose next tries are close are tried together, so many ticks
     * waiting for held locks cost few wake-ups. A pending tick whose timer is stopped, or whose channel is closed or
     * collected, is dropped without the lock.
     *
     * Stop and reset (Go 1.23: no stale tick after they return). A tick is sent, under its channel's lock, only if its
     * timer is not stopped. A stop marks the timer stopped under the timers' lock, then takes out a tick of the ticker
     * still first in the channel, under the channel's lock (the ticker's LastTick, written under that lock with each
     * tick sent); a reset does the same for the timer it replaces, and so does the new timer's first tick, should it
     * come before the reset's own look. So a stop that has returned is followed by no tick and leaves none. As Go's
     * timerchandrain, the stop takes the channel's lock only if the channel holds a value or a tick of the ticker is
     * being sent: the thread writes the ticker's sending flag (in its LastTick, shared by its timers) under the
     * channel's lock before it reads the timer's stopped, and clears it once done; the stop writes stopped before it
     * reads sending and then the channel's count (all volatile: one of the two sees the other's write, and a send
     * done is seen in the count). A stop overlapping a reset sees a send of the timer the reset replaced too: that
     * timer's stopped was written before the stop took the timers' lock. A tick is known by identity, so a receiver
     * that sends the ticker's last tick back into the channel has it taken out like the tick it is.
     *
     * A timer refers to its channel weakly (it is a WeakReference): a channel that nobody holds any more is collected
     * and its timer dropped from the heap, at the next schedule or wake-up of the thread (Go 1.23 collects
     * unreferenced timers). A Ticker holds its channel, so a ticker is collected with it.
     *
     * The thread ends when it has nothing to do: finding the heap empty, it parks for IDLE_NANOS (1 s) and if, back
     * under the lock once that time has passed, the heap is still empty, it clears the field thread and returns.
     * That decision and every schedule are made under the lock, so there is no race between them: a schedule made
     * before it put a timer in the heap (and unparked the idle thread, its timer being the earliest), which the
     * thread sees, and stays; a schedule made after it finds thread null and starts another (the thread that decided
     * to exit touches nothing once it has let go of the lock). The thread may outlive its decision for a moment, with
     * no timer of its own. A removal that empties the heap (a stop, a collected channel found) unparks the thread,
     * so the idle time starts then, not at the removed timer's deadline. (A park, not a wait on a Condition of the
     * lock: Fray 0.9.2, which explores this class, turns a Condition's timed wait into an untimed one underneath, and
     * a park allocates nothing where the condition's wait made a node.) The thread parks
     * no longer than IDLE_NANOS at a time and looks at the reference queue each time it wakes, so the timer of a
     * channel collected while far from due is dropped within about that time of its collection. Each time it finds
     * the earliest timer not yet due, it looks for a timer whose channel is neither collected nor closed (by its user:
     * ours are not receive-only, as Go's are), stopping at the first, and if there is none it drops them all: no
     * timer that can never send keeps the thread. A JVM, or a test run such as
     * Fray's that needs every thread it started to end, is left with no thread of ours once no timer is pending.
     *
     * Starting the thread: a schedule that finds none at work makes one under the lock, names it in thread, lets go
     * of the lock, starts it, and takes the lock again to put its timer in (as ThreadPoolExecutor starts its workers
     * outside its lock), so a Thread.start that takes long (seconds, seen after 10,000 platform threads had ended)
     * holds no other schedule, stop or reset back. A thread not yet started counts as at work: a schedule meanwhile
     * makes no other and puts its timer in, which the thread sees once it runs (an unpark before the start is lost,
     * and not needed: the thread looks at the heap first). A thread that ended idle between the start and the second
     * hold is found so there, and another is made and started the same way.
     *
     * Failures: the class's initialization makes nothing; the instance (lock, heap, thread) is made by the first
     * schedule, and made again by the next if that failed. A schedule makes what it needs (the timer, a larger heap,
     * the thread if none is at work) and starts the thread before it changes anything, so an OutOfMemoryError leaves
     * the timers as they were. A start that fails (no memory for a native thread) marks the thread failedStart (a
     * volatile write, which cannot fail); if that thread is still the one named (schedules made meanwhile relied on its
     * start and put their timers in), the failing schedule makes another and starts it, up to STARTS in all. If none
     * starts, it throws the first error, having changed nothing, and the next schedule makes another thread; a schedule
     * that relied on the last start waits for it (as a task queued in a ThreadPoolExecutor while a worker's start fails
     * waits for the next execute). An error in the thread's loop (no memory for the Instant, or for the lock's queue
     * node) leaves the due timer in the heap: the thread backs off a millisecond and tries again, so no timer is lost
     * to it (a timer taken out of the heap is linked as pending first, and a pending tick is sent, dropped or kept
     * without an allocation). That retry is for a VirtualMachineError (out of memory, out of stack) only: any other
     * throwable (none is thrown by this code; a defect, or a tool that ends the threads it runs, as Fray ends each
     * thread of an iteration that failed with its TargetTerminateException, an Error) ends the thread, which a retry
     * for ever would keep alive. Its field thread then still names it, and the next schedule, seeing it no longer
     * alive, starts another. A channel its user closes (ours are not receive-only, as Go's are) drops its timer, also
     * when closed between the thread's look at it and its offer: that is no error, and holds no other timer back.
     */
    private static final long BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * How soon the thread first tries again a tick whose channel's lock was held; each further miss of that tick
     * doubles its wait, up to {@link #MAX_RETRY_NANOS}, so a lock held for long costs little CPU.
     */
    private static final long RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long MAX_RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(6_400);
    /** How many threads a schedule tries to start, one after another, when a start fails (see {@link #start}). */
    private static final int STARTS = 3;
    /** How long the thread waits with no timer in the heap before it ends; the next schedule starts another. */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The farthest deadline kept: beyond it the nanoTime arithmetic would wrap (146 years). */
    private static final long MAX_DELAY = Long.MAX_VALUE / 2;
    private static volatile Timers instance;
    /**
     * A test's start of the timer thread, slow or failing; null: {@link Thread#start} (nothing is made when the class
     * initializes).
     */
    static volatile Consumer<Thread> starter;

    /** A ChanLock for its unlock, which does not throw once the lock is free (see its notes). */
    private final ReentrantLock lock = new ChanLock();
    private final ReferenceQueue<Chan<Instant>> collected = new ReferenceQueue<>();
    private Timer[] heap = new Timer[16];
    private int size;
    /**
     * The thread, written under the lock: null when none runs (never made, or it ended idle); a thread a schedule
     * made is named here before that schedule starts it. Volatile only for {@link #thread()}, which tests call while
     * they hold a lock the thread may be waiting for under ours.
     */
    private volatile Thread thread;
    /** The last thread whose start failed: a schedule makes another in its place (see the class notes). */
    private volatile Thread failedStart;
    /** The thread's, under the lock: whether it found the heap empty last time, and until when it then waits. */
    private boolean idle;
    private long idleUntil;
    /**
     * The thread's only: the timers taken out of the heap whose tick waits for their channel's lock, linked through
     * {@link Timer#nextPending}. A thread started after one that ended sees them: a schedule makes it only once the
     * other is no longer alive (isAlive, which orders the ended thread's writes before), or has decided to end.
     */
    private Timer pending;
    /** The thread's: when the first of the pending ticks tried before is due to be tried again. */
    private long nextRetryPass;

    private Timers() {
    }

    /**
     * A timer: its channel (weakly), deadline and period (0: fires once), its place in the heap (-1: none), its
     * ticker's record of the last tick sent (null for {@link Chan#after}), and the thread's pending tick.
     */
    static final class Timer extends WeakReference<Chan<Instant>> {
        final long period;
        final LastTick lastTick;
        long when;
        int index = -1;
        /** Set by a stop or reset under the timers' lock, read under the channel's: no tick of it is sent after. */
        volatile boolean stopped;
        /** The thread's: whether the pending tick already missed the channel's lock once (it then tries, not spins). */
        boolean retried;
        /** The thread's: how long it waited since the pending tick's last miss, and when it tries again. */
        long retryNanos;
        long retryAt;
        /**
         * The thread's: the tick waiting for the channel's lock (null: none), and the next timer so waiting. Volatile
         * only for tests, which wait until a tick is pending while they hold its channel's lock.
         */
        volatile Instant pendingTick;
        Timer nextPending;

        Timer(Chan<Instant> chan, ReferenceQueue<Chan<Instant>> collected, long when, long period, LastTick lastTick) {
            super(chan, collected);
            this.when = when;
            this.period = period;
            this.lastTick = lastTick;
        }
    }

    /**
     * A ticker's last tick sent and the timer that sent it, guarded by the ticker's channel's lock (the thread also
     * reads both without it: see the class notes): a stop or reset takes that tick out of the channel if it is still
     * there and its timer stopped. Shared by the ticker's timers, it refers to no channel, so a timer keeps no ticker
     * reachable.
     */
    static final class LastTick {
        volatile Instant tick;
        volatile Timer by;
        /**
         * The stops and resets of the ticker started and ended (each raised by one, atomically): while they differ,
         * or if {@code started} moved while the thread looked at the channel, the thread drops no tick of the
         * ticker without the channel's lock (see the class notes).
         */
        volatile int started;
        volatile int ended;
        private static final VarHandle STARTED;
        private static final VarHandle ENDED;

        static {
            try {
                java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.lookup();
                STARTED = lookup.findVarHandle(LastTick.class, "started", int.class);
                ENDED = lookup.findVarHandle(LastTick.class, "ended", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
            // a VarHandle call site's first run allocates: run here, a change's end cannot fail to be counted later
            LastTick linked = new LastTick();
            linked.changeStarts();
            linked.changeEnds();
        }

        /** Counts a stop or reset of the ticker started (see {@link #started}). */
        void changeStarts() {
            STARTED.getAndAdd(this, 1);
        }

        /** Counts a stop or reset of the ticker ended. */
        void changeEnds() {
            ENDED.getAndAdd(this, 1);
        }
        /**
         * Whether the thread is sending a tick of one of the ticker's timers, under the channel's lock: written before
         * it reads the timer's {@link Timer#stopped}, read by a stop or reset after it wrote that of the timer it
         * stopped (see {@link Chan#takeStaleTick}). The ticker's, not a timer's: a stop that overlaps a reset must see
         * a send of the timer the reset replaced, which it did not stop itself.
         */
        volatile boolean sending;
    }

    private static Timers timers() {
        Timers t = instance;
        if (t == null) {
            synchronized (Timers.class) { // no wait inside: it only makes the instance
                t = instance;
                if (t == null) {
                    t = new Timers();
                    instance = t;
                }
            }
        }
        return t;
    }

    /** Sends the time on {@code chan} once {@code delayNanos} have passed; returns the timer. */
    static Timer after(Chan<Instant> chan, long delayNanos) {
        return timers().schedule(chan, delayNanos, 0L, null, null);
    }

    /** Sends the time on {@code chan} every {@code periodNanos}, the first one period from now. */
    static Timer tick(Chan<Instant> chan, long periodNanos, LastTick lastTick) {
        return timers().schedule(chan, periodNanos, periodNanos, lastTick, null);
    }

    /**
     * Stops {@code ticker}'s timer and starts one of {@code periodNanos} on its channel in its place; a tick the old
     * timer left in the channel is taken out, and none of its ticks is sent after this returns.
     */
    static void reset(Ticker ticker, long periodNanos) {
        LastTick last = ticker.lastTick;
        last.changeStarts();
        try {
            timers().schedule(ticker.chan, periodNanos, periodNanos, last, ticker);
            ticker.chan.takeStaleTick(last);
        } finally {
            last.changeEnds();
        }
    }

    /** Stops {@code ticker}'s timer; a tick it left in the channel is taken out. No tick is sent after this returns. */
    static void stop(Ticker ticker) {
        LastTick last = ticker.lastTick;
        last.changeStarts();
        try {
            Timers t = timers();
            t.lock.lock();
            try {
                t.stopLocked(ticker.timer);
            } finally {
                t.lock.unlock();
            }
            ticker.chan.takeStaleTick(last);
        } finally {
            last.changeEnds();
        }
    }

    /** The number of timers in the heap (for tests). */
    static int queued() {
        Timers t = instance;
        if (t == null) {
            return 0;
        }
        t.lock.lock();
        try {
            t.purgeCollected();
            return t.size;
        } finally {
            t.lock.unlock();
        }
    }

    /** The timer thread, or null if none runs now (for tests: it ends once idle for {@link #IDLE_NANOS}). */
    static Thread thread() {
        Timers t = instance;
        return t == null ? null : t.thread;
    }

    /** The lock under which timers are taken out of the heap to fire, and stopped (for tests holding a firing back). */
    static ReentrantLock lock() {
        return timers().lock;
    }

    /**
     * Makes a timer of {@code chan} and puts it in the heap; if {@code ticker} is given, the timer replaces the
     * ticker's, stopped (the caller then takes its tick out of the channel). Everything is made before anything
     * changes.
     */
    private Timer schedule(Chan<Instant> chan, long delayNanos, long periodNanos, LastTick lastTick, Ticker ticker) {
        long period = Math.min(periodNanos, MAX_DELAY);
        Timer timer = new Timer(chan, collected, System.nanoTime() + Math.min(Math.max(delayNanos, 0L), MAX_DELAY),
                period, lastTick);
        for (Thread made = null; ; ) {
            if (made != null) {
                start(made); // the lock let go, nothing changed yet: a start that fails leaves the timers as they were
                made = null;
            }
            lock.lock();
            try {
                if (!runs(thread)) {
                    made = newThread();
                    thread = made;
                    continue; // start it unlocked, then come back
                }
                purgeCollected();
                if (size == heap.length) {
                    Timer[] grown = new Timer[size * 2];
                    System.arraycopy(heap, 0, grown, 0, size);
                    heap = grown;
                }
                if (ticker != null) {
                    stopLocked(ticker.timer);
                    ticker.timer = timer;
                }
                timer.index = size;
                heap[size++] = timer;
                siftUp(timer.index);
                if (timer.index == 0) {
                    LockSupport.unpark(thread); // a new earliest deadline (or the end of the idle time)
                }
                return timer;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Starts {@code made}, unlocked. A start that fails marks it failed, so that the next schedule makes another,
     * and, while {@code made} is still the thread (schedules made meanwhile relied on its start), makes and starts
     * another in its place, up to {@link #STARTS} in all; then it throws the first error. A schedule that made a
     * thread after the failure was marked relies on that one: this returns.
     */
    private void start(Thread made) {
        Throwable first = null; // a RuntimeException or an Error: what a start throws
        for (int tries = 1; ; tries++) {
            try {
                Consumer<Thread> test = starter;
                if (test == null) {
                    made.start();
                } else {
                    test.accept(made);
                }
                return;
            } catch (RuntimeException | Error e) {
                failedStart = made; // a volatile write: it cannot fail
                if (first == null) {
                    first = e;
                }
            }
            Thread failed = made;
            made = null;
            try {
                lock.lock();
                try {
                    if (thread != failed) {
                        return; // another schedule made one since
                    }
                    if (tries < STARTS) {
                        made = newThread();
                        thread = made;
                    }
                } finally {
                    lock.unlock();
                }
            } catch (RuntimeException | Error e) {
                // no memory for the lock's queue node or the thread (made is still null): the next schedule makes one
            }
            if (made == null) {
                if (first instanceof RuntimeException r) {
                    throw r;
                }
                throw (Error) first;
            }
        }
    }

    /**
     * Under the lock: whether {@code t} is the thread at work, or about to be: alive, or not yet started by the
     * schedule that made it. Not when it has ended, nor when its start failed.
     */
    private boolean runs(Thread t) {
        return t != null && t != failedStart && (t.isAlive() || t.getState() == Thread.State.NEW);
    }

    /**
     * Makes the thread, unstarted: a daemon that keeps nothing of the thread that happens to make it (no inheritable
     * thread-local values, no context class loader, not its thread group, which it would keep reachable, nor its
     * priority), since it may live as long as the JVM (while timers are pending): it goes in the root thread group,
     * at normal priority.
     */
    private Thread newThread() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread t = Thread.ofPlatform().group(root).priority(Thread.NORM_PRIORITY).daemon()
                .name("ants4j-channels-timer").inheritInheritableThreadLocals(false).unstarted(this::run);
        t.setContextClassLoader(null);
        return t;
    }

    /**
     * The thread's loop: it ends when idle (see {@link #fireOrWait}); a VirtualMachineError (no memory, no stack)
     * leaves every timer in place and is tried again; any other throwable ends the thread (see the class notes).
     */
    private void run() {
        for (;;) {
            try {
                long retryIn = sendPending();
                long park;
                lock.lock();
                try {
                    park = fireOrWait();
                } finally {
                    lock.unlock();
                }
                if (park < 0L) {
                    return; // thread was cleared under the lock: the next schedule starts another
                }
                if (retryIn >= 0L && park > retryIn) {
                    park = retryIn;
                }
                if (park > 0L) {
                    LockSupport.parkNanos(this, park); // an unpark since the unlock returns at once
                    Thread.interrupted(); // nobody should interrupt us; if someone did, a park would return at once
                }
            } catch (VirtualMachineError e) { // no memory for the Instant or the lock's queue node: try again
                backOff();
            }
        }
    }

    /** Waits a millisecond; on JDK 25 the park itself can run out of memory, which then cuts the wait short. */
    private static void backOff() {
        try {
            LockSupport.parkNanos(BACKOFF_NANOS);
        } catch (Throwable e) {
            Thread.onSpinWait();
        }
    }

    /**
     * Offers the pending ticks whose time to try has come, unlocked; returns how long until the next one's (-1: none
     * is pending). A tick is gone once sent, or dropped (its channel full, looked at before the lock as Go's
     * non-blocking send does, or closed or collected, its timer stopped); one whose channel's lock was held tries
     * again after its own back-off (see {@link #RETRY_NANOS}), and so does every tick whose next try is a quarter of
     * its back-off away or less, so that the ticks waiting for held locks come to be tried together. The ticks taken
     * out of the heap since the last pass are linked first: when no retry is due, the pass stops at the first tick
     * that was tried before, so a firing costs nothing for each tick waiting for a held lock.
     */
    private long sendPending() {
        if (pending == null) {
            return -1L;
        }
        long now = System.nanoTime();
        boolean retryDue = now - nextRetryPass >= 0L;
        long next = Long.MAX_VALUE; // the earliest time a tick kept is due to be tried
        Timer previous = null;
        for (Timer t = pending; t != null; ) {
            if (t.retried && !retryDue) {
                next = Math.min(next, nextRetryPass); // the rest were tried before, and none is due
                break;
            }
            Timer following = t.nextPending;
            Chan<Instant> chan = t.get();
            boolean dropped = chan == null || t.stopped || chan.isClosed() || fullOfNoStaleTick(t, chan);
            if (!dropped && t.retried && t.retryAt - now > t.retryNanos >> 2) {
                next = Math.min(next, t.retryAt); // not its time yet
                previous = t;
            } else if (dropped || chan.offerTick(t, t.pendingTick, !t.retried)) {
                if (previous == null) {
                    pending = following;
                } else {
                    previous.nextPending = following;
                }
                t.pendingTick = null;
                t.nextPending = null;
                t.retried = false;
            } else {
                t.retryNanos = t.retried ? Math.min(t.retryNanos * 2, MAX_RETRY_NANOS) : RETRY_NANOS;
                t.retried = true;
                t.retryAt = now + t.retryNanos;
                next = Math.min(next, t.retryAt);
                previous = t;
            }
            t = following;
        }
        if (pending == null) {
            return -1L;
        }
        nextRetryPass = next;
        return Math.max(next - now, 0L);
    }

    /**
     * Whether {@code t}'s tick would find its channel full of values other than a stale tick of its ticker (see the
     * class notes): then it is dropped without the lock.
     */
    private static boolean fullOfNoStaleTick(Timer t, Chan<Instant> chan) {
        LastTick last = t.lastTick;
        if (last == null) {
            return chan.len() == chan.cap();
        }
        int ended = last.ended;
        int started = last.started;
        if (started != ended || chan.len() != chan.cap()) {
            return false; // a stop or reset under way: the lock decides, once it has taken the stale tick out
        }
        Instant stale = last.tick;
        Timer lastBy = last.by;
        if (stale != null && lastBy != null && lastBy.stopped && chan.mayHoldFirst(stale)) {
            return false; // the stale tick fills the channel: the lock path takes it out first
        }
        VarHandle.acquireFence(); // the reads above before the look at started (as StampedLock.validate)
        return last.started == started;
    }

    /**
     * Under the lock: takes the earliest timer out of the heap if it is due, its tick pending (and returns 0: send it
     * and look again), else returns how long to park until it is. With no timer (none pending either) it parks up to
     * {@link #IDLE_NANOS} from when it found the heap empty; if the heap is still empty once that time has passed, it
     * clears {@code thread} and returns -1: the thread ends, and a schedule from now on starts another.
     */
    private long fireOrWait() {
        purgeCollected();
        long now = System.nanoTime();
        if (size == 0 && pending != null) {
            return IDLE_NANOS; // the run loop parks until the earliest retry of a pending tick
        }
        if (size == 0) { // else a schedule made before the idle time ran out put a timer in: the thread stays
            if (!idle) {
                idle = true;
                idleUntil = now + IDLE_NANOS;
            }
            long left = idleUntil - now;
            if (left > 0L) {
                return left;
            }
            idle = false;
            if (thread == Thread.currentThread()) {
                thread = null;
            }
            return -1L;
        }
        idle = false;
        Timer t = heap[0];
        long delay = t.when - now;
        if (delay > 0L) {
            if (noneCanSend()) {
                clear(); // the idle time starts now, not at a dead timer's deadline
                return 0L;
            }
            return Math.min(delay, IDLE_NANOS); // wakes to drop the timers of channels collected or closed meanwhile
        }
        Chan<Instant> chan = t.get();
        if (chan == null || chan.isClosed()) {
            remove(t);
            return 0L;
        }
        Instant tick = Instant.now();
        if (t.pendingTick == null) {
            t.nextPending = pending;
            pending = t;
        }
        t.pendingTick = tick; // a ticker whose last tick still waits for the lock: the later one replaces it
        if (t.period == 0L) {
            remove(t);
        } else {
            long missed = (now - t.when) / t.period; // ticks a slow thread missed are dropped
            t.when += (missed + 1) * t.period;
            siftDown(0);
        }
        return 0L;
    }

    /**
     * Marks {@code t} stopped and takes it out of the heap: a tick of it taken out before is not sent. The caller then
     * takes its last tick out of the channel ({@link Chan#takeStaleTick}), also when the timer had already left the
     * heap (its channel closed by its user).
     */
    private void stopLocked(Timer t) {
        t.stopped = true;
        remove(t);
    }

    /**
     * Under the lock: whether every timer's channel is collected or closed. It stops at the first that is neither,
     * which is most often the first it looks at.
     */
    private boolean noneCanSend() {
        for (int i = 0; i < size; i++) {
            Chan<Instant> chan = heap[i].get();
            if (chan != null && !chan.isClosed()) {
                return false;
            }
        }
        return true;
    }

    /** Under the lock, by the thread: takes every timer out of the heap. */
    private void clear() {
        for (int i = 0; i < size; i++) {
            heap[i].index = -1;
            heap[i] = null;
        }
        size = 0;
    }

    private void purgeCollected() {
        for (Reference<? extends Chan<Instant>> r; (r = collected.poll()) != null; ) {
            remove((Timer) r);
        }
    }

    /** Under the lock: takes {@code t} out of the heap; the last one out wakes the thread to start its idle time. */
    private void remove(Timer t) {
        int i = t.index;
        if (i < 0) {
            return;
        }
        t.index = -1;
        Timer last = heap[--size];
        heap[size] = null;
        if (size == 0 && thread != Thread.currentThread()) {
            LockSupport.unpark(thread); // a thread parked until this timer's deadline would wait that long for nothing
        }
        if (last != t) {
            heap[i] = last;
            last.index = i;
            siftDown(i);
            siftUp(last.index);
        }
    }

    private void siftUp(int i) {
        Timer t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Timer p = heap[parent];
            if (t.when - p.when >= 0L) {
                break;
            }
            heap[i] = p;
            p.index = i;
            i = parent;
        }
        heap[i] = t;
        t.index = i;
    }

    private void siftDown(int i) {
        Timer t = heap[i];
        for (;;) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1].when - heap[child].when < 0L) {
                child++;
            }
            Timer c = heap[child];
            if (t.when - c.when <= 0L) {
                break;
            }
            heap[i] = c;
            c.index = i;
            i = child;
        }
        heap[i] = t;
        t.index = i;
    }
}
