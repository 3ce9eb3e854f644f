package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import io.ants4j.primitives.Mutex;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link Mutex}, explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class MutexFrayTest {
    /** Mutual exclusion: at most one thread is ever between a lock and its unlock, by lock, tryLock or the timed tryLock. */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void mutualExclusion() throws InterruptedException {
        Mutex m = new Mutex();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        FrayThreads.Body critical = () -> {
            assertEquals(1, inside.incrementAndGet(), "two threads hold the Mutex");
            entries.incrementAndGet();
            inside.decrementAndGet();
            m.unlock();
        };
        Thread a = start("lock", () -> {
            for (int i = 0; i < 2; i++) {
                m.lock();
                critical.run();
            }
        });
        Thread b = start("tryLock", () -> {
            for (int i = 0; i < 2; i++) {
                while (!m.tryLock()) {
                    Thread.yield();
                }
                critical.run();
            }
        });
        Thread c = start("timed tryLock", () -> {
            for (int i = 0; i < 2; i++) {
                assertTrue(m.tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "timed out");
                critical.run();
            }
        });
        join(a, b, c);
        assertEquals(6, entries.get());
        assertEquals(false, m.isLocked(), m::toString);
    }

    /**
     * {@code tryLock()} acquires a free lock (Lock.tryLock: "acquires the lock if it is free at the time of
     * invocation"). A waiter that times out, or is woken by the unlock, changes the state word under a
     * concurrent tryLock; that must not make it fail. The only thread that can take the lock besides the
     * probe is the waiter, which keeps it: so if the lock is free before the probe's tryLock() and still
     * free after it returned false, it was free all along, and false was wrong (issue 25, defect 7).
     */
    @FrayTest(iterations = 500 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void tryLockAcquiresAFreeLock() throws InterruptedException {
        tryLockOnAFreeLock();
    }

    /** The schedule in which Fray found issue 25's defect 7 (iteration 2 of tryLockAcquiresAFreeLock). */
    @FrayTest(replay = "classpath:fray-recordings/MutexFrayTest/tryLockAcquiresAFreeLock", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void tryLockAcquiresAFreeLockReplay() throws InterruptedException {
        tryLockOnAFreeLock();
    }

    private static void tryLockOnAFreeLock() throws InterruptedException {
        Mutex m = new Mutex();
        m.lock();
        Thread waiter = start("waiter", () -> m.tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS)); // keeps it
        untilParked(waiter);
        Thread unlocker = start("unlocker", m::unlock);
        Thread probe = start("probe", () -> {
            if (!m.isLocked()) {
                boolean acquired = m.tryLock();
                assertTrue(acquired || m.isLocked(), () -> "tryLock() returned false on a free lock: " + m);
                if (acquired) {
                    m.unlock();
                }
            }
        });
        join(unlocker, probe, waiter);
    }

    /**
     * No lost wake-up when a waiter gives up: a waiter that times out or is interrupted leaves without
     * taking the wake-up meant for another, and an interrupted one handed the lock as it gives up keeps it (the
     * timed one's result is not checked here: see aStarvingTimedWaiterHandedTheLockAsItTimesOutKeepsIt). The holder unlocks while one waiter's 1 ms runs out (virtual time: every nanoTime() call
     * advances it) and another is interrupted; the lock() waiter must get the lock.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void waiterThatGivesUpPassesTheWakeUpOn() throws InterruptedException {
        Mutex m = new Mutex();
        m.lock();
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread timed = start("timed", () -> {
            if (m.tryLock(1, TimeUnit.MILLISECONDS)) {
                m.unlock();
            }
        });
        Thread interrupted = start("interrupted", () -> {
            try {
                m.lockInterruptibly();
                try { // an interrupt that lost to the lock is set again
                    until("the interrupt is sent", interruptSent::get);
                    assertTrue(Thread.interrupted(), "lockInterruptibly() returned the lock without the interrupt status");
                } finally {
                    m.unlock();
                }
            } catch (InterruptedException expected) {
                // gave up: holds nothing
            }
        });
        Thread patient = start("patient", () -> {
            m.lock();
            m.unlock();
        });
        untilParked(interrupted);
        untilParked(patient);
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        m.unlock();
        join(interrupter, timed, interrupted, patient);
        assertEquals(false, m.isLocked(), m::toString);
    }

    /**
     * A timed waiter woken as its timeout runs out passes the wake-up on (the class javadoc: "A thread ... whose
     * {@link Mutex#tryLock(long, TimeUnit)} times out, leaves the queue without taking a wake-up meant for
     * another: if {@code unlock} had already chosen it, the wake-up goes to the next waiter"), in normal mode:
     * "timed" waits 20 ms (virtual time) in {@code tryLock}, "patient" in {@code lock()} behind it. The holder
     * waits until timed's timeout has run out and unlocks, which wakes timed if it is still queued, racing its
     * leaving. Patient must get the lock whatever timed did (a wake-up kept by a leaver leaves it asleep, which
     * the bound of the join reports); the lock ends free. waiterThatGivesUpPassesTheWakeUpOn's 1 ms waiter
     * mostly times out before the unlock, so it missed a leaver that keeps the wake-up.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedWaiterWokenAsItTimesOutPassesTheWakeUpOn() throws InterruptedException {
        Mutex m = new Mutex();
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        AtomicLong timedStart = new AtomicLong();
        m.lock();
        Thread timed = start("timed", () -> {
            timedStart.set(System.nanoTime()); // its deadline is later
            if (m.tryLock(timeout, TimeUnit.NANOSECONDS)) {
                m.unlock();
            }
        });
        untilParked(timed);
        Thread patient = start("patient", () -> {
            m.lock();
            m.unlock();
        });
        untilParked(patient);
        until("timed's timeout runs out", () -> System.nanoTime() - timedStart.get() >= timeout);
        m.unlock(); // wakes timed if it is still queued, else patient
        join(timed, patient);
        assertFalse(m.isLocked(), m::toString);
    }

    /**
     * Starvation mode: a waiter that has waited over 1 ms and is beaten to the lock once more gets it at the
     * next unlock, handed to it as the head of the queue; no tryLock takes it first. The holder lets over 1 ms
     * of virtual time pass, unlocks, and takes the lock back at once when it can; once the woken waiter has
     * queued again (starving), the holder unlocks and tries again: it may get the lock only after the waiter.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStarvingWaiterGetsTheNextUnlock() throws InterruptedException {
        Mutex m = new Mutex();
        AtomicBoolean waiterHeld = new AtomicBoolean();
        m.lock();
        Thread waiter = startWaiterThatLocksOnce(m, waiterHeld);
        untilParked(waiter);
        long parked = System.nanoTime();
        until("over 1 ms passes", () -> System.nanoTime() - parked > TimeUnit.MILLISECONDS.toNanos(2));
        m.unlock(); // wakes the waiter
        if (m.tryLock()) { // beat it, unless it came and went: it finds the lock held after waiting over 1 ms
            until("the waiter has had the lock or queues again",
                    () -> waiterHeld.get() || m.toString().endsWith("waiters=1]"));
            m.unlock(); // hands the lock to the waiter
            if (m.tryLock()) {
                assertTrue(waiterHeld.get(), () -> "a tryLock took the lock before the starving waiter: " + m);
                m.unlock();
            }
        }
        join(waiter);
        assertFalse(m.isLocked(), m::toString);
    }

    /**
     * Starvation mode ends with a hand-off to a waiter that has not starved (the class javadoc: "The lock returns
     * to normal mode when the waiter that receives it is the last one, or has waited less than 1 ms"), here one
     * that is not the last. "starved" starves as in aStarvingWaiterGetsTheNextUnlock and is queued again at the
     * front, the lock in starvation mode; then "fresh" and "behind" queue at the tail, in that order. The holder
     * unlocks: a hand-off to starved, which keeps starvation mode (it starved, and two still wait) and unlocks at
     * once: a hand-off to fresh. Fresh has waited under 1 ms (virtual time: it reads the clock before it calls
     * lock() and after it returns, and the only clock readings between are the lock's own, fresh's and
     * behind's), and behind still waits; so while fresh holds the lock, the lock must be in normal mode. Then
     * behind gets the lock, the last one; the lock ends free and in normal mode (tryLock succeeds). Only the
     * holder, starved, fresh and behind touch the lock, so nothing can turn starvation mode on again while fresh
     * holds it. If starved is not beaten (it took the lock as the holder unlocked), the scenario does not arise
     * and the run checks only that everyone gets the lock.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, virtualTimeDelta = 1_000, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aHandOffToAWaiterThatWaitedUnder1MsEndsStarvationMode() throws InterruptedException {
        Mutex m = new Mutex();
        AtomicBoolean starvedHeld = new AtomicBoolean();
        AtomicLong freshWait = new AtomicLong(-1);
        AtomicBoolean freshSawStarving = new AtomicBoolean();
        m.lock();
        Thread starved = start("starved", () -> {
            m.lock();
            starvedHeld.set(true);
            m.unlock();
        });
        untilParked(starved);
        long parked = System.nanoTime();
        until("over 1 ms passes", () -> System.nanoTime() - parked > TimeUnit.MILLISECONDS.toNanos(2));
        m.unlock(); // wakes starved
        if (!m.tryLock()) { // starved came and went, or holds the lock: no starvation mode
            join(starved);
            assertFalse(m.isLocked(), m::toString);
            return;
        }
        until("starved has had the lock or queues again",
                () -> starvedHeld.get() || m.toString().endsWith("waiters=1]") && starved.getState() == Thread.State.WAITING);
        boolean starving = m.toString().contains("starving");
        Thread fresh = start("fresh", () -> {
            long before = System.nanoTime();
            m.lock();
            long waited = System.nanoTime() - before;
            freshSawStarving.set(m.toString().contains("starving"));
            freshWait.set(waited);
            m.unlock();
        });
        untilParked(fresh);
        Thread behind = start("behind", () -> {
            m.lock();
            m.unlock();
        });
        untilParked(behind);
        m.unlock(); // a hand-off to starved if it starves, which hands the lock on to fresh
        join(starved, fresh, behind);
        if (starving && freshWait.get() < TimeUnit.MILLISECONDS.toNanos(1)) {
            assertFalse(freshSawStarving.get(), () -> "a hand-off to a waiter that waited " + freshWait.get()
                    + " ns, others still waiting, left the lock in starvation mode: " + m);
        }
        assertTrue(m.tryLock(), () -> "the lock stayed held or in starvation mode after every waiter had it: " + m);
        m.unlock();
    }

    /**
     * A starving waiter interrupted as the lock is handed to it: if ownership was handed to it first it keeps the
     * lock (lockInterruptibly returns normally with the interrupt status set again), else it leaves holding
     * nothing; either way the lock returns to normal mode, the waiter being the last one. The waiter starves as in aStarvingWaiterGetsTheNextUnlock; the holder's last unlock, the hand-off,
     * races the waiter's interrupt. Afterwards tryLock() (which fails in starvation mode) and lock() succeed.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStarvingInterruptibleWaiterKeepsTheHandOff() throws InterruptedException {
        Mutex m = new Mutex();
        AtomicBoolean waiterHeld = new AtomicBoolean();
        AtomicBoolean waiterDone = new AtomicBoolean();
        AtomicBoolean interruptSent = new AtomicBoolean();
        m.lock();
        Thread waiter = start("waiter", () -> {
            try {
                m.lockInterruptibly();
                waiterHeld.set(true);
                until("the interrupt is sent", interruptSent::get);
                assertTrue(Thread.interrupted(), () -> "lockInterruptibly() returned without the interrupt status: " + m);
                m.unlock();
            } catch (InterruptedException gaveUp) {
                // holds nothing: the lock is free once the holder unlocked (checked below)
            } finally {
                waiterDone.set(true);
            }
        });
        untilParked(waiter);
        long parked = System.nanoTime();
        until("over 1 ms passes", () -> System.nanoTime() - parked > TimeUnit.MILLISECONDS.toNanos(2));
        m.unlock(); // wakes the waiter
        boolean beat = m.tryLock(); // beat it, unless it came and went: it finds the lock held after waiting over 1 ms
        if (beat) {
            until("the waiter has had the lock, queues again or gave up",
                    () -> waiterHeld.get() || waiterDone.get() || m.toString().endsWith("waiters=1]"));
        }
        Thread interrupter = start("interrupter", () -> {
            waiter.interrupt();
            interruptSent.set(true);
        });
        if (beat) {
            m.unlock(); // hands the lock to the starving waiter, racing its interrupt
        }
        join(waiter, interrupter);
        assertTrue(m.tryLock(), () -> "the lock stayed held or in starvation mode after the waiter left: " + m);
        m.unlock();
        Thread locker = start("locker", () -> {
            m.lock();
            m.unlock();
        });
        join(locker);
        assertFalse(m.isLocked(), m::toString);
    }

    /**
     * Waiters are served in arrival order (the class javadoc: "in normal mode waiters queue in FIFO order", a
     * woken waiter that loses "is queued again at the front", and starvation mode hands the lock "to the waiter
     * at the head of the queue"; README: "sleeps FIFO"): "first" queues, then "second". The holder unlocks, which
     * wakes first, and takes the lock back at once when it can; if it beat first, it waits until first is back
     * in the queue (counted and parked: the count alone would include it on its way to the queue, where a
     * release goes to the head there is, second) and unlocks again, a wake-up in normal mode or, first having
     * waited over 1 ms (virtual time), a hand-off in starvation mode. Either way first holds the lock before
     * second.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void waitersAreServedInArrivalOrder() throws InterruptedException {
        Mutex m = new Mutex();
        AtomicBoolean firstHeld = new AtomicBoolean();
        m.lock();
        Thread first = start("first", () -> {
            m.lock();
            firstHeld.set(true);
            m.unlock();
        });
        untilParked(first);
        Thread second = start("second", () -> {
            m.lock();
            assertTrue(firstHeld.get(), () -> "a later waiter got the lock before the one queued first: " + m);
            m.unlock();
        });
        untilParked(second);
        m.unlock(); // wakes first
        if (m.tryLock()) { // beat it, unless it came and went
            until("first has had the lock or is queued again", () -> firstHeld.get()
                    || m.toString().endsWith("waiters=2]") && first.getState() == Thread.State.WAITING);
            m.unlock();
        }
        join(first, second);
        assertFalse(m.isLocked(), m::toString);
    }

    /** {@code lock()} waits through an interrupt and returns holding the lock with the interrupt status set. */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void lockKeepsAnInterrupt() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        FrayThreads.interruptKeptThroughAnUninterruptibleWait(() -> {
            m.lock();
            m.unlock();
        }, m::unlock);
        assertFalse(m.isLocked(), m::toString);
    }

    /**
     * The timed {@code tryLock} "@throws InterruptedException if the current thread is interrupted before or
     * while waiting": a thread waits in {@code tryLock(10 s)} on a lock held until it ends, and another thread
     * interrupts it, before or during the wait. It throws {@code InterruptedException}, holding nothing, rather
     * than waiting on until its timeout; the holder's unlock then leaves the lock free.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptEndsTheTimedWait() throws InterruptedException {
        Mutex m = new Mutex();
        m.lock();
        Thread waiter = start("timed tryLock", () -> assertThrows(InterruptedException.class,
                () -> m.tryLock(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "the timed tryLock waited through an interrupt"));
        Thread interrupter = start("interrupter", waiter::interrupt);
        join(interrupter, waiter);
        m.unlock();
        assertTrue(m.tryLock(), () -> "the interrupted waiter left the lock held: " + m);
        m.unlock();
    }

    /**
     * A starving timed waiter whose timeout runs out as the lock is handed to it: "if ownership had already
     * been handed to it, it keeps the lock" ({@code tryLock(time, unit)} returns {@code true}); else it leaves
     * holding nothing. The waiter starves as in aStarvingWaiterGetsTheNextUnlock, with a 20 ms timeout
     * (virtual time); the holder, beating it once, waits until that timeout has run out and unlocks, handing
     * the lock to the waiter if it is still queued. The lock seen held after that unlock is the waiter's (no
     * other thread locks it): its {@code tryLock} must then return {@code true}.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aStarvingTimedWaiterHandedTheLockAsItTimesOutKeepsIt() throws InterruptedException {
        Mutex m = new Mutex();
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        AtomicLong waiterStart = new AtomicLong();
        AtomicBoolean waiterHeld = new AtomicBoolean();
        AtomicBoolean waiterDone = new AtomicBoolean();
        AtomicBoolean acquired = new AtomicBoolean();
        m.lock();
        Thread waiter = start("waiter", () -> {
            waiterStart.set(System.nanoTime()); // its deadline is later
            if (m.tryLock(timeout, TimeUnit.NANOSECONDS)) {
                acquired.set(true);
                waiterHeld.set(true);
                m.unlock();
            }
            waiterDone.set(true);
        });
        untilParked(waiter);
        long parked = System.nanoTime();
        until("over 1 ms passes", () -> System.nanoTime() - parked > TimeUnit.MILLISECONDS.toNanos(2));
        m.unlock(); // wakes the waiter
        boolean heldAfterTheHandOff = false;
        if (m.tryLock()) { // beat it, unless it came and went: it finds the lock held after waiting over 1 ms
            until("the waiter has had the lock, queues again or gave up",
                    () -> waiterHeld.get() || waiterDone.get() || m.toString().endsWith("waiters=1]"));
            until("the waiter's timeout runs out", () -> System.nanoTime() - waiterStart.get() >= timeout);
            m.unlock(); // hands the lock to the starving waiter, racing its timeout
            heldAfterTheHandOff = m.isLocked();
        }
        join(waiter);
        if (heldAfterTheHandOff) {
            assertTrue(acquired.get(), () -> "the timed waiter was handed the lock and returned false: " + m);
        }
        assertTrue(m.tryLock(), () -> "the lock stayed held or in starvation mode after the waiter left: " + m);
        m.unlock();
    }

    /**
     * A waiter's wait is counted from its first sleep, across its wake-ups: the class javadoc's "Once a waiter has
     * waited longer than 1 ms and is beaten again, the lock switches to starvation mode", and the notes' "A waiter
     * woken in normal mode that loses ... queues at the front, keeping the start of its wait for the starvation
     * threshold" (Go's lockSlow sets waitStartTime once). The holder lets about 0.45 ms pass (virtual time, 1 µs a
     * step), unlocks, which wakes the waiter, and beats it with tryLock(), round after round: no single sleep lasts
     * 1 ms, the whole wait does by the third round. Once the waiter, woken after over 1 ms since it first parked,
     * has been beaten and queued again, the lock must be starving; the next unlock hands it the lock, and tryLock()
     * fails until the waiter has had it. If the waiter takes the lock in some round, the scenario ends there.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, virtualTimeDelta = 1_000, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWaiterBeatenAfterEachShortSleepStarvesOnItsWholeWait() throws InterruptedException {
        Mutex m = new Mutex();
        AtomicBoolean waiterHeld = new AtomicBoolean();
        m.lock();
        Thread waiter = startWaiterThatLocksOnce(m, waiterHeld);
        untilParked(waiter);
        long parked = System.nanoTime(); // the waiter's wait began before this
        boolean starved = false;
        boolean held = true;
        for (int round = 0; round < 4 && !starved; round++) {
            long mark = System.nanoTime();
            until("0.45 ms passes", () -> System.nanoTime() - mark > TimeUnit.MICROSECONDS.toNanos(450));
            boolean over1Ms = System.nanoTime() - parked > TimeUnit.MICROSECONDS.toNanos(1_050);
            m.unlock(); // wakes the waiter (or, starving, hands it the lock)
            if (!m.tryLock()) {
                held = false;
                break; // the waiter took the lock, or has it on its way
            }
            until("the waiter has had the lock or queues again", () -> waiterHeld.get()
                    || m.toString().endsWith("waiters=1]") && waiter.getState() == Thread.State.WAITING);
            if (waiterHeld.get()) {
                break;
            }
            starved = m.toString().contains("starving");
            if (over1Ms) {
                int r = round;
                assertTrue(starved, () -> "a waiter woken over 1 ms after it first parked (round " + r
                        + ") and beaten again left the lock in normal mode: " + m);
            }
        }
        if (held) {
            m.unlock(); // a hand-off if the waiter starves
        }
        if (held && starved && m.tryLock()) {
            assertTrue(waiterHeld.get(), () -> "a tryLock took the lock before the starving waiter: " + m);
            m.unlock();
        }
        join(waiter);
        assertTrue(waiterHeld.get(), m::toString);
        assertFalse(m.isLocked(), m::toString);
    }

    /**
     * The timed {@code tryLock} "gives up once the timeout elapses": one deadline for its whole wait, also when it is
     * woken and beaten and waits again. The holder keeps the lock 50 ms (virtual time) after the waiter's
     * {@code tryLock(100 ms)} parked, unlocks (waking it) and tries at once to take the lock back with
     * {@code tryLock()}; if it got it, it holds it until the waiter returns, waiting for it in a timed join (so that
     * the clock jumps to the waiter's deadline rather than past it, as this thread's reads would move it). Whether
     * the waiter got the lock first or was beaten and timed out, it returns within 130 ms of its call (Fray's clock
     * overshoots a deadline by up to some 10 ms; the mutant takes 150 ms or more). Coverage review 16, mutant MX-D
     * ({@code Mutex.acquire} giving a waiter woken and beaten its whole timeout again when it sleeps again).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedWaiterWokenAndBeatenGivesUpAtItsFirstDeadline() throws InterruptedException {
        Mutex m = new Mutex();
        long timeout = TimeUnit.MILLISECONDS.toNanos(100);
        AtomicLong took = new AtomicLong(-1);
        AtomicBoolean acquired = new AtomicBoolean();
        m.lock();
        Thread waiter = start("waiter", () -> {
            long before = System.nanoTime();
            boolean got = m.tryLock(timeout, TimeUnit.NANOSECONDS);
            long waited = System.nanoTime() - before;
            if (got) {
                acquired.set(true);
                m.unlock();
            }
            took.set(waited);
        });
        untilParked(waiter);
        long mark = System.nanoTime();
        until("50 ms pass", () -> System.nanoTime() - mark > TimeUnit.MILLISECONDS.toNanos(50));
        m.unlock(); // wakes the waiter
        boolean beaten = m.tryLock();
        join(waiter); // a timed wait: with every other thread waiting, the clock jumps to the waiter's deadline
        if (beaten) {
            m.unlock();
        }
        assertTrue(took.get() < TimeUnit.MILLISECONDS.toNanos(130), () -> "tryLock(100 ms), woken, returned "
                + acquired.get() + " after " + took.get() / 1_000 + " µs");
        assertFalse(m.isLocked(), m::toString);
    }

    /** Starts a thread that locks {@code m} (held by the caller), sets {@code waiterHeld} and unlocks. */
    private static Thread startWaiterThatLocksOnce(Mutex m, AtomicBoolean waiterHeld) {
        return start("waiter", () -> {
            m.lock();
            waiterHeld.set(true);
            m.unlock();
        });
    }
}
