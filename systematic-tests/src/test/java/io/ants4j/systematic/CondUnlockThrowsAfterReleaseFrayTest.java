package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.Cond;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * Review 49: Cond's newest failure path under every interleaving Fray finds. Cond.java:40-44 ("Wake-ups are never
 * lost [...] exactly one waiter consumes each signal that found one"); Cond.java:108-116: what the unlock of a
 * ReentrantLock "throws after it released the lock [...] is thrown with the lock held again"; a relock that throws
 * is "thrown as it is, and the lock is then not held (an interrupt the wait had taken in is set again, and the
 * thread is not left waiting)". "failing" awaits over a ReentrantLock whose unlock releases and then throws (once);
 * "patient" waits for a permit; the main thread gives one permit and one signal, and, in the second test, interrupts
 * the failing waiter too. Wherever the signal lands (the failing waiter's node, queued first or second, before or
 * after its unlock), patient must take the permit.
 */
@ExtendWith(FrayTestExtension.class)
class CondUnlockThrowsAfterReleaseFrayTest {
    private int permits;

    /** A ReentrantLock whose unlock by {@code failing} releases and then throws, once; its lock() then throws too if asked. */
    private static final class FailingLock extends ReentrantLock {
        volatile Thread failing;
        volatile boolean relockThrows;

        @Override
        public void unlock() {
            super.unlock();
            if (failing == Thread.currentThread()) {
                failing = null;
                throw new IllegalStateException("injected: unlock failed after releasing");
            }
        }

        @Override
        public void lock() {
            if (relockThrows && failing == null && Thread.currentThread().getName().equals("failing")) {
                relockThrows = false;
                throw new IllegalStateException("injected: relock failed");
            }
            super.lock();
        }
    }

    private void run(boolean relockThrows, boolean interrupt) throws InterruptedException {
        FailingLock lock = new FailingLock();
        Cond cond = new Cond(lock);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> heldAfter = new AtomicReference<>();
        Thread failing = start("failing", () -> {
            lock.lock();
            lock.failing = Thread.currentThread();
            lock.relockThrows = relockThrows;
            try {
                cond.await(5, TimeUnit.SECONDS);
            } catch (Throwable t) {
                thrown.set(t);
            }
            lock.failing = null; // an await that threw on entry (interrupted) never unlocked
            heldAfter.set(lock.isHeldByCurrentThread());
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
        });
        Thread patient = start("patient", () -> {
            lock.lock();
            try {
                while (permits == 0) {
                    cond.awaitUninterruptibly();
                }
                permits--;
            } finally {
                lock.unlock();
            }
        });
        lock.lock();
        permits++;
        lock.unlock();
        cond.signal();
        if (interrupt) {
            failing.interrupt();
        }
        join(failing, patient);
        assertEquals(0, permits, "the patient waiter did not take the permit");
        Throwable t = thrown.get();
        if (t instanceof IllegalStateException) { // the unlock threw, then maybe the relock
            assertEquals(!relockThrows || !t.getMessage().contains("relock"), heldAfter.get(),
                    "lock held after the failed wait: " + t);
        } else {
            assertTrue(t == null || t instanceof InterruptedException, "the failing wait threw " + t);
        }
        assertFalse(patient.isAlive());
        assertTrue(true);
    }

    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSignalIsNotLostWhenAWaitersUnlockThrowsAfterReleasing() throws InterruptedException {
        run(false, false);
    }

    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSignalIsNotLostWhenAWaitersUnlockAndRelockThrowWhileItIsInterrupted() throws InterruptedException {
        run(true, true);
    }
}
