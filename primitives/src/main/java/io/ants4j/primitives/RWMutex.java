package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * A reader/writer mutual-exclusion lock: the port of Go's {@code sync.RWMutex}. Any number of
 * threads may hold the {@linkplain #readLock() read lock} together, or one thread the
 * {@linkplain #writeLock() write lock}.
 *
 * <p>Writers are preferred, as in Go: once a writer is next in line for the write lock (it holds it,
 * or waits for the readers in to leave), new readers block until that writer has had the lock, so a
 * steady stream of readers cannot starve a writer. The readers that arrive while a writer is next in
 * line or holds the lock go in together when it unlocks, before the writers queued behind it: a
 * writer that waits while another holds the write lock holds no reader back until its turn. One
 * exception, as in Go: a reader that an unlock lets in but that has not yet begun to wait (it was
 * descheduled on its way) can have its place taken by a reader that arrives after the next writer
 * began to wait: the later reader goes in ahead of that writer, and the earlier one waits for it.
 * The writer waits for as many readers as before, and gets the lock once they leave. A
 * consequence: <b>a thread must not take the read lock again while it holds it</b> (no recursive
 * read locking), nor wait, holding it, for another thread to take it. If a writer arrives in
 * between, the second read lock waits for the writer, which waits for the first read lock to be
 * released: a deadlock. Writers queue among themselves on a {@link Mutex}, so they inherit its
 * starvation mode.
 *
 * <p>Neither lock is owned or reentrant: any thread may unlock them, as in Go. Unlocking a lock
 * that is not held throws {@link IllegalMonitorStateException} ({@code "unlock of unlocked
 * RWMutex"} for the write lock, {@code "RUnlock of unlocked RWMutex"} for the read lock) and
 * changes nothing. Both views have {@code tryLock()}, timed and interruptible acquisition; a reader
 * or writer that times out or is interrupted undoes what it did: a reader leaves the count of
 * readers the writer will let in, a writer that was waiting for the readers to leave lets in the
 * readers it held back and gives up its place. If the lock was granted to it before it could
 * leave, it keeps the lock (the timed {@code tryLock} returns {@code true}, and
 * {@code lockInterruptibly} returns with the interrupt status set). Only the write lock has
 * {@link Lock#newCondition() conditions}.
 *
 * <p>{@code tryLock()} takes a free lock. The read lock's fails only if a writer holds the lock or
 * waits for it. The write lock's fails only if the lock is held, by readers or a writer, or a writer
 * waits for the readers in to leave, or writers have waited for the lock over 1&nbsp;ms (the writers'
 * {@code Mutex} is then in starvation mode, and the lock goes to them in turn). Unlike Go's
 * {@code TryLock}, it does not fail because another thread's write {@code tryLock()} or
 * {@code unlock()} is busy with the lock at the same moment: it waits the few steps that takes.
 *
 * <p>At most 2<sup>30</sup>&nbsp;&minus;&nbsp;1 read locks may be held, counting the readers that
 * wait behind a writer. One more throws {@link Error} ({@code "Maximum lock count exceeded"}), as
 * {@link java.util.concurrent.locks.ReentrantReadWriteLock} does at its own limit, and changes
 * nothing; a timed {@code tryLock} throws it too, without waiting.
 *
 * <p><b>Memory consistency effects:</b> actions before the write lock's {@code unlock()}
 * <i>happen-before</i> actions after every later acquisition of either lock; actions before a
 * read lock's {@code unlock()} happen-before actions after the next acquisition of the write lock.
 *
 * @see Mutex
 */
public final class RWMutex implements ReadWriteLock {
    /*
     * Implementation notes (Go's sync/rwmutex.go).
     *
     * Go keeps readerCount and readerWait in two words. Here they share one long, readerCount in
     * the high 32 bits and readerWait in the low 32, so a departing reader lowers both in one CAS.
     * That is what makes a writer's giving up exact. A writer takes the inner Mutex, then
     * announces itself by subtracting MAX_READERS from readerCount and setting readerWait to the
     * readers it found, in one CAS; each of them, unlocking while readerCount is negative, lowers
     * readerWait, and the one that brings it to 0 releases writerSem. A reader that finds
     * readerCount negative after its increment waits on readerSem, and the writer's unlock adds
     * MAX_READERS back and releases readerSem once for each reader counted then (Go's
     * rwmutexMaxReaders bias). Permits are interchangeable, as in Go: a reader that arrives after
     * the next writer announced itself may take a permit released for one still on its way to
     * readerSem; the accounting holds, because that reader's unlock lowers readerWait in the
     * other's stead.
     *
     * Giving up. A writer waiting for readers decides in writerSem's critical section: if its
     * node was granted, or readerWait is 0 (the last reader's release is on its way), it keeps
     * the lock; otherwise, in one CAS, it adds MAX_READERS back and zeroes readerWait, so the
     * readers still in go on without lowering it and none of them can release writerSem any
     * more, and it releases readerSem for the readers counted that are not in (readerCount less
     * readerWait), then unlocks the inner Mutex. A reader that gives up decides in readerSem's
     * critical section: if it was granted, it keeps the read lock; if readerCount is still
     * negative, no writer has counted it for a release (every release that counts it happens
     * after readerCount turns non-negative, before the inner Mutex is released and another
     * writer can turn it negative again), so it takes itself out of readerCount with a CAS and
     * leaves; if readerCount is non-negative, the release that counted it is on its way and it
     * waits for it. A thread that cannot allocate its node gives up the same way without one
     * (a release it is owed then arrives as a stored permit), passing on what it was given.
     *
     * The bound. A writer is pending exactly when readerCount is negative, which holds only while
     * fewer than MAX_READERS readers are counted; past that, a reader would count itself in past a
     * waiting writer (and its unlock would throw), and past 2^31 - 1 the count would wrap. So a
     * reader checks the count before its CAS and throws at MAX_READ_HOLDS, leaving the word as it
     * was (Go's RLock is an atomic add and has no such check: it would need 2^30 goroutines).
     *
     * The write tryLock. A free lock is a word of 0 and a free inner Mutex, but the two are not
     * released at once: a write unlock (or a writer giving up) releases the word, then the inner
     * Mutex; a write tryLock takes the inner Mutex, then fails its CAS if a reader came in, then
     * releases it; a writer in lock() takes the inner Mutex, then announces itself. Go's TryLock
     * fails whenever the inner Mutex is held, so in those windows it fails on a free lock; here it
     * fails only on a non-zero word (the lock held by readers, or by a writer, or waited for by a
     * writer that the readers in hold back), on its own CAS that a reader's arrival failed, or in
     * the inner Mutex's starvation mode (the lock is then handed from writer to waiting writer, and
     * Mutex.tryLock does not barge either). Otherwise, a word of 0 and the inner Mutex held mean a
     * thread in one of those windows, a few steps from releasing the inner Mutex or making the word
     * non-zero, none of which waits for anything but a WaitQueue's SpinLock; the tryLock yields to
     * it and looks again. It reads the word first, so a tryLock on a lock held by readers leaves the
     * inner Mutex alone and opens no such window for the others.
     *
     * Happens-before: the write lock is the inner Mutex plus the CASes on the word; a reader
     * either CASes or adds to the word after the writer's unlock added to it, or reads the
     * readerSem grant made after that; the writer reads readerWait 0 from the last reader's CAS,
     * or the grant made after it.
     *
     * The first run in the JVM of a VarHandle call site links it, which allocates. A write lock runs
     * this class's call sites after it has taken the inner Mutex: an OutOfMemoryError there would
     * leave that Mutex held for good. So class initialization write-locks and unlocks a throwaway
     * RWMutex once. What follows a change in the semaphores (the queue's lock, its grant to a parked
     * waiter) is linked by WaitQueue's and SpinLock's class initialization, so an unlock on an
     * exhausted heap still wakes its waiter.
     */

    /** Go's rwmutexMaxReaders: the bias a writer subtracts from readerCount. */
    private static final int MAX_READERS = 1 << 30;
    /** Readers counted at most (in, or waiting behind a writer), so that readerCount stays below the bias. */
    private static final int MAX_READ_HOLDS = MAX_READERS - 1;
    /** One reader in the word. */
    private static final long READER = 1L << 32;

    private static final VarHandle STATE;

    /** Links the call sites before any read-write mutex has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(RWMutex.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LINKING.attempt();
    }

    /** Runs once, on a throwaway mutex, the call sites a write lock runs after taking the inner Mutex. */
    private static void linkStateChanges() {
        RWMutex linking = new RWMutex();
        linking.writeLock().lock();
        linking.writeLock().unlock();
    }

    /** readerCount in the high 32 bits (signed), readerWait in the low 32. */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;

    /** Held by the writer, from before it announces itself until after it has let the readers in. */
    private final Mutex writers = new Mutex();
    private final Sema readerSem = new Sema();
    private final Sema writerSem = new Sema();
    private final View readLock = new View(true);
    private final View writeLock = new View(false);

    /** Creates an unlocked read-write mutex. */
    public RWMutex() {
        LINKING.ensure();
    }

    /**
     * Returns the read lock: Go's {@code RLock}/{@code RUnlock}. It has no conditions.
     *
     * @return the read lock of this mutex
     */
    @Override
    public Lock readLock() {
        return readLock;
    }

    /**
     * Returns the write lock: Go's {@code Lock}/{@code Unlock}. Its {@code newCondition()} returns
     * a {@link Cond}-backed condition.
     *
     * @return the write lock of this mutex
     */
    @Override
    public Lock writeLock() {
        return writeLock;
    }

    /**
     * Returns the number of read locks held. A snapshot for monitoring, not for synchronization.
     *
     * @return the number of readers inside, never negative
     */
    public int readers() {
        long s = state();
        return count(s) >= 0 ? count(s) : waiting(s);
    }

    /**
     * Returns a string identifying this mutex and its state.
     *
     * @return e.g. {@code "RWMutex@1b6d3586[readers=2, writer pending]"}
     */
    @Override
    public String toString() {
        long s = state();
        return super.toString() + "[readers=" + readers() + (count(s) < 0 ? ", writer pending]" : "]");
    }

    private long state() {
        return (long) STATE.getVolatile(this);
    }

    private static int count(long s) {
        return (int) (s >> 32);
    }

    private static int waiting(long s) {
        return (int) s;
    }

    private static long pack(int count, int waiting) {
        return ((long) count << 32) | (waiting & 0xFFFF_FFFFL);
    }

    /** Go's RLock; returns {@link Sema#GRANTED}, {@link WaitQueue#TIMED_OUT} or {@link WaitQueue#INTERRUPTED}. */
    private int readLock(boolean interruptible, boolean timed, long deadline) {
        long s;
        do {
            s = state();
            checkReadHolds(s);
        } while (!STATE.compareAndSet(this, s, s + READER));
        if (count(s) + 1 >= 0) {
            return Sema.GRANTED;
        }
        return sleep(true, interruptible, timed, deadline);
    }

    private boolean readTryLock() {
        for (;;) {
            long s = state();
            if (count(s) < 0) {
                return false;
            }
            checkReadHolds(s);
            if (STATE.compareAndSet(this, s, s + READER)) {
                return true;
            }
        }
    }

    /** Throws if one more reader in {@code s} would pass {@link #MAX_READ_HOLDS}. */
    private static void checkReadHolds(long s) {
        int c = count(s);
        if ((c < 0 ? c + MAX_READERS : c) >= MAX_READ_HOLDS) {
            throw new Error("Maximum lock count exceeded");
        }
    }

    private void readUnlock() {
        for (;;) {
            long s = state();
            int c = count(s);
            if (c > 0) {
                if (STATE.compareAndSet(this, s, s - READER)) {
                    return;
                }
                continue;
            }
            int w = waiting(s);
            if (c == 0 || w == 0) { // no reader, or none the writer waits for
                throw new IllegalMonitorStateException("RUnlock of unlocked RWMutex");
            }
            if (STATE.compareAndSet(this, s, s - READER - 1)) {
                if (w == 1) {
                    release(writerSem, 1);
                }
                return;
            }
        }
    }

    /**
     * The second half of Go's Lock, for a thread that holds the inner Mutex: announces the writer
     * and waits for the readers that are in to leave. Returns {@link Sema#GRANTED},
     * {@link WaitQueue#TIMED_OUT} or {@link WaitQueue#INTERRUPTED} (the inner Mutex then released).
     */
    private int announce(boolean interruptible, boolean timed, long deadline) {
        int readers;
        long s;
        do {
            s = state();
            readers = count(s);
        } while (!STATE.compareAndSet(this, s, pack(readers - MAX_READERS, readers)));
        if (readers == 0) {
            return Sema.GRANTED;
        }
        return sleep(false, interruptible, timed, deadline);
    }

    /** See the implementation notes, "The write tryLock". */
    private boolean writeTryLock() {
        for (;;) {
            if (state() != 0L) {
                return false; // readers are in, or a writer holds the lock or waits for the readers in
            }
            if (writers.tryLock()) {
                if (STATE.compareAndSet(this, 0L, pack(-MAX_READERS, 0))) {
                    return true;
                }
                writers.unlock();
                return false; // a reader came in: it held the lock at the failed CAS
            }
            if (writers.isStarving()) {
                return false; // the lock goes to the writers that waited over 1 ms
            }
            SpinLock.yieldOrSpin(); // another thread is a few steps from releasing the inner Mutex or announcing itself
        }
    }

    private void writeUnlock() {
        long s;
        do {
            s = state();
            if (count(s) >= 0 || waiting(s) != 0) { // no writer, or one still waiting for readers
                throw new IllegalMonitorStateException("unlock of unlocked RWMutex");
            }
        } while (!STATE.compareAndSet(this, s, s + (long) MAX_READERS * READER));
        try {
            release(readerSem, count(s) + MAX_READERS);
        } finally {
            writers.unlock(); // also if waking a reader threw: the lock is free all the same
        }
    }

    /**
     * Waits on readerSem (a {@code reader} already counted, for the writer ahead to unlock) or on
     * writerSem (an announced writer, for the readers that were in to leave). One that stops
     * waiting leaves as {@link #leave} says; an {@link Error} (no memory for the node or to park)
     * passes on whatever was given to it, then propagates.
     */
    private int sleep(boolean reader, boolean interruptible, boolean timed, long deadline) {
        Sema sema = reader ? readerSem : writerSem;
        WaitQueue.Waiter node = null;
        boolean queued = false;
        int parked = WaitQueue.WAITING;
        try {
            node = new WaitQueue.Waiter();
            WaitQueue q = sema.queue;
            q.lock.lock();
            try {
                queued = !sema.takeOrEnqueue(node, false);
            } finally {
                q.lock.unlock();
            }
            parked = queued ? WaitQueue.park(node, interruptible, timed, deadline) : Sema.GRANTED;
        } finally {
            if (parked == WaitQueue.WAITING && leave(reader, queued ? node : null)) {
                unlock(reader);
            }
        }
        if (parked != Sema.GRANTED) {
            boolean holds;
            try {
                holds = leave(reader, node);
            } catch (Throwable t) {
                if (parked == WaitQueue.INTERRUPTED) {
                    Thread.currentThread().interrupt(); // letting the held-back readers in threw: keep the interrupt
                }
                throw t;
            }
            if (!holds) {
                return parked;
            }
        }
        if (parked == WaitQueue.INTERRUPTED) {
            Thread.currentThread().interrupt(); // the lock came first
        }
        return Sema.GRANTED;
    }

    /**
     * Called by a waiter that stops waiting (see the implementation notes): whether it holds the
     * lock after all. If not, a reader has left the count and a writer has let in the readers it
     * held back and unlocked the inner Mutex. {@code node} is {@code null} if it was not queued.
     */
    private boolean leave(boolean reader, WaitQueue.Waiter node) {
        Sema sema = reader ? readerSem : writerSem;
        WaitQueue q = sema.queue;
        int heldBack = 0;
        for (;;) {
            q.lock.lock();
            try {
                if (sema.granted(node)) {
                    return true;
                }
                long s = state();
                // A reader may leave while no release has counted it; a writer while readers are still in.
                if (reader ? count(s) < 0 : waiting(s) != 0) {
                    long next = reader ? s - READER : pack(count(s) + MAX_READERS, 0);
                    if (!STATE.compareAndSet(this, s, next)) {
                        continue;
                    }
                    if (node != null) {
                        q.withdraw(node);
                    }
                    if (!reader) {
                        heldBack = count(s) + MAX_READERS - waiting(s);
                    }
                    break;
                }
            } finally {
                q.lock.unlock();
            }
            // The release that counted this thread is on its way: it comes as soon as its thread has the lock.
            if (node != null) {
                WaitQueue.park(node, false, false, 0L);
            } else {
                SpinLock.yieldOrSpin();
            }
        }
        if (!reader) {
            try {
                release(readerSem, heldBack);
            } finally {
                writers.unlock();
            }
        }
        return false;
    }

    private void unlock(boolean reader) {
        if (reader) {
            readUnlock();
        } else {
            writeUnlock();
        }
    }

    private static void release(Sema sema, int n) {
        if (n == 0) {
            return;
        }
        WaitQueue q = sema.queue;
        WaitQueue.Waiter granted;
        q.lock.lock();
        try {
            granted = sema.release(n);
        } finally {
            q.lock.unlock();
        }
        WaitQueue.unparkAll(granted);
    }

    /**
     * The timed acquisition of either view: one attempt, then (if time is left) the wait.
     *
     * @return whether the lock was acquired
     */
    private boolean tryLock(boolean reader, long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        Interrupts.throwIfInterrupted();
        if (reader ? readTryLock() : writeTryLock()) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        long deadline = WaitQueue.deadline(nanos);
        int outcome;
        if (reader) {
            outcome = readLock(true, true, deadline);
        } else if (writers.tryLock(nanos, TimeUnit.NANOSECONDS)) {
            outcome = announce(true, true, deadline);
        } else {
            return false;
        }
        if (outcome == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
        return outcome == Sema.GRANTED;
    }

    /** The read view (Go's RLock/RUnlock) or the write view (Go's Lock/Unlock). */
    final class View implements Lock {
        private final boolean reader;

        View(boolean reader) {
            this.reader = reader;
        }

        @Override
        public void lock() {
            if (reader) {
                readLock(false, false, 0L);
            } else {
                writers.lock();
                announce(false, false, 0L);
            }
        }

        @Override
        public void lockInterruptibly() throws InterruptedException {
            int outcome;
            if (reader) {
                Interrupts.throwIfInterrupted();
                outcome = readLock(true, false, 0L);
            } else {
                writers.lockInterruptibly();
                outcome = announce(true, false, 0L);
            }
            if (outcome == WaitQueue.INTERRUPTED) {
                throw Interrupts.consumed();
            }
        }

        @Override
        public boolean tryLock() {
            return reader ? readTryLock() : writeTryLock();
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
            return RWMutex.this.tryLock(reader, time, unit);
        }

        @Override
        public void unlock() {
            RWMutex.this.unlock(reader);
        }

        /** The write lock's condition; the read lock has none and throws, as {@code ReentrantReadWriteLock}'s. */
        @Override
        public Condition newCondition() {
            if (reader) {
                throw new UnsupportedOperationException("the read lock of an RWMutex has no conditions");
            }
            return new CondCondition(new Cond(this));
        }

        @Override
        public String toString() {
            long s = state();
            return super.toString() + (reader ? "[readers=" + readers() + "]"
                    : count(s) >= 0 ? "[unlocked]" : waiting(s) == 0 ? "[locked]" : "[waiting for readers]");
        }
    }
}
