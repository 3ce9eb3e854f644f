package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.Mutex;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link Cond} (over a {@link Mutex}), explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class CondFrayTest {
    /** The state the waiters wait for: permits, guarded by the lock. */
    private int permits;

    /**
     * No lost wake-up when a waiter gives up: a signal that finds a waiter timing out (1 ms of virtual time) or
     * being interrupted goes to the next waiter, and one chosen first keeps it. One permit and one signal are
     * given while all three wait. If an impatient waiter took it, the main thread gives one more permit and
     * one more signal; otherwise the signal went to the patient waiter, directly or passed on, and it must
     * take the permit. No broadcast at the end: it would mask a lost signal.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSignalIsNeverLost() throws InterruptedException {
        Mutex lock = new Mutex();
        Cond cond = new Cond(lock);
        AtomicInteger taken = new AtomicInteger();
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread timed = start("timed", () -> {
            lock.lock();
            try {
                while (permits == 0) {
                    if (!cond.await(1, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                }
                permits--;
                taken.incrementAndGet();
            } finally {
                lock.unlock();
            }
        });
        Thread interrupted = start("interrupted", () -> {
            lock.lock();
            try {
                while (permits == 0) {
                    cond.await();
                }
                permits--;
                taken.incrementAndGet();
                // signalled first: an interrupt that came too ends the wait with its status set
                until("the interrupt is sent", interruptSent::get);
                assertTrue(Thread.interrupted(), "a signalled waiter returned without the interrupt status");
            } catch (InterruptedException gaveUp) {
                // holds the lock again, no permit
            } finally {
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
        untilParked(interrupted);
        untilParked(patient);
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        lock.lock();
        permits++;
        lock.unlock();
        cond.signal(); // without the lock: allowed
        join(interrupter, timed, interrupted);
        for (int i = 0; i < taken.get(); i++) { // else the one signal went to the patient waiter, or was passed on to it
            lock.lock();
            permits++;
            lock.unlock();
            cond.signal();
        }
        join(patient);
        assertEquals(0, permits);
    }

    /** signal() wakes the thread that has waited longest (FIFO), and only one. */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void signalWakesTheLongestWaiting() throws InterruptedException {
        Mutex lock = new Mutex();
        Cond cond = new Cond(lock);
        AtomicReference<String> firstWoken = new AtomicReference<>();
        AtomicInteger woken = new AtomicInteger();
        FrayThreads.Body waiter = () -> {
            lock.lock();
            try {
                cond.await();
                firstWoken.compareAndSet(null, Thread.currentThread().getName());
                woken.incrementAndGet();
            } finally {
                lock.unlock();
            }
        };
        Thread first = start("first", waiter);
        untilParked(first);
        Thread second = start("second", waiter);
        untilParked(second);
        cond.signal();
        until("a waiter returns", () -> woken.get() == 1);
        assertEquals("first", firstWoken.get(), "signal() woke a later waiter");
        cond.signal();
        join(first, second);
        assertEquals(2, woken.get());
    }

    /**
     * broadcast() wakes every thread waiting at the time of the call, and none that starts waiting afterwards;
     * no await returns without a wake-up (a timed await that nobody signals returns false).
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void broadcastWakesExactlyTheWaiters() throws InterruptedException {
        Mutex lock = new Mutex();
        Cond cond = new Cond(lock);
        AtomicBoolean broadcastDone = new AtomicBoolean();
        AtomicInteger waiting = new AtomicInteger();
        FrayThreads.Body waiter = () -> {
            lock.lock();
            try {
                waiting.incrementAndGet();
                assertTrue(cond.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the broadcast missed a waiter");
            } finally {
                lock.unlock();
            }
        };
        Thread first = start("first", waiter);
        Thread second = start("second", waiter);
        Thread late = start("late", () -> {
            until("the broadcast", broadcastDone::get);
            lock.lock();
            try {
                assertFalse(cond.await(1, TimeUnit.MILLISECONDS), "woken by a broadcast made before it waited");
            } finally {
                lock.unlock();
            }
        });
        until("both wait", () -> waiting.get() == 2);
        lock.lock(); // both counted themselves under the lock, and await released it only once queued
        lock.unlock();
        cond.broadcast();
        broadcastDone.set(true);
        join(first, second, late);
    }

    /**
     * broadcast() racing the waiters' await (Go's contract: it wakes every thread waiting at that moment, and a
     * later waiter is not woken by it). The broadcaster changes the state under the lock (a flag,
     * {@code handshake}), releases it and broadcasts, then sets {@code returned}; two waiters start at the same
     * time, each takes the lock, reads both flags and awaits. One that held the lock before the handshake was
     * queued before the broadcast: it must be woken (its await is untimed: a lost wake-up leaves it stuck, which
     * the bound of the join reports). One that saw {@code returned} started waiting after the broadcast: it must
     * not be woken (its 1 ms await times out, as nothing else signals). One in between queued while the
     * broadcast ran, before or after it took the queue: either outcome is right, and it must return.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void broadcastWakesTheWaitersQueuedBeforeItAndNoneAfter() throws InterruptedException {
        Mutex lock = new Mutex();
        Cond cond = new Cond(lock);
        AtomicBoolean handshake = new AtomicBoolean(); // written under the lock
        AtomicBoolean returned = new AtomicBoolean();
        FrayThreads.Body waiter = () -> {
            lock.lock();
            try {
                if (!handshake.get()) {
                    cond.await(); // queued before the broadcaster took the lock: the broadcast must wake it
                } else if (returned.get()) {
                    assertFalse(cond.await(1, TimeUnit.MILLISECONDS), "woken by a broadcast made before it waited");
                } else {
                    cond.await(1, TimeUnit.MILLISECONDS); // queued while the broadcast ran: woken or not
                }
            } finally {
                lock.unlock();
            }
        };
        Thread first = start("first", waiter);
        Thread second = start("second", waiter);
        Thread broadcaster = start("broadcaster", () -> {
            lock.lock();
            handshake.set(true);
            lock.unlock();
            cond.broadcast();
            returned.set(true);
        });
        join(broadcaster, first, second);
    }

    /**
     * {@code awaitUninterruptibly()} waits through an interrupt for the broadcast, and returns holding the
     * lock with the interrupt status set.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void awaitUninterruptiblyKeepsAnInterrupt() throws Exception {
        Mutex m = new Mutex();
        Cond cond = new Cond(m);
        AtomicBoolean ready = new AtomicBoolean();
        FrayThreads.interruptKeptThroughAnUninterruptibleWait(() -> {
            m.lock();
            try {
                while (!ready.get()) {
                    cond.awaitUninterruptibly();
                }
            } finally {
                m.unlock();
            }
        }, () -> {
            m.lock();
            ready.set(true);
            cond.broadcast();
            m.unlock();
        });
        assertFalse(m.isLocked(), m::toString);
    }
}
