package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SpinLock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link SpinLock}, explored by Fray (whose yield is a scheduling point). */
@ExtendWith(FrayTestExtension.class)
class SpinLockFrayTest {
    /** Mutual exclusion by lock, tryLock, the timed tryLock and lockInterruptibly; the lock ends free. */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void mutualExclusion() throws InterruptedException {
        SpinLock lock = new SpinLock(2);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        FrayThreads.Body critical = () -> {
            assertEquals(1, inside.incrementAndGet(), "two threads hold the SpinLock");
            entries.incrementAndGet();
            inside.decrementAndGet();
            lock.unlock();
        };
        Thread a = start("lock", () -> {
            lock.lock();
            critical.run();
            lock.lockInterruptibly();
            critical.run();
        });
        Thread b = start("tryLock", () -> {
            while (!lock.tryLock()) {
                Thread.yield();
            }
            critical.run();
        });
        Thread c = start("timed tryLock", () -> {
            assertTrue(lock.tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "timed out");
            critical.run();
        });
        join(a, b, c);
        assertEquals(4, entries.get());
        assertFalse(lock.isLocked());
    }

    /**
     * An interrupt that comes while lock() spins is kept: the thread gets the lock and returns with its
     * interrupt status set. lockInterruptibly() throws and holds nothing, or (the lock freed as the interrupt
     * came) holds the lock with the interrupt status still set. The holder keeps the lock until both
     * interrupts are sent.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void interruptWhileSpinning() throws InterruptedException {
        SpinLock lock = new SpinLock(2);
        lock.lock();
        Thread uninterruptible = start("lock", () -> {
            lock.lock();
            assertTrue(Thread.interrupted(), "the interrupt was lost");
            lock.unlock();
        });
        Thread interruptible = start("lockInterruptibly", () -> {
            try {
                lock.lockInterruptibly(); // may win the lock freed after the interrupt: Lock allows either
                assertTrue(Thread.interrupted(), "acquired, and the interrupt was lost");
                lock.unlock();
            } catch (InterruptedException expected) {
                // holds nothing
            }
        });
        Thread interrupter = start("interrupter", () -> {
            uninterruptible.interrupt();
            interruptible.interrupt();
        });
        interrupter.join();
        lock.unlock();
        join(uninterruptible, interruptible);
        assertFalse(lock.isLocked(), lock::toString);
    }

    /**
     * The timed {@code tryLock} "@throws InterruptedException if the current thread is interrupted before or
     * while spinning": a thread spins in {@code tryLock(10 s)} on a lock held until it ends, and another
     * thread interrupts it, before or during the spin. It throws {@code InterruptedException}, holding nothing,
     * rather than spinning on until its timeout.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptEndsTheTimedSpin() throws InterruptedException {
        SpinLock lock = new SpinLock(2);
        lock.lock();
        Thread spinner = start("timed tryLock", () -> assertThrows(InterruptedException.class,
                () -> lock.tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the timed tryLock spun through an interrupt"));
        Thread interrupter = start("interrupter", spinner::interrupt);
        join(interrupter, spinner);
        assertTrue(lock.isLocked(), lock::toString);
        lock.unlock();
        assertFalse(lock.isLocked(), lock::toString);
    }

    /**
     * {@code lockInterruptibly()} "acquires the lock unless the current thread is interrupted, in which case it stops
     * spinning and throws": a thread spins in {@code lockInterruptibly()} on a lock held until it ends, and another
     * thread interrupts it, before or during the spin. It throws {@code InterruptedException}, holding nothing,
     * rather than spinning on with its status set until the lock comes free ({@code interruptWhileSpinning} frees the
     * lock after the interrupt, where an acquisition with the status kept passes too). Coverage review 12, mutant
     * SL-1: the check after each backoff made only by the timed wait.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptEndsTheInterruptibleSpin() throws InterruptedException {
        SpinLock lock = new SpinLock(2);
        lock.lock();
        AtomicInteger acquired = new AtomicInteger();
        Thread spinner = start("lockInterruptibly", () -> {
            try {
                lock.lockInterruptibly();
                acquired.incrementAndGet(); // the lock is held until this thread ends: never
            } catch (InterruptedException expected) {
                assertFalse(Thread.currentThread().isInterrupted(), "the status was not cleared");
            }
        });
        Thread interrupter = start("interrupter", spinner::interrupt);
        join(interrupter, spinner);
        assertEquals(0, acquired.get(), "lockInterruptibly() spun through an interrupt and took the lock");
        assertTrue(lock.isLocked(), lock::toString);
        lock.unlock();
        assertFalse(lock.isLocked(), lock::toString);
    }

    /**
     * The timed {@code tryLock} "stops yielding at its deadline" (class javadoc: a large {@code maxBackoff} delays
     * the next attempt only, not the end of the wait): on a {@code SpinLock(1 << 20)} held by the test thread, a
     * {@code tryLock(20 ms)} returns {@code false} within 23 ms of virtual time, while the test thread reads the
     * clock at each step (0.1 ms a read) as it polls for the spinner's return. Coverage review 16, mutant SL-D
     * ({@code backOff} without its look at the deadline: the last backoff of some hundreds of yields runs on past
     * it).
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedSpinEndsAtItsDeadlineWhateverTheBackoff() throws InterruptedException {
        SpinLock lock = new SpinLock(1 << 20);
        lock.lock();
        AtomicLong took = new AtomicLong(-1);
        AtomicInteger acquired = new AtomicInteger();
        Thread spinner = start("timed tryLock", () -> {
            long before = System.nanoTime();
            boolean got = lock.tryLock(20, TimeUnit.MILLISECONDS);
            long spun = System.nanoTime() - before;
            if (got) {
                acquired.incrementAndGet();
            }
            took.set(spun);
        });
        FrayThreads.until("the timed tryLock returns", () -> System.nanoTime() != 0L && took.get() >= 0L);
        join(spinner);
        assertEquals(0, acquired.get(), "the timed tryLock took a held lock");
        assertTrue(took.get() < TimeUnit.MILLISECONDS.toNanos(23),
                () -> "tryLock(20 ms) spun for " + took.get() / 1_000 + " µs");
        lock.unlock();
        assertFalse(lock.isLocked(), lock::toString);
    }
}
