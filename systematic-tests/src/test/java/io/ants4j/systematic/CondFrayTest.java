package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.Mutex;
import io.ants4j.primitives.RWMutex;
import io.ants4j.primitives.SpinLock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link Cond} (over a {@link Mutex}) and of the locks' {@code Condition} views, explored by Fray. */
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

    /**
     * Misuse costs nobody else a wake-up (the javadoc of {@code await}: a caller that does not hold the lock "is
     * then not left waiting"; "wake-ups are never lost"): "misuser" calls {@code await()} without holding the
     * {@code ReentrantLock}, whose {@code unlock()} then throws; "patient" waits for a permit. The two queue in
     * either order, and the misuser's {@code unlock()} throws only once the permit's {@code signal()} has been
     * sent: if it picked the misuser, queued first, the signal must be passed on to the patient, which must take
     * the permit (else it stays asleep, which the bound of the join reports). The misuser gets
     * {@code IllegalMonitorStateException} and returns.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSignalThatPickedAMisuserIsPassedOn() throws InterruptedException {
        AtomicBoolean misuserUnlocking = new AtomicBoolean();
        AtomicBoolean signalSent = new AtomicBoolean();
        ReentrantLock lock = new ReentrantLock() {
            @Override
            public void unlock() {
                if (!isHeldByCurrentThread()) { // the misuser, queued on the Cond: hold it there until the signal
                    misuserUnlocking.set(true);
                    until("the signal is sent", signalSent::get);
                }
                super.unlock();
            }
        };
        Cond cond = new Cond(lock);
        Thread misuser = start("misuser", () -> {
            assertThrows(IllegalMonitorStateException.class, cond::await, "await() without the lock");
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
        until("the misuser is queued", misuserUnlocking::get);
        untilParked(patient);
        lock.lock();
        permits++;
        lock.unlock();
        cond.signal();
        signalSent.set(true);
        join(misuser, patient);
        assertEquals(0, permits);
    }

    /**
     * A broadcast that picked a misuser is not passed on (the class javadoc: "{@link Cond#broadcast} wakes exactly
     * the threads waiting at the time of the call, none that start waiting afterwards"; the implementation notes:
     * "a broadcast must not be passed on to a waiter that arrived after it"). "misuser" calls {@code await()}
     * without holding the {@code ReentrantLock} and is held in its throwing {@code unlock()} while queued; the
     * broadcast marks it; only then does "late" start waiting; the misuser's {@code unlock()} then throws and it
     * leaves. A misuser that passed the broadcast on as if it were a signal would wake late, which returns before
     * the signal of its own that the main thread sends only once the misuser has returned.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aBroadcastThatPickedAMisuserIsNotPassedOnToALaterWaiter() throws InterruptedException {
        AtomicBoolean misuserUnlocking = new AtomicBoolean();
        AtomicBoolean broadcastSent = new AtomicBoolean();
        AtomicBoolean ownSignalSent = new AtomicBoolean();
        ReentrantLock lock = new ReentrantLock() {
            @Override
            public void unlock() {
                if (!isHeldByCurrentThread()) { // the misuser, queued on the Cond: hold it there until late waits
                    misuserUnlocking.set(true);
                    until("late waits after the broadcast", broadcastSent::get);
                }
                super.unlock();
            }
        };
        Cond cond = new Cond(lock);
        Thread misuser = start("misuser", () -> {
            assertThrows(IllegalMonitorStateException.class, cond::await, "await() without the lock");
        });
        until("the misuser is queued", misuserUnlocking::get);
        cond.broadcast();
        Thread late = start("late", () -> {
            lock.lock();
            try {
                cond.awaitUninterruptibly();
                assertTrue(ownSignalSent.get(), "woken by a broadcast made before it waited");
            } finally {
                lock.unlock();
            }
        });
        untilParked(late);
        broadcastSent.set(true);
        join(misuser);
        ownSignalSent.set(true);
        cond.signal();
        join(late);
    }

    /**
     * A timed waiter chosen by a signal as its timeout runs out returns {@code true} (the class javadoc: "a waiter
     * chosen first returns normally"; {@code await(timeout)}: "{@code true} if signalled"), or else it was not
     * chosen and the signal goes on to the next waiter: "exactly one waiter consumes each signal that found one".
     * "timed" waits 20 ms (virtual time), then "patient" waits behind it; once timed's timeout has run out, one
     * {@code signal()} races its leaving. If timed returns {@code false}, the signal found patient and wakes it;
     * if {@code true}, patient still waits for a signal of its own. A chosen timed waiter that reported a timeout
     * would leave patient asleep, which the bound of the join reports.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedWaiterSignalledAsItTimesOutReturnsTrue() throws InterruptedException {
        Mutex lock = new Mutex();
        Cond cond = new Cond(lock);
        long timeout = TimeUnit.MILLISECONDS.toNanos(20);
        AtomicLong timedStart = new AtomicLong();
        AtomicBoolean signalled = new AtomicBoolean();
        AtomicBoolean patientHoldsTheLock = new AtomicBoolean();
        Thread timed = start("timed", () -> {
            lock.lock();
            try {
                timedStart.set(System.nanoTime()); // its deadline is later
                signalled.set(cond.await(timeout, TimeUnit.NANOSECONDS));
            } finally {
                lock.unlock();
            }
        });
        untilParked(timed); // the lock is free: parked in the Cond
        Thread patient = start("patient", () -> {
            lock.lock();
            try {
                patientHoldsTheLock.set(true);
                cond.await();
            } finally {
                lock.unlock();
            }
        });
        until("patient waits in the Cond", // it held the lock, so its next park is in the Cond's await
                () -> patientHoldsTheLock.get() && patient.getState() == Thread.State.WAITING);
        until("timed's timeout runs out", () -> System.nanoTime() - timedStart.get() >= timeout);
        cond.signal(); // chooses timed if it is still queued, else patient
        join(timed);
        if (signalled.get()) {
            cond.signal(); // patient's own
        }
        join(patient);
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
     * The {@code Condition} views ({@code newCondition()} of {@link Mutex}, {@link SpinLock} and {@link RWMutex}'s
     * write lock: "FIFO wake-ups and no spurious wake-ups"): three threads wait in turn, by {@code await()},
     * {@code awaitUninterruptibly()} and {@code await()}; three {@code signal()}s, the first and the last under
     * the lock, the second without, each after the previous waiter returned. Each signal wakes the waiter that has
     * waited longest, and only it: a waiter that returns counts itself under the lock, and must find a signal
     * for it ({@code signals} is counted under the lock before each one).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void conditionViewsSignalTheLongestWaitingOnly() throws InterruptedException {
        signalWakesOneInArrivalOrder(new Mutex());
        signalWakesOneInArrivalOrder(new SpinLock());
        signalWakesOneInArrivalOrder(new RWMutex().writeLock());
    }

    private static void signalWakesOneInArrivalOrder(Lock lock) throws InterruptedException {
        Condition condition = lock.newCondition();
        AtomicInteger signals = new AtomicInteger(); // written under the lock
        List<String> woken = new CopyOnWriteArrayList<>(); // written under the lock
        Thread[] waiters = new Thread[3];
        for (int i = 0; i < waiters.length; i++) {
            boolean uninterruptibly = i == 1;
            waiters[i] = start("waiter " + i, () -> {
                lock.lock();
                try {
                    if (uninterruptibly) {
                        condition.awaitUninterruptibly();
                    } else {
                        condition.await();
                    }
                    woken.add(Thread.currentThread().getName());
                    assertTrue(woken.size() <= signals.get(),
                            () -> "woken without a signal: " + woken + " after " + signals + " signals, " + lock);
                } finally {
                    lock.unlock();
                }
            });
            untilParked(waiters[i]);
        }
        for (int i = 0; i < waiters.length; i++) {
            lock.lock();
            signals.incrementAndGet();
            if (i != 1) {
                condition.signal();
                lock.unlock();
            } else {
                lock.unlock();
                condition.signal(); // without the lock: allowed
            }
            int returned = i + 1;
            until("a waiter returns", () -> woken.size() >= returned);
            assertEquals(waiters[i].getName(), woken.get(i), () -> "signal() woke a later waiter: " + woken);
        }
        join(waiters);
        assertEquals(3, woken.size(), woken::toString);
    }

    /**
     * The timed waits of the {@code Condition} views ({@code newCondition()}: the {@link Condition} contract, "waiters
     * wake in FIFO order and never spuriously"): {@code awaitNanos} returns "an estimate of the nanosTimeout value
     * minus the time spent waiting ... A value less than or equal to zero indicates that no time remains";
     * {@code awaitUntil} returns "false if the deadline has elapsed upon return, else true"; {@code await(time,
     * unit)} "false if the waiting time detectably elapsed before return from the method, else true". A waiter
     * holding the lock makes the three timed waits of 1 ms in turn while a signaller signals twice, each signal
     * counted under the lock: a wait during which no signal was counted was not signalled (no spurious wake-up),
     * so it timed out and must say so; each wait returns holding the lock. Coverage review 25, mutants CC-N
     * ({@code CondCondition.awaitNanos} returning {@code nanosTimeout}, so an AQS-style
     * {@code while (!ready && nanos > 0) nanos = c.awaitNanos(nanos)} loop never ends) and CC-U
     * ({@code awaitUntil} returning true after its deadline): no other systematic test calls either method. The
     * three are called by reflection: Fray rewrites a call site of {@code Condition.awaitNanos} (and of the other
     * timed {@code Condition} waits) into its own model, an untimed {@code await()}, so a direct call never runs the
     * view's code (and, with no signal left, hangs the schedule).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void conditionViewsTimedWaitsSayWhenTheyTimedOut() throws InterruptedException {
        timedWaitsSayWhenTheyTimedOut(new Mutex());
        timedWaitsSayWhenTheyTimedOut(new SpinLock());
        timedWaitsSayWhenTheyTimedOut(new RWMutex().writeLock());
    }

    private static void timedWaitsSayWhenTheyTimedOut(Lock lock) throws InterruptedException {
        Condition condition = lock.newCondition();
        AtomicInteger signals = new AtomicInteger(); // written under the lock
        AtomicBoolean holding = new AtomicBoolean(); // written under the lock
        Thread waiter = start("waiter", () -> {
            lock.lock();
            try {
                int before = signals.get();
                long left = (long) invoke(condition, "awaitNanos", new Class<?>[] {long.class},
                        TimeUnit.MILLISECONDS.toNanos(1));
                assertFalse(holding.getAndSet(true), "awaitNanos returned without the lock");
                holding.set(false);
                if (signals.get() == before) {
                    assertTrue(left <= 0L, "awaitNanos timed out (no signal came) but says " + left + " ns remain");
                }
                before = signals.get();
                boolean beforeDeadline = (boolean) invoke(condition, "awaitUntil",
                        new Class<?>[] {java.util.Date.class}, new java.util.Date(System.currentTimeMillis() + 1L));
                assertFalse(holding.getAndSet(true), "awaitUntil returned without the lock");
                holding.set(false);
                if (signals.get() == before) {
                    assertFalse(beforeDeadline, "awaitUntil timed out (no signal came) but returned true");
                }
                before = signals.get();
                boolean inTime = (boolean) invoke(condition, "await", new Class<?>[] {long.class, TimeUnit.class},
                        1L, TimeUnit.MILLISECONDS);
                assertFalse(holding.getAndSet(true), "await(1 ms) returned without the lock");
                holding.set(false);
                if (signals.get() == before) {
                    assertFalse(inTime, "await(1 ms) timed out (no signal came) but returned true");
                }
            } finally {
                lock.unlock();
            }
        });
        Thread signaller = start("signaller", () -> {
            for (int i = 0; i < 2; i++) {
                lock.lock();
                try {
                    assertFalse(holding.getAndSet(true), "the signaller got the lock while the waiter held it");
                    holding.set(false);
                    signals.incrementAndGet();
                    condition.signal();
                } finally {
                    lock.unlock();
                }
            }
        });
        join(waiter, signaller);
    }

    /** Calls a method of the {@code Condition} interface by reflection (see above: not rewritten by Fray). */
    private static Object invoke(Condition condition, String name, Class<?>[] types, Object... args) throws Exception {
        try {
            return Condition.class.getMethod(name, types).invoke(condition, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw (Error) e.getCause();
        }
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

    /**
     * The {@code Condition} views' {@code signalAll()} ({@code newCondition()} of {@link Mutex}, {@link SpinLock}
     * and {@link RWMutex}'s write lock; {@code Condition.signalAll}: "Wakes up all waiting threads"): two
     * threads wait, by {@code await()} and {@code awaitUninterruptibly()}; one {@code signalAll()}, under the
     * lock for the first view and without it for the others, wakes both: both return.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void conditionViewsSignalAllWakesEveryWaiter() throws InterruptedException {
        signalAllWakesBoth(new Mutex(), true);
        signalAllWakesBoth(new SpinLock(), false);
        signalAllWakesBoth(new RWMutex().writeLock(), false);
    }

    private static void signalAllWakesBoth(Lock lock, boolean underTheLock) throws InterruptedException {
        Condition condition = lock.newCondition();
        AtomicBoolean signalled = new AtomicBoolean(); // set under the lock
        Thread[] waiters = new Thread[2];
        for (int i = 0; i < waiters.length; i++) {
            boolean uninterruptibly = i == 1;
            waiters[i] = start("waiter " + i, () -> {
                lock.lock();
                try {
                    if (uninterruptibly) {
                        condition.awaitUninterruptibly();
                    } else {
                        condition.await();
                    }
                    assertTrue(signalled.get(), () -> "woken without a signal: " + lock);
                } finally {
                    lock.unlock();
                }
            });
            untilParked(waiters[i]);
        }
        lock.lock();
        signalled.set(true);
        if (underTheLock) {
            condition.signalAll();
            lock.unlock();
        } else {
            lock.unlock();
            condition.signalAll();
        }
        join(waiters);
    }

    /**
     * {@code await()} "@throws InterruptedException if the thread is interrupted before being signalled (or was
     * interrupted on entry)": a thread interrupted before it calls {@code await()} throws, however the signals
     * come, and holds the lock again; it never waits, so no signal can choose it. A signaller calls
     * {@code signal()} over and over (without the lock, as allowed) until the waiter is done; the waiter, its
     * interrupt set, locks a {@link Mutex} and awaits: it must throw {@code InterruptedException} with the lock
     * held, and not return as if signalled (an await that queued before it looked at its interrupt can be chosen
     * by one of those signals and return normally).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aThreadInterruptedBeforeItAwaitsThrowsWhateverTheSignals() throws InterruptedException {
        interruptedBeforeItAwaitsThrowsWhateverTheSignals("await()", Cond::await);
    }

    /**
     * The timed {@code await(timeout)} "throws InterruptedException if the thread is interrupted before being
     * signalled", also when interrupted before it calls: {@code
     * aThreadInterruptedBeforeItAwaitsThrowsWhateverTheSignals} with {@code await(10 s)}: it throws, holding the lock again, though a signaller keeps signalling, and never
     * returns {@code true} as if signalled. Coverage review 16, mutant CE-T ({@code Cond.await(timeout)} without its
     * look at the interrupt on entry: the thread queues, a signal can choose it, and it returns {@code true}).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aThreadInterruptedBeforeItAwaitsWithATimeoutThrowsWhateverTheSignals() throws InterruptedException {
        interruptedBeforeItAwaitsThrowsWhateverTheSignals("await(10 s)",
                cond -> cond.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    /** One of {@link Cond}'s interruptible awaits. */
    private interface Await {
        void on(Cond cond) throws InterruptedException;
    }

    /**
     * A signaller signals over and over (without the lock, as allowed) until the waiter is done; the waiter, its
     * interrupt set, locks a {@link Mutex} and calls {@code await}: it must throw {@code InterruptedException} with the
     * lock held again, never return as if signalled.
     */
    private static void interruptedBeforeItAwaitsThrowsWhateverTheSignals(String name, Await await)
            throws InterruptedException {
        Mutex lock = new Mutex();
        Cond cond = new Cond(lock);
        AtomicBoolean done = new AtomicBoolean();
        Thread signaller = start("signaller", () -> {
            for (int i = 0; i < 100_000 && !done.get(); i++) {
                cond.signal();
                Thread.yield();
            }
        });
        Thread waiter = start("waiter", () -> {
            try {
                Thread.currentThread().interrupt();
                lock.lock();
                try {
                    assertThrows(InterruptedException.class, () -> await.on(cond),
                            name + " by a thread interrupted on entry returned as if signalled");
                    assertTrue(lock.isLocked(), name + " threw without the lock held again");
                } finally {
                    lock.unlock();
                }
            } finally {
                done.set(true);
            }
        });
        join(waiter, signaller);
        assertFalse(lock.isLocked(), lock::toString);
    }

    /**
     * {@code Cond.await} over a lock held twice refuses (the class javadoc: "Where the hold count is known, a
     * {@link ReentrantLock} or a {@link java.util.concurrent.locks.ReentrantReadWriteLock}'s write lock held more
     * than once, {@code await} refuses with {@link IllegalMonitorStateException} and leaves the holds as they
     * were"; {@code await}: "the thread is then not left waiting and its holds are unchanged"). For each of the two
     * locks, the waiter holds it twice and awaits, racing a signaller that takes the lock, signals and releases
     * it. The waiter's await throws at once with both holds still its own, and once it releases them the
     * signaller gets the lock; both end. An await that released one hold and waited would leave the signaller
     * blocked on the hold still kept, and the waiter asleep: the bound of the join reports it. Coverage review 24,
     * mutant C1 ({@code Cond.await} reading the hold count of a {@code ReentrantLock} only, taking a write lock's
     * as 1): survived every other test of this class and of {@code CondUnlockThrowsAfterReleaseFrayTest}, and
     * this one failed at its first iteration ("waiter did not end: stuck").
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void awaitOverALockHeldTwiceRefusesAndKeepsBothHolds() throws InterruptedException {
        ReentrantLock reentrant = new ReentrantLock();
        awaitOverALockHeldTwiceRefuses(reentrant, reentrant::getHoldCount);
        java.util.concurrent.locks.ReentrantReadWriteLock.WriteLock write =
                new java.util.concurrent.locks.ReentrantReadWriteLock().writeLock();
        awaitOverALockHeldTwiceRefuses(write, write::getHoldCount);
    }

    private static void awaitOverALockHeldTwiceRefuses(Lock lock, java.util.function.IntSupplier holds)
            throws InterruptedException {
        Cond cond = new Cond(lock);
        AtomicBoolean waiterDone = new AtomicBoolean();
        Thread waiter = start("waiter", () -> {
            lock.lock();
            lock.lock();
            try {
                assertThrows(IllegalMonitorStateException.class, cond::await,
                        () -> "await() with two holds of " + lock);
                assertEquals(2, holds.getAsInt(), () -> "await() refused but changed the holds of " + lock);
            } finally {
                waiterDone.set(true);
                lock.unlock();
                lock.unlock();
            }
        });
        Thread signaller = start("signaller", () -> {
            lock.lock();
            try {
                cond.signal();
            } finally {
                lock.unlock();
            }
        });
        join(waiter, signaller);
        assertTrue(waiterDone.get(), lock::toString);
    }
}
