package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.failure;
import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RWMutexTest {
    private int shared; // written under the write lock only, deliberately plain

    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void readersShareWritersExclude(boolean virtual) throws Exception {
        RWMutex rw = new RWMutex();
        AtomicInteger readersIn = new AtomicInteger();
        AtomicInteger writersIn = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        int threads = virtual ? 100 : 8;
        int rounds = virtual ? 500 : 10_000;
        Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
        LockTests.runTogether(builder, threads, id -> {
            for (int i = 0; i < rounds; i++) {
                if ((i + id) % 10 == 0) {
                    rw.writeLock().lock();
                    try {
                        if (writersIn.incrementAndGet() != 1 || readersIn.get() != 0) {
                            violations.incrementAndGet();
                        }
                        shared++;
                        writersIn.decrementAndGet();
                    } finally {
                        rw.writeLock().unlock();
                    }
                } else {
                    rw.readLock().lock();
                    try {
                        readersIn.incrementAndGet();
                        if (writersIn.get() != 0) {
                            violations.incrementAndGet();
                        }
                        readersIn.decrementAndGet();
                    } finally {
                        rw.readLock().unlock();
                    }
                }
            }
        });
        assertEquals(0, violations.get());
        assertEquals(threads * rounds / 10, shared);
        assertEquals(0, rw.readers());
        assertTrue(rw.writeLock().tryLock(), "left unlocked: " + rw);
    }

    @Test
    void readersHoldTogether() throws Exception {
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        assertTrue((boolean) get(start(() -> rw.readLock().tryLock())));
        assertEquals(2, rw.readers());
        assertFalse(rw.writeLock().tryLock());
        assertFalse(get(start(() -> rw.writeLock().tryLock(1, TimeUnit.MILLISECONDS))));
        assertEquals(2, rw.readers(), "the timed-out writer left: " + rw);
        rw.readLock().unlock();
        rw.readLock().unlock();
        assertEquals(0, rw.readers());
        assertTrue(rw.writeLock().tryLock());
        assertFalse(rw.readLock().tryLock());
        assertFalse(rw.writeLock().tryLock(), "not reentrant");
        assertFalse(get(start(() -> rw.readLock().tryLock(1, TimeUnit.MILLISECONDS))));
        rw.writeLock().unlock();
        assertTrue(rw.readLock().tryLock(), "the timed-out reader left: " + rw);
        rw.readLock().unlock();
    }

    /** Writer preference: a waiting writer holds back new readers; they go in when it unlocks. */
    @Test
    void aWaitingWriterBlocksNewReaders() throws Exception {
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        AtomicBoolean wrote = new AtomicBoolean();
        var writer = start(() -> {
            rw.writeLock().lock();
            try {
                wrote.set(true);
                return rw.readers();
            } finally {
                rw.writeLock().unlock();
            }
        });
        Threads.untilParked(writer.thread());
        assertFalse(rw.readLock().tryLock(), "a pending writer holds back new readers");
        var reader = start(() -> {
            rw.readLock().lock();
            try {
                return wrote.get();
            } finally {
                rw.readLock().unlock();
            }
        });
        Threads.untilParked(reader.thread());
        Threads.assertNotDone(reader.result());
        rw.readLock().unlock();
        assertEquals(0, get(writer), "no reader inside while the writer holds");
        assertTrue(get(reader), "the reader went in after the writer");
        assertEquals(0, rw.readers());
    }

    /** A reader that gives up behind a writer leaves the count of readers the writer lets in. */
    @ParameterizedTest(name = "interrupt={0}")
    @ValueSource(booleans = {false, true})
    void aReaderThatGivesUpLeavesCleanly(boolean interrupt) throws Exception {
        RWMutex rw = new RWMutex();
        rw.writeLock().lock();
        var reader = start(() -> giveUp(rw.readLock(), interrupt));
        LockTests.untilParkedOrDone(reader);
        if (interrupt) {
            reader.thread().interrupt();
            assertInstanceOf(InterruptedException.class, failure(reader.result()));
        } else {
            assertFalse(get(reader));
        }
        rw.writeLock().unlock();
        assertEquals(0, rw.readers());
        assertTrue(rw.writeLock().tryLock(), "no reader left counted: " + rw);
        rw.writeLock().unlock();
    }

    /**
     * A writer that gives up while waiting for a reader to leave lets in the readers it held
     * back (while the first reader is still inside) and releases its place among writers.
     */
    @ParameterizedTest(name = "interrupt={0}")
    @ValueSource(booleans = {false, true})
    void aWriterThatGivesUpLetsTheHeldBackReadersIn(boolean interrupt) throws Exception {
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        var writer = start(() -> giveUp(rw.writeLock(), interrupt));
        LockTests.untilParkedOrDone(writer);
        var heldBack = start(() -> {
            rw.readLock().lock();
            return rw.readers();
        });
        // Held back by the writer; a timed writer may have given up already on a slow machine.
        LockTests.untilParkedOrDone(heldBack);
        if (interrupt) {
            writer.thread().interrupt();
            assertInstanceOf(InterruptedException.class, failure(writer.result()));
        } else {
            assertFalse(get(writer));
        }
        assertEquals(2, get(heldBack), "the held-back reader is in, next to the first");
        assertTrue(get(start(() -> {
            boolean in = rw.readLock().tryLock();
            rw.readLock().unlock();
            return in;
        })), "no writer pending any more");
        rw.readLock().unlock();
        rw.readLock().unlock();
        assertTrue(rw.writeLock().tryLock(), "the inner writer lock was released: " + rw);
        rw.writeLock().unlock();
    }

    /** Waits on {@code lock} until interrupted, or 200 ms; returns whether it got it. */
    private static boolean giveUp(Lock lock, boolean interrupt) throws InterruptedException {
        if (interrupt) {
            lock.lockInterruptibly();
            return true;
        }
        return lock.tryLock(200, TimeUnit.MILLISECONDS);
    }

    /**
     * The races, many times: a reader or writer gives up just as the other side unlocks. Whatever
     * the interleaving, the lock ends free and usable, and nobody who waits without a timeout is
     * left behind.
     */
    @ParameterizedTest(name = "writerGivesUp={0}")
    @ValueSource(booleans = {false, true})
    void givingUpRacingUnlockLeavesTheLockConsistent(boolean writerGivesUp) throws Exception {
        for (int i = 0; i < 300; i++) {
            RWMutex rw = new RWMutex();
            Lock holderLock = writerGivesUp ? rw.readLock() : rw.writeLock();
            Lock leaverLock = writerGivesUp ? rw.writeLock() : rw.readLock();
            holderLock.lock();
            long nanos = 1_000L * (i % 30);
            var leaver = start(Thread.ofVirtual(), () -> {
                if (leaverLock.tryLock(nanos, TimeUnit.NANOSECONDS)) {
                    leaverLock.unlock();
                    return true;
                }
                return false;
            });
            var patientReader = start(Thread.ofVirtual(), () -> {
                rw.readLock().lock();
                rw.readLock().unlock();
                return "in";
            });
            LockSupport.parkNanos(nanos);
            holderLock.unlock();
            get(leaver);
            assertEquals("in", get(patientReader));
            assertEquals(0, rw.readers(), rw::toString);
            assertTrue(rw.writeLock().tryLock(), rw::toString);
            rw.writeLock().unlock();
        }
    }

    /**
     * An OutOfMemoryError where a reader (counted in) or a writer (announced) allocates its node
     * undoes what it did: no reader left counted, no writer left pending, the writers' lock free.
     * A real one, in a JVM of its own with a small heap: see {@link OutOfMemoryProbe}.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"reader", "writer"})
    void outOfMemoryErrorWhenAllocatingTheNodeUndoesTheWait(String who) throws Exception {
        LockTests.runOutOfMemoryProbe(who);
    }

    /**
     * The write lock's tryLock() is the inner Mutex's tryLock and one CAS from the unlocked word:
     * it too must succeed whenever the lock is free, while writers that wait on the inner Mutex
     * time out and are woken.
     */
    @Test
    void writeTryLockSucceedsWhenFreeWhileWritersComeAndGo() throws Exception {
        RWMutex rw = new RWMutex();
        Mutex writers = writersOf(rw);
        Lock write = rw.writeLock();
        // 1.5 s (was 3): with the single CAS put back in Mutex.tryLock and in writeTryLock's wait for the inner
        // Mutex (a mutant), it failed within 0.3 s
        assertNull(LockTests.tryLockFalseWhileFree(write, writers::isLocked, write::tryLock, Duration.ofMillis(1_500)));
    }

    /** The same race made frequent: another thread flips the inner Mutex's WOKEN bit all the time. */
    @Test
    void writeTryLockSucceedsWhenFreeWhileTheWordChanges() throws Exception {
        RWMutex rw = new RWMutex();
        Lock write = rw.writeLock();
        assertNull(LockTests.tryLockFalseWhileTheWordChanges(writersOf(rw), 1 << 1, write::tryLock, write, Duration.ofMillis(1_500)));
        assertTrue(write.tryLock());
    }

    /**
     * A write tryLock() on a free lock takes it, also while another thread holds the writers' inner
     * Mutex for a moment with the lock free (a write unlock between its release of the word and of
     * the inner Mutex, a write tryLock failing for a reader): it waits for that thread rather than
     * failing. The test makes the moment last by holding the inner Mutex itself until the probe is
     * inside tryLock() (or, failing, done).
     */
    @Test
    void writeTryLockWaitsOutAThreadBusyWithTheInnerMutex() throws Exception {
        RWMutex rw = new RWMutex();
        Mutex writers = writersOf(rw);
        writers.lock();
        var probe = start(() -> rw.writeLock().tryLock());
        Threads.until("the probe is inside the write tryLock()", () -> probe.result().isDone()
                || Arrays.stream(probe.thread().getStackTrace()).anyMatch(f -> f.getMethodName().equals("writeTryLock")));
        writers.unlock();
        assertTrue(get(probe), "writeLock().tryLock() returned false on a free lock");
        rw.writeLock().unlock();
    }

    /**
     * A write tryLock() does not wait for the inner Mutex when the lock is held: a reader in, it
     * fails at once whoever holds the inner Mutex.
     */
    @Test
    void writeTryLockFailsAtOnceWhenAReaderHoldsTheLock() throws Exception {
        RWMutex rw = new RWMutex();
        Mutex writers = writersOf(rw);
        writers.lock();
        rw.readLock().lock();
        assertFalse(get(start(() -> rw.writeLock().tryLock())));
        rw.readLock().unlock();
        writers.unlock();
        assertTrue(rw.writeLock().tryLock(), rw::toString);
    }

    /**
     * In starvation mode of the inner Mutex (a writer has waited over 1 ms) the lock goes to the
     * waiting writers: a write tryLock() fails at once, without barging, as the Mutex's own
     * tryLock() does; a read tryLock() is not concerned. The mode is set on the inner Mutex's word
     * as a hand-off to a waiter leaves it: STARVING, one waiter counted, LOCKED clear.
     */
    @Test
    void writeTryLockFailsAtOnceWhileTheWritersMutexIsStarving() throws Exception {
        RWMutex rw = new RWMutex();
        VarHandle word = MethodHandles.privateLookupIn(Mutex.class, MethodHandles.lookup())
                .findVarHandle(Mutex.class, "state", int.class);
        Mutex writers = writersOf(rw);
        word.setVolatile(writers, (1 << 2) | (1 << 3));
        assertFalse(get(start(() -> rw.writeLock().tryLock())), "barged in starvation mode: " + rw);
        assertTrue(rw.readLock().tryLock());
        rw.readLock().unlock();
        word.setVolatile(writers, 0);
        assertTrue(rw.writeLock().tryLock(), rw::toString);
    }

    /** The Mutex that writers queue on. */
    private static Mutex writersOf(RWMutex rw) throws ReflectiveOperationException {
        return (Mutex) MethodHandles.privateLookupIn(RWMutex.class, MethodHandles.lookup())
                .findVarHandle(RWMutex.class, "writers", Mutex.class).get(rw);
    }

    /** The documented bound on read holds, held or waited for: Go's rwmutexMaxReaders (2^30) less one. */
    static final int MAX_READ_HOLDS = (1 << 30) - 1;

    /**
     * At the bound, every form of read acquisition throws the Error ReentrantReadWriteLock throws
     * at its own, and leaves the lock as it was. Before the bound existed, the 2^30th hold made a
     * later writer's announcement look like no writer at all.
     */
    @Test
    void readHoldsAreBoundedAndTheRefusalChangesNothing() throws Exception {
        RWMutex rw = new RWMutex();
        holdReadLocks(rw, MAX_READ_HOLDS - 1);
        rw.readLock().lock(); // the last hold allowed
        assertEquals(MAX_READ_HOLDS, rw.readers());
        Lock read = rw.readLock();
        List<Executable> acquisitions = List.of(read::lock, read::tryLock, () -> read.tryLock(1, TimeUnit.MILLISECONDS),
                read::lockInterruptibly);
        for (Executable acquisition : acquisitions) {
            Error e = assertThrows(Error.class, acquisition);
            assertEquals("Maximum lock count exceeded", e.getMessage());
            assertEquals(MAX_READ_HOLDS, rw.readers());
        }
        assertFalse(rw.writeLock().tryLock());
        read.unlock();
        assertEquals(MAX_READ_HOLDS - 1, rw.readers());
        assertTrue(read.tryLock(), "below the bound again");
        assertEquals(MAX_READ_HOLDS, rw.readers());
    }

    /**
     * The bound counts the readers that wait behind a writer too: at 2^30 of them the writer's
     * bias was used up, so the reader went in past the waiting writer, and its legitimate unlock
     * then threw "RUnlock of unlocked RWMutex".
     */
    @Test
    void readHoldsAreBoundedWhileAWriterWaits() throws Exception {
        RWMutex rw = new RWMutex();
        holdReadLocks(rw, MAX_READ_HOLDS - 1);
        var writer = start(() -> rw.writeLock().tryLock(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        try {
            Threads.until("the writer waits for the readers", () -> rw.toString().contains("writer pending"));
            var reader = LockTests.startLocker(rw.readLock()); // waits behind the writer: the last hold allowed
            Threads.untilParked(reader.thread());
            Error e = assertThrows(Error.class, rw.readLock()::lock);
            assertEquals("Maximum lock count exceeded", e.getMessage());
            assertThrows(Error.class, () -> rw.readLock().tryLock(1, TimeUnit.MILLISECONDS));
            Threads.assertNotDone(reader.result());
            Threads.assertNotDone(writer.result());
            writer.thread().interrupt(); // gives up: lets the waiting reader in
            assertInstanceOf(InterruptedException.class, failure(writer.result()));
            assertEquals("acquired", get(reader));
            assertEquals(MAX_READ_HOLDS, rw.readers());
            rw.readLock().unlock();
            assertEquals(MAX_READ_HOLDS - 1, rw.readers());
        } finally {
            writer.thread().interrupt();
        }
    }

    /**
     * Makes the free {@code rw} count {@code n} read holds at once: 2^30 read locks one by one take seconds.
     * Writes the state word as they would leave it: the reader count in its high 32 bits (see the
     * implementation notes of RWMutex).
     */
    static void holdReadLocks(RWMutex rw, int n) throws ReflectiveOperationException {
        VarHandle state = MethodHandles.privateLookupIn(RWMutex.class, MethodHandles.lookup())
                .findVarHandle(RWMutex.class, "state", long.class);
        assertTrue(state.compareAndSet(rw, 0L, (long) n << 32), "the lock is not free: " + rw);
    }

    @Test
    void unlockOfUnlockedThrowsAndChangesNothing() {
        RWMutex rw = new RWMutex();
        var r = assertThrows(IllegalMonitorStateException.class, rw.readLock()::unlock);
        assertEquals("RUnlock of unlocked RWMutex", r.getMessage());
        var w = assertThrows(IllegalMonitorStateException.class, rw.writeLock()::unlock);
        assertEquals("unlock of unlocked RWMutex", w.getMessage());
        rw.readLock().lock();
        assertThrows(IllegalMonitorStateException.class, rw.writeLock()::unlock, "read-held is not write-held");
        rw.readLock().unlock();
        rw.writeLock().lock();
        assertThrows(IllegalMonitorStateException.class, rw.readLock()::unlock, "write-held is not read-held");
        rw.writeLock().unlock();
        assertTrue(rw.writeLock().tryLock());
        rw.writeLock().unlock();
        assertEquals(0, rw.readers());
    }

    @Test
    void onlyTheWriteLockHasConditions() throws Exception {
        RWMutex rw = new RWMutex();
        assertThrows(UnsupportedOperationException.class, rw.readLock()::newCondition);
        Condition cond = rw.writeLock().newCondition();
        boolean[] flag = new boolean[1];
        var waiter = start(() -> {
            rw.writeLock().lock();
            try {
                while (!flag[0]) {
                    cond.await();
                }
                return rw.readLock().tryLock();
            } finally {
                rw.writeLock().unlock();
            }
        });
        Threads.untilParked(waiter.thread());
        rw.writeLock().lock();
        try {
            flag[0] = true;
            cond.signal();
        } finally {
            rw.writeLock().unlock();
        }
        assertFalse(get(waiter), "the write lock is held again after await");
    }

    @Test
    void interruptedCallersFailFastAndNullUnitsAreRejected() {
        RWMutex rw = new RWMutex();
        for (Lock lock : List.of(rw.readLock(), rw.writeLock())) {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, lock::lockInterruptibly);
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
            assertThrows(NullPointerException.class, () -> lock.tryLock(1, null));
        }
        assertEquals(0, rw.readers());
        assertTrue(rw.writeLock().tryLock());
        rw.writeLock().unlock();
    }

    @Test
    void toStringShowsTheState() {
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        assertTrue(rw.toString().endsWith("[readers=1]"), rw::toString);
        rw.readLock().unlock();
        rw.writeLock().lock();
        assertTrue(rw.toString().endsWith("[readers=0, writer pending]"), rw::toString);
        assertTrue(rw.writeLock().toString().endsWith("[locked]"), rw.writeLock()::toString);
        rw.writeLock().unlock();
        assertTrue(rw.writeLock().toString().endsWith("[unlocked]"), rw.writeLock()::toString);
    }
}
