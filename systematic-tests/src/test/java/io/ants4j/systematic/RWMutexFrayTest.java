package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.RWMutex;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link RWMutex}, explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class RWMutexFrayTest {
    /**
     * Readers/writers exclusion: while a writer holds the lock nobody else does; readers may hold it together.
     * Every acquisition path is used: lock, lockInterruptibly, tryLock and the timed tryLock of both views.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void readersAndWritersExclude() throws InterruptedException {
        RWMutex rw = new RWMutex();
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        FrayThreads.Body read = () -> {
            readers.incrementAndGet();
            assertEquals(0, writers.get(), "a reader is in with a writer");
            readers.decrementAndGet();
            rw.readLock().unlock();
        };
        FrayThreads.Body write = () -> {
            assertEquals(1, writers.incrementAndGet(), "two writers are in");
            assertEquals(0, readers.get(), "a writer is in with a reader");
            writers.decrementAndGet();
            rw.writeLock().unlock();
        };
        Thread r1 = start("reader", () -> {
            rw.readLock().lock();
            read.run();
            while (!rw.readLock().tryLock()) {
                Thread.yield();
            }
            read.run();
        });
        Thread r2 = start("timed reader", () -> {
            assertTrue(rw.readLock().tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
            read.run();
            rw.readLock().lockInterruptibly();
            read.run();
        });
        Thread w1 = start("writer", () -> {
            rw.writeLock().lock();
            write.run();
            rw.writeLock().lockInterruptibly();
            write.run();
        });
        Thread w2 = start("timed writer", () -> {
            assertTrue(rw.writeLock().tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
            write.run();
            while (!rw.writeLock().tryLock()) {
                Thread.yield();
            }
            write.run();
        });
        join(r1, r2, w1, w2);
        assertFree(rw);
    }

    /**
     * Writer preference: once a writer waits, new readers neither tryLock nor lock until that writer has had the
     * lock; the readers it held back go in when it unlocks.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWaitingWriterGoesBeforeNewReaders() throws InterruptedException {
        RWMutex rw = new RWMutex();
        AtomicBoolean writerHadIt = new AtomicBoolean();
        rw.readLock().lock();
        Thread writer = start("writer", () -> {
            rw.writeLock().lock();
            writerHadIt.set(true);
            rw.writeLock().unlock();
        });
        untilParked(writer);
        Thread lateReader = start("late reader", () -> {
            assertFalse(rw.readLock().tryLock(), "a new reader overtook a waiting writer");
            rw.readLock().lock();
            assertTrue(writerHadIt.get(), "a new reader got in before the waiting writer");
            rw.readLock().unlock();
        });
        untilParked(lateReader);
        rw.readLock().unlock();
        join(writer, lateReader);
        assertFree(rw);
    }

    /**
     * The class javadoc: "The readers that arrive while a writer waits or holds the lock go in together when it
     * unlocks." The main thread holds a read lock; w1 waits for the write lock, r1 and r2 arrive while it waits;
     * the main thread unlocks, w1 gets the lock, r3 arrives while it holds it, and w2 queues for the write lock
     * behind w1; then w1 unlocks. Invariant: that one unlock lets in all three readers, together and before w2:
     * each reader, once in, keeps the read lock until all three are in (readers let in one after another, or
     * one left behind, leave those in waiting for ever: stuck), and w2, when it gets the lock, finds all three
     * have been in, and none still in; the lock ends free.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWriteUnlockLetsInEveryWaitingReaderTogetherBeforeTheNextWriter() throws InterruptedException {
        RWMutex rw = new RWMutex();
        AtomicInteger in = new AtomicInteger(); // readers that got in
        AtomicInteger inNow = new AtomicInteger(); // readers holding the read lock now
        AtomicBoolean w1In = new AtomicBoolean();
        AtomicBoolean w2Queued = new AtomicBoolean();
        FrayThreads.Body reader = () -> {
            rw.readLock().lock();
            inNow.incrementAndGet();
            in.incrementAndGet();
            assertTrue(w1In.get(), "a reader that came while w1 waited got in before w1");
            until("all three readers are in together", () -> in.get() == 3);
            inNow.decrementAndGet();
            rw.readLock().unlock();
        };
        rw.readLock().lock();
        Thread w1 = start("w1", () -> {
            rw.writeLock().lock();
            w1In.set(true);
            until("w2 queued", w2Queued::get);
            rw.writeLock().unlock();
        });
        untilParked(w1);
        Thread r1 = start("r1", reader);
        untilParked(r1);
        Thread r2 = start("r2", reader);
        untilParked(r2);
        rw.readLock().unlock();
        until("w1 holds the lock", w1In::get);
        Thread r3 = start("r3", reader);
        untilParked(r3);
        Thread w2 = start("w2", () -> {
            rw.writeLock().lock();
            assertEquals(3, in.get(), "w2 got the write lock before every reader that w1 held back had been in");
            assertEquals(0, inNow.get(), "w2 got the write lock with a reader in");
            rw.writeLock().unlock();
        });
        untilParked(w2);
        w2Queued.set(true);
        join(w1, r1, r2, r3, w2);
        assertFree(rw);
    }

    /**
     * No lost wake-up when a writer or a reader gives up: a writer interrupted while it waits for the readers
     * lets in the readers it held back (or, granted first, keeps the lock); a reader that times out behind a
     * writer leaves the count the writer lets in. Afterwards the lock is free.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void waitersThatGiveUpLetTheOthersIn() throws InterruptedException {
        RWMutex rw = new RWMutex();
        Lock read = rw.readLock();
        read.lock();
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread writer = start("writer", () -> {
            try {
                rw.writeLock().lockInterruptibly();
                try { // an interrupt that lost to the lock is set again
                    until("the interrupt is sent", interruptSent::get);
                    assertTrue(Thread.interrupted(), "lockInterruptibly() returned the write lock without the interrupt status");
                } finally {
                    rw.writeLock().unlock();
                }
            } catch (InterruptedException expected) {
                // gave up: holds nothing
            }
        });
        untilParked(writer);
        Thread timedReader = start("timed reader", () -> {
            if (read.tryLock(1, TimeUnit.MILLISECONDS)) {
                read.unlock();
            }
        });
        Thread reader = start("reader", () -> {
            read.lock();
            read.unlock();
        });
        untilParked(reader);
        Thread interrupter = start("interrupter", () -> {
            writer.interrupt();
            interruptSent.set(true);
        });
        read.unlock();
        join(interrupter, writer, timedReader, reader);
        assertFree(rw);
    }

    /**
     * A writer that gives up lets in only the readers it held back, and leaves nothing behind for later ones (the
     * class javadoc: "a writer that was waiting for the readers to leave lets in the readers it held back and gives
     * up its place"; "while a writer ... holds the lock nobody else does"). The main thread holds a read lock, a
     * writer waits in {@code lockInterruptibly()}, a reader waits behind it; the writer's interrupt races the main
     * thread's read unlock. Afterwards the main thread takes the write lock, and a reader's timed read
     * {@code tryLock} must wait and time out: a writer that gave up and released a permit also for the reader that
     * was already in (coverage review 10, mutant RW-H) leaves it stored, and that reader takes it and goes in
     * beside the writer.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWriterThatGivesUpLeavesNoReadPermitBehind() throws InterruptedException {
        RWMutex rw = new RWMutex();
        Lock read = rw.readLock();
        read.lock();
        Thread writer = start("writer", () -> {
            try {
                rw.writeLock().lockInterruptibly();
                Thread.interrupted(); // the lock came first: the interrupt status set again
                rw.writeLock().unlock();
            } catch (InterruptedException expected) {
                // gave up: holds nothing
            }
        });
        untilParked(writer);
        Thread reader = start("reader", () -> {
            read.lock();
            read.unlock();
        });
        untilParked(reader);
        Thread interrupter = start("interrupter", writer::interrupt);
        read.unlock();
        join(interrupter, writer, reader);
        rw.writeLock().lock();
        try {
            assertFalse(read.tryLock(1, TimeUnit.MILLISECONDS),
                    () -> "a reader got the read lock while a writer held the lock: " + rw);
        } finally {
            rw.writeLock().unlock();
        }
        assertFree(rw);
    }

    /**
     * A reader whose interrupt lost to the lock keeps it (the javadoc of {@code lockInterruptibly}: the lock
     * granted before the thread could leave, it "returns with the interrupt status set"): a writer holds the
     * lock, a reader waits in the read {@code lockInterruptibly()}, and the writer's unlock races the reader's
     * interrupt. The reader either throws holding nothing, or returns holding the read lock with its interrupt
     * status set; a second reader, by {@code lock()}, is let in by the same unlock and never gets an interrupt.
     * Afterwards the lock is free.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aReaderWhoseInterruptLostToTheLockKeepsIt() throws InterruptedException {
        RWMutex rw = new RWMutex();
        Lock read = rw.readLock();
        rw.writeLock().lock();
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread interrupted = start("interrupted reader", () -> {
            try {
                read.lockInterruptibly();
                try { // an interrupt that lost to the lock is set again
                    until("the interrupt is sent", interruptSent::get);
                    assertTrue(Thread.interrupted(), "lockInterruptibly() returned the read lock without the interrupt status");
                } finally {
                    read.unlock();
                }
            } catch (InterruptedException expected) {
                // gave up: holds nothing
            }
        });
        untilParked(interrupted);
        Thread reader = start("reader", () -> {
            read.lock();
            assertFalse(Thread.currentThread().isInterrupted(), "a reader nobody interrupted has its status set");
            read.unlock();
        });
        untilParked(reader);
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        rw.writeLock().unlock();
        join(interrupter, interrupted, reader);
        assertFree(rw);
    }

    /**
     * {@code writeLock().tryLock()} acquires a free lock (Lock.tryLock: "acquires the lock if it is free at the time
     * of invocation"), also while another thread is still busy with the writers' inner {@code Mutex}: a write
     * {@code tryLock()} that is failing for a reader, and a write {@code unlock()} that has released the lock but
     * not yet the inner {@code Mutex}. The probe polls with the read {@code tryLock()} until no writer holds the lock
     * (the unlocker has released it), and gives its read lock back: the lock is then free, and only the failing
     * writer can take it. So the probe's {@code false} is wrong unless the failing writer acquired the lock.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void writeTryLockAcquiresAFreeLock() throws InterruptedException {
        writeTryLockOnAFreeLock();
    }

    /** The schedule in which Fray found the defect (iteration 11 of writeTryLockAcquiresAFreeLock). */
    @FrayTest(replay = "classpath:fray-recordings/RWMutexFrayTest/writeTryLockAcquiresAFreeLock",
            resetClassLoaderPerIteration = false, systemTimeDelegateType = SystemTimeDelegateType.MOCK,
            ignoreTimedBlock = false, scheduler = RandomScheduler.class)
    void writeTryLockAcquiresAFreeLockReplay() throws InterruptedException {
        writeTryLockOnAFreeLock();
    }

    private static void writeTryLockOnAFreeLock() throws InterruptedException {
        RWMutex rw = new RWMutex();
        Lock write = rw.writeLock();
        Lock read = rw.readLock();
        AtomicBoolean failingWriterAcquired = new AtomicBoolean();
        write.lock();
        Thread unlocker = start("unlocker", write::unlock);
        Thread failingWriter = start("failing writer", () -> {
            if (write.tryLock()) {
                failingWriterAcquired.set(true);
                write.unlock();
            }
        });
        AtomicBoolean probeAcquired = new AtomicBoolean();
        Thread probe = start("probe", () -> {
            FrayThreads.until("the unlocker releases the lock", read::tryLock);
            read.unlock();
            if (write.tryLock()) {
                probeAcquired.set(true);
                write.unlock();
            }
        });
        join(unlocker, failingWriter, probe);
        assertTrue(probeAcquired.get() || failingWriterAcquired.get(),
                "writeLock().tryLock() returned false on a free lock");
        assertFree(rw);
    }

    private static void assertFree(RWMutex rw) {
        assertEquals(0, rw.readers(), rw::toString);
        assertTrue(rw.writeLock().tryLock(), () -> "not free: " + rw);
        rw.writeLock().unlock();
    }

    /**
     * The read and the write {@code lock()} wait through an interrupt and return holding the lock with the
     * interrupt status set: readers behind a writer, writers behind a reader.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void lockKeepsAnInterrupt() throws Exception {
        RWMutex rw = new RWMutex();
        rw.writeLock().lock();
        FrayThreads.interruptKeptThroughAnUninterruptibleWait(() -> {
            rw.readLock().lock();
            rw.readLock().unlock();
        }, rw.writeLock()::unlock);
        assertFree(rw);
        rw.readLock().lock();
        FrayThreads.interruptKeptThroughAnUninterruptibleWait(() -> {
            rw.writeLock().lock();
            rw.writeLock().unlock();
        }, rw.readLock()::unlock);
        assertFree(rw);
    }

    /**
     * Writers queue on an inner {@code Mutex} and inherit its starvation mode (RWMutex's javadoc): a writer that
     * has waited over 1 ms (virtual time) and is beaten to the lock once more is handed the write lock at the
     * next write unlock; no write {@code tryLock} takes it first. As {@code MutexFrayTest.aStarvingWaiterGetsTheNextUnlock},
     * through the write lock: the holder lets over 1 ms pass, unlocks, and takes the lock back with
     * {@code tryLock} when it can; once the woken writer has queued again on the inner Mutex (starving), the
     * holder unlocks and tries again: it may get the lock only after the writer had it. The inner Mutex is read
     * by reflection (its {@code toString}), the only way to see that the writer queues again.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStarvingWriterGetsTheNextUnlock() throws Exception {
        RWMutex rw = new RWMutex();
        Lock w = rw.writeLock();
        java.lang.reflect.Field writersField = RWMutex.class.getDeclaredField("writers");
        writersField.setAccessible(true);
        Object writers = writersField.get(rw);
        AtomicBoolean writerHeld = new AtomicBoolean();
        w.lock();
        Thread writer = start("writer", () -> {
            w.lock();
            writerHeld.set(true);
            w.unlock();
        });
        untilParked(writer);
        long parked = System.nanoTime();
        FrayThreads.until("over 1 ms passes", () -> System.nanoTime() - parked > TimeUnit.MILLISECONDS.toNanos(2));
        w.unlock(); // wakes the writer
        if (w.tryLock()) { // beat it, unless it came and went: it finds the lock held after waiting over 1 ms
            FrayThreads.until("the writer has had the lock or queues again",
                    () -> writerHeld.get() || writers.toString().endsWith("waiters=1]"));
            w.unlock(); // hands the lock to the writer
            if (w.tryLock()) {
                assertTrue(writerHeld.get(), () -> "a write tryLock took the lock before the starving writer: " + writers);
                w.unlock();
            }
        }
        join(writer);
        assertEquals(0, rw.readers());
        assertTrue(w.tryLock(), rw::toString);
        w.unlock();
    }

    /**
     * The timed {@code tryLock} of either view "@throws InterruptedException if interrupted before or while
     * waiting": a thread waits in {@code tryLock(10 s)} on a lock held until it ends (the read view behind a
     * writer; the write view behind a writer, in the inner {@code Mutex}, and behind a reader, for the readers to
     * leave), and another thread interrupts it, before or during the wait. It throws
     * {@code InterruptedException}, holding nothing, rather than waiting on until its timeout; the holder's
     * unlock then leaves the lock free.
     */
    @FrayTest(iterations = 30 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptEndsTheTimedWaitOfEitherView() throws InterruptedException {
        RWMutex rw = new RWMutex();
        interruptEndsTheTimedWait(rw, rw.writeLock(), rw.readLock());
        interruptEndsTheTimedWait(rw, rw.writeLock(), rw.writeLock());
        interruptEndsTheTimedWait(rw, rw.readLock(), rw.writeLock());
    }

    /**
     * {@code lockInterruptibly} of either view "@throws InterruptedException if the current thread is interrupted
     * before or while waiting" (Lock's contract; the class javadoc: "a reader or writer that times out or is
     * interrupted undoes what it did"), wherever it waits: the read view behind a writer, the write view behind a
     * writer (in the writers' inner {@code Mutex}) and behind a reader (for the readers to leave). Another thread
     * interrupts it, before or during the wait, and the holder unlocks only once the waiter has ended: it throws
     * {@code InterruptedException}, holding nothing, and the lock ends free. The timed twin is
     * {@code anInterruptEndsTheTimedWaitOfEitherView}; {@code waitersThatGiveUpLetTheOthersIn} interrupts a writer
     * behind a reader only.
     */
    @FrayTest(iterations = 30 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptEndsTheInterruptibleWaitOfEitherView() throws InterruptedException {
        RWMutex rw = new RWMutex();
        interruptEndsTheInterruptibleWait(rw, rw.writeLock(), rw.readLock());
        interruptEndsTheInterruptibleWait(rw, rw.writeLock(), rw.writeLock());
        interruptEndsTheInterruptibleWait(rw, rw.readLock(), rw.writeLock());
    }

    private static void interruptEndsTheInterruptibleWait(RWMutex rw, Lock held, Lock tried) throws InterruptedException {
        held.lock();
        Thread waiter = start("lockInterruptibly", () -> assertThrows(InterruptedException.class,
                tried::lockInterruptibly, () -> "lockInterruptibly() waited through an interrupt: " + rw));
        Thread interrupter = start("interrupter", waiter::interrupt);
        join(interrupter, waiter);
        held.unlock();
        assertTrue(rw.writeLock().tryLock(), () -> "the interrupted waiter left the lock held: " + rw);
        rw.writeLock().unlock();
    }

    /**
     * A timed waiter granted the lock as its timeout runs out keeps it (the class javadoc: "If the lock was granted
     * to it before it could leave, it keeps the lock (the timed {@code tryLock} returns {@code true} ...)"), for
     * both views: a reader behind a writer, whose write {@code unlock()} lets it in, and a writer behind a reader,
     * whose read {@code unlock()} grants it the lock. The waiter's timeout is 20 ms (virtual time); the holder
     * waits until it has run out and unlocks, racing the waiter's leaving. Only the waiter can hold the lock after
     * that unlock, so if the lock is seen held by it then (a reader counted in; the write lock held), its
     * {@code tryLock} must return {@code true}; either way the lock ends free.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedWaiterGrantedTheLockAsItTimesOutKeepsIt() throws InterruptedException {
        RWMutex rw = new RWMutex();
        grantedAsItTimesOut(rw, rw.writeLock(), rw.readLock(), () -> rw.readers() > 0);
        grantedAsItTimesOut(rw, rw.readLock(), rw.writeLock(), () -> rw.writeLock().toString().endsWith("[locked]"));
    }

    private static void grantedAsItTimesOut(RWMutex rw, Lock held, Lock tried, BooleanSupplier heldByTheWaiter)
            throws InterruptedException {
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        AtomicLong waiterStart = new AtomicLong();
        AtomicBoolean acquired = new AtomicBoolean();
        held.lock();
        Thread waiter = start("timed tryLock", () -> {
            waiterStart.set(System.nanoTime()); // its deadline is later
            if (tried.tryLock(timeout, TimeUnit.NANOSECONDS)) {
                acquired.set(true);
                tried.unlock();
            }
        });
        untilParked(waiter);
        until("the waiter's timeout runs out", () -> System.nanoTime() - waiterStart.get() >= timeout);
        held.unlock(); // grants the lock to the waiter if it is still counted, racing its timeout
        boolean heldAfterTheGrant = heldByTheWaiter.getAsBoolean();
        join(waiter);
        if (heldAfterTheGrant) {
            assertTrue(acquired.get(), () -> "a timed waiter granted the lock returned false: " + rw);
        }
        assertFree(rw);
    }

    private static void interruptEndsTheTimedWait(RWMutex rw, Lock held, Lock tried) throws InterruptedException {
        held.lock();
        Thread waiter = start("timed tryLock", () -> assertThrows(InterruptedException.class,
                () -> tried.tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                () -> "the timed tryLock waited through an interrupt: " + rw));
        Thread interrupter = start("interrupter", waiter::interrupt);
        join(interrupter, waiter);
        held.unlock();
        assertTrue(rw.writeLock().tryLock(), () -> "the interrupted waiter left the lock held: " + rw);
        rw.writeLock().unlock();
    }

    /**
     * The write view's timed {@code tryLock} waits at most its timeout in all, for the writer ahead and then for
     * the readers in (Lock.tryLock: "if the lock is not available ... within the given waiting time ... returns
     * false"; the class javadoc: both views have timed acquisition): w holds the write lock, a reader r is
     * counted behind it, and a timed write {@code tryLock(20 ms)} (virtual time) waits in the writers'
     * {@code Mutex}. Once 15 ms have passed, w unlocks: r is let in and keeps the read lock until the waiter
     * returns, and the waiter, now next in line, waits for r. It must return {@code false} once its 20 ms have
     * run out, not wait another 20 ms for r; r's read lock held throughout, it cannot have the lock. Every other
     * thread waits on a timed wait of 10 s meanwhile, so the clock jumps to the waiter's deadline: it returns
     * within a few scheduling steps of it.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedWriteTryLockWaitsItsTimeoutInAllForTheWriterAheadAndTheReaders() throws InterruptedException {
        RWMutex rw = new RWMutex();
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        AtomicLong waiterStart = new AtomicLong();
        AtomicLong waited = new AtomicLong(-1);
        AtomicBoolean acquired = new AtomicBoolean();
        CountDownLatch waiterDone = new CountDownLatch(1);
        rw.writeLock().lock();
        Thread reader = start("reader", () -> {
            rw.readLock().lock();
            try {
                assertTrue(waiterDone.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the waiter never returned");
            } finally {
                rw.readLock().unlock();
            }
        });
        untilParked(reader);
        Thread waiter = start("timed write tryLock", () -> {
            waiterStart.set(System.nanoTime()); // its deadline is later
            try {
                if (rw.writeLock().tryLock(timeout, TimeUnit.NANOSECONDS)) {
                    acquired.set(true);
                    rw.writeLock().unlock();
                }
                waited.set(System.nanoTime() - waiterStart.get());
            } finally {
                waiterDone.countDown();
            }
        });
        untilParked(waiter);
        until("15 ms of the waiter's timeout pass", () -> System.nanoTime() - waiterStart.get() > TimeUnit.MILLISECONDS.toNanos(15));
        rw.writeLock().unlock(); // lets the reader in; the waiter goes on to wait for it
        join(waiter, reader);
        assertFalse(acquired.get(), () -> "the timed write tryLock got the lock while a reader held it: " + rw);
        assertTrue(waited.get() < TimeUnit.MILLISECONDS.toNanos(26), () -> "the timed write tryLock(20 ms) returned after "
                + waited.get() / 1_000 + " µs of virtual time: " + rw);
        assertFree(rw);
    }

    /**
     * A read {@code unlock()} without a read lock, while a writer waits for the lock or holds it: the class javadoc,
     * "Unlocking a lock that is not held throws {@link IllegalMonitorStateException} ({@code "RUnlock of unlocked
     * RWMutex"} for the read lock) and changes nothing". The main thread holds one read lock; two threads each
     * unlock the read lock once (one of them a misuse), racing a writer that locks and then holds the lock until
     * both have returned (the second unlock lands before the writer's arrival, while it waits for the reader, or
     * while it holds the lock). Invariant: exactly one of the two unlocks throws, the writer gets the lock and
     * unlocks it without a throw, and the lock ends free. Coverage review 24, mutant RW-M1 ({@code readUnlock}
     * throwing only when {@code readerCount} is 0, so that a read unlock while a writer holds the lock lowers the
     * word instead): survived every other test of this class, and this one failed at its first iteration.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aReadUnlockWithoutAReadLockThrowsAndChangesNothingBesideAWriter() throws InterruptedException {
        RWMutex rw = new RWMutex();
        AtomicInteger threw = new AtomicInteger();
        AtomicBoolean writerHadIt = new AtomicBoolean();
        CountDownLatch unlocked = new CountDownLatch(2);
        rw.readLock().lock();
        FrayThreads.Body unlock = () -> {
            try {
                rw.readLock().unlock();
            } catch (IllegalMonitorStateException e) {
                assertEquals("RUnlock of unlocked RWMutex", e.getMessage());
                threw.incrementAndGet();
            } finally {
                unlocked.countDown();
            }
        };
        Thread writer = start("writer", () -> {
            rw.writeLock().lock();
            writerHadIt.set(true);
            try {
                assertTrue(unlocked.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                        "the unlockers never returned");
            } finally {
                rw.writeLock().unlock();
            }
        });
        Thread u1 = start("unlocker 1", unlock);
        Thread u2 = start("unlocker 2", unlock);
        join(writer, u1, u2);
        assertEquals(1, threw.get(), () -> "two read unlocks of one read lock: " + threw.get() + " threw, " + rw);
        assertTrue(writerHadIt.get(), rw::toString);
        assertFree(rw);
    }

    /**
     * {@code readers()}: "the number of read locks held" ("the number of readers inside"), also while a writer
     * waits for them to leave. The main thread holds a read lock while a writer comes and waits for it, and reads
     * {@code readers()} before, during and after the writer's arrival: 1 each time; once it unlocks, the writer
     * gets the lock and {@code readers()} is 0. Coverage review 24, mutant RW-M2 ({@code readers()} returning 0
     * whenever a writer is pending): survived every other test of this class, and this one failed at its first
     * iteration.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void readersCountsTheReadLocksHeldWhileAWriterWaitsForThem() throws InterruptedException {
        RWMutex rw = new RWMutex();
        CountDownLatch writerIn = new CountDownLatch(1);
        rw.readLock().lock();
        Thread writer = start("writer", () -> {
            rw.writeLock().lock();
            try {
                assertEquals(0, rw.readers(), () -> "readers with the write lock held: " + rw);
                writerIn.countDown();
            } finally {
                rw.writeLock().unlock();
            }
        });
        assertEquals(1, rw.readers(), () -> "one read lock held, the writer on its way: " + rw);
        untilParked(writer);
        assertEquals(1, rw.readers(), () -> "one read lock held, the writer waiting for it: " + rw);
        assertEquals(1, writerIn.getCount(), "the writer got the lock while a read lock was held");
        rw.readLock().unlock();
        assertTrue(writerIn.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), rw::toString);
        join(writer);
        assertFree(rw);
    }

    /**
     * The read {@code tryLock()} "fails only if a writer holds the lock or waits for it" (the class javadoc): on a
     * lock no writer ever touches, readers that try at once all succeed, whatever the other readers' CASes on the
     * same word do meanwhile. Three threads each take the read lock by {@code tryLock()} and give it back, twice;
     * a fourth by {@code lock()} and {@code unlock()}. Every {@code tryLock()} returns {@code true}, and the
     * lock ends free. Coverage review 24, mutant RW-M4 ({@code readTryLock} returning the result of its first CAS,
     * {@code false} when another reader's CAS changed the word in between, instead of reading it again): survived
     * every other test of this class (each polls the read {@code tryLock()} until it succeeds, or expects
     * {@code false} behind a writer), and this one failed at its first iteration (2 calls failed).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void readTryLockFailsOnlyForAWriter() throws InterruptedException {
        RWMutex rw = new RWMutex();
        Lock read = rw.readLock();
        AtomicInteger failed = new AtomicInteger();
        FrayThreads.Body tryTwice = () -> {
            for (int i = 0; i < 2; i++) {
                if (read.tryLock()) {
                    read.unlock();
                } else {
                    failed.incrementAndGet();
                }
            }
        };
        Thread t1 = start("reader 1", tryTwice);
        Thread t2 = start("reader 2", tryTwice);
        Thread t3 = start("reader 3", tryTwice);
        Thread locker = start("locker", () -> {
            read.lock();
            read.unlock();
        });
        join(t1, t2, t3, locker);
        assertEquals(0, failed.get(), () -> failed.get() + " read tryLock() calls failed with no writer about: " + rw);
        assertFree(rw);
    }
}
