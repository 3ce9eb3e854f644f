package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.WeightedSemaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link WeightedSemaphore}, explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class WeightedSemaphoreFrayTest {
    /** Never over capacity: the permits held at once never exceed the size, and all come back. */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void neverOverCapacity() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(3);
        AtomicLong held = new AtomicLong();
        Thread one = start("acquire 1", () -> {
            for (int i = 0; i < 2; i++) {
                sem.acquire(1);
                use(held, 1, sem);
            }
        });
        Thread two = start("acquire 2", () -> {
            sem.acquire(2);
            use(held, 2, sem);
        });
        Thread timed = start("timed 3", () -> {
            assertTrue(sem.tryAcquire(3, FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "timed out");
            use(held, 3, sem);
        });
        Thread opportunist = start("tryAcquire 2", () -> {
            if (sem.tryAcquire(2)) {
                use(held, 2, sem);
            }
        });
        join(one, two, timed, opportunist);
        assertEquals(3, sem.available(), sem::toString);
    }

    private static void use(AtomicLong held, long n, WeightedSemaphore sem) {
        assertTrue(held.addAndGet(n) <= 3, "more permits held than the size");
        held.addAndGet(-n);
        sem.release(n);
    }

    /**
     * First come, first served, no barging: a waiter asking for more than is free holds back the waiters
     * behind it even when their requests fit, and tryAcquire fails while anyone waits.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void waitersAreServedInArrivalOrder() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        AtomicBoolean bigServed = new AtomicBoolean();
        sem.acquire(2);
        Thread big = start("big", () -> {
            sem.acquire(2);
            bigServed.set(true);
            sem.release(2);
        });
        untilParked(big);
        Thread small = start("small", () -> {
            sem.acquire(1);
            assertTrue(bigServed.get(), "a later, smaller request overtook the head of the queue");
            sem.release(1);
        });
        untilParked(small);
        Thread releaser = start("release 1", () -> sem.release(1));
        Thread barger = start("barger", () -> {
            if (sem.tryAcquire(1)) { // big holds everything from its grant until after bigServed is set
                assertTrue(bigServed.get(), "tryAcquire took a permit while the head of the queue waited");
                sem.release(1);
            }
        });
        join(releaser, barger);
        sem.release(1);
        join(big, small);
        assertEquals(2, sem.available(), sem::toString);
    }

    /**
     * A waiter that is interrupted or times out leaves holding nothing; if the permits were granted to it in
     * the same instant it gives them back and they go on to the waiters behind it. Afterwards every permit is
     * back and nobody is left asleep.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aCancelledAcquireGivesItsPermitsOn() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(2);
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread interrupted = start("interrupted", () -> {
            try {
                sem.acquire(2);
                try { // granted first: an interrupt that comes later stays set
                    until("the interrupt is sent", interruptSent::get);
                    assertTrue(Thread.interrupted(), "acquire() returned the permits without the interrupt status");
                } finally {
                    sem.release(2);
                }
            } catch (InterruptedException gaveUp) {
                // holds nothing
            }
        });
        untilParked(interrupted);
        Thread timed = start("timed", () -> {
            if (sem.tryAcquire(1, 1, TimeUnit.MILLISECONDS)) {
                sem.release(1);
            }
        });
        Thread patient = start("patient", () -> {
            sem.acquire(2);
            sem.release(2);
        });
        untilParked(patient);
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        sem.release(2);
        join(interrupter, interrupted, timed, patient);
        assertEquals(2, sem.available(), sem::toString);
        assertTrue(sem.tryAcquire(2), () -> "permits lost: " + sem);
    }

    /**
     * A grant racing an interrupt, the window made wide (the class javadoc: "If the permits were granted to it in
     * the same instant, before it could leave, it gives them back, and they go on to the waiters behind it, so no
     * permit is lost and no waiter is left asleep"; "A waiter that sees its grant first returns normally; an
     * interrupt that comes later stays set"). Of 2 permits the main thread holds both; "waiter" queues for 2 and
     * "behind" for 1 behind it. Then only two threads move, "granter" (release(2)) and "interrupter", and the
     * waiter's acquire is the only call that can end: the grant lands before the interrupt, between the
     * interrupt's wake-up and the waiter's withdrawal, or after it. The waiter either throws holding nothing or
     * returns with its interrupt status set and releases; behind is served either way (a grant given back to
     * nobody leaves it asleep, which the bound of the join reports); every permit comes back.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aGrantRacingAnInterruptIsKeptOrGivenBack() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(2);
        AtomicBoolean interruptSent = new AtomicBoolean();
        raceAGrant(sem, () -> {
            try {
                sem.acquire(2);
            } catch (InterruptedException gaveUp) {
                return; // holds nothing: checked by the count at the end
            }
            try {
                until("the interrupt is sent", interruptSent::get);
                assertTrue(Thread.interrupted(), () -> "acquire() returned the permits without the interrupt status: " + sem);
            } finally {
                sem.release(2);
            }
        }, waiter -> new Thread[] {
            start("granter", () -> sem.release(2)),
            start("interrupter", () -> {
                waiter.interrupt();
                interruptSent.set(true);
            }),
        });
    }

    /**
     * A grant racing a timeout, the window made wide (the same javadoc sentences, for the timed tryAcquire): the
     * main thread holds both permits, "waiter" waits for 2 with a 50 ms timeout (virtual time), "behind" for 1
     * behind it. "granter", the only thread that moves then, polls until the waiter's park has ended (only its
     * timeout can end it) and releases both permits, racing the waiter's withdrawal. The waiter either returns
     * {@code true} and releases, or {@code false} holding nothing; behind is served either way; every permit
     * comes back.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aGrantRacingATimeoutIsKeptOrGivenBack() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(2);
        raceAGrant(sem, () -> {
            if (sem.tryAcquire(2, 50, TimeUnit.MILLISECONDS)) { // long enough to park, and behind to queue, first
                sem.release(2);
            }
        }, waiter -> new Thread[] {
            start("granter", () -> {
                until("the waiter's wait times out", () -> waiter.getState() != Thread.State.TIMED_WAITING);
                sem.release(2);
            }),
        });
    }

    /**
     * The frame of the grant races: with both of {@code sem}'s 2 permits held by the calling thread, "waiter"
     * runs {@code waiterBody} and parks, and "behind" queues for 1 behind it; then {@code racers}, given the
     * waiter, starts the threads that race its grant against its leaving (in array order). All are joined, racers
     * first (behind stays asleep if a grant was given back to nobody, which the bound of the join reports), and
     * every permit must come back with no waiter left queued.
     */
    private static void raceAGrant(WeightedSemaphore sem, FrayThreads.Body waiterBody,
            Function<Thread, Thread[]> racers) throws InterruptedException {
        Thread waiter = start("waiter", waiterBody);
        untilParked(waiter);
        Thread behind = start("behind", () -> {
            sem.acquire(1);
            sem.release(1);
        });
        untilParked(behind);
        join(racers.apply(waiter));
        join(waiter, behind);
        assertEquals(2, sem.available(), () -> "permits lost: " + sem);
        assertTrue(sem.tryAcquire(2), () -> "permits lost or a waiter left queued: " + sem);
    }

    /**
     * One release grants every waiter, in arrival order, whose request now fits: with 1, 2 and 1 permits
     * queued in that order on a semaphore of 3, a release of all 3 grants the first two at once, and the
     * third, which no longer fits, waits; a concurrent tryAcquire gets nothing.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void oneReleaseGrantsEveryWaiterThatFits() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(3);
        AtomicBoolean giveBack = new AtomicBoolean();
        AtomicBoolean thirdServed = new AtomicBoolean();
        sem.acquire(3);
        Thread first = start("acquire 1", () -> {
            sem.acquire(1);
            FrayThreads.until("told to give back", giveBack::get);
            sem.release(1);
        });
        untilParked(first);
        Thread second = start("acquire 2", () -> {
            sem.acquire(2);
            FrayThreads.until("told to give back", giveBack::get);
            sem.release(2);
        });
        untilParked(second);
        Thread third = start("acquire 1 more", () -> {
            sem.acquire(1);
            thirdServed.set(true);
            sem.release(1);
        });
        untilParked(third);
        Thread barger = start("tryAcquire 1", () -> {
            if (sem.tryAcquire(1)) {
                assertTrue(giveBack.get(), "tryAcquire took a permit meant for a waiter");
                sem.release(1);
            }
        });
        sem.release(3);
        assertEquals(0, sem.available(), () -> "one release did not grant every waiter that fits: " + sem);
        assertFalse(thirdServed.get(), "a waiter was granted permits the ones ahead of it hold");
        join(barger);
        giveBack.set(true);
        join(first, second, third);
        assertEquals(3, sem.available(), sem::toString);
    }

    /**
     * A head of the queue that leaves without a grant lets in the waiters behind it that now fit (the class
     * javadoc: "no waiter is left asleep with permits it could have"; Go's isFront case in
     * {@code semaphore.go}'s {@code Acquire}). Of 2 permits the main thread holds 1 throughout; "interrupted"
     * and "timed" (1 ms, virtual time) queue for 2 and hold back "small", which asks for the free one. The two
     * leave in either order, small queued before, between or after them: once neither waits, small must be
     * granted while the main thread still holds its permit (else it stays asleep, which the bound of the join
     * reports).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aHeadThatLeavesLetsInTheWaitersBehindIt() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(1);
        Thread interrupted = start("interrupted", () -> {
            assertThrows(InterruptedException.class, () -> sem.acquire(2), "granted permits the main thread holds");
        });
        untilParked(interrupted);
        Thread timed = start("timed", () -> {
            assertFalse(sem.tryAcquire(2, 1, TimeUnit.MILLISECONDS), "granted permits the main thread holds");
        });
        Thread small = start("small", () -> {
            sem.acquire(1);
            sem.release(1);
        });
        Thread interrupter = start("interrupter", interrupted::interrupt);
        join(interrupter, interrupted, timed, small);
        assertEquals(1, sem.available(), sem::toString);
        sem.release(1);
        assertTrue(sem.tryAcquire(2), () -> "permits lost: " + sem);
    }

    /**
     * A request for more permits than the size waits without queueing and holds nobody back (the class
     * javadoc; Go's {@code Acquire} of {@code n > size} waits for its context only): "huge" asks for 3 of 2
     * permits while "small" asks for 1 and a releaser frees the 2 held, in any order. Invariants: small gets its
     * permit whenever it came (queued behind huge, it would be stuck, which the bound of the join reports);
     * with huge still waiting, {@code tryAcquire(2)} succeeds (it fails whenever a thread is queued); huge,
     * interrupted, throws and holds nothing; every permit comes back.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anOverSizeRequestHoldsNobodyBack() throws InterruptedException {
        overSizeRequestHoldsNobodyBack(sem -> sem.acquire(3));
    }

    /**
     * The same for the timed {@code tryAcquire}: a request for more permits than the size "waits for its timeout
     * ... without queueing, so [it holds] nobody back" (the class javadoc): "huge" asks {@code tryAcquire(3,
     * 100 s)} of 2 permits while "small" asks for 1 and a releaser frees the 2 held, in any order; small gets its
     * permit while huge still waits, {@code tryAcquire(2)} succeeds then, and huge, interrupted, throws and holds
     * nothing (coverage review 8, mutant WS-O: an over-size timed request queued like any other, small then stuck
     * behind it until its timeout; {@code anOverSizeRequestHoldsNobodyBack} calls {@code acquire} only).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedOverSizeRequestHoldsNobodyBack() throws InterruptedException {
        overSizeRequestHoldsNobodyBack(sem -> sem.tryAcquire(3, 100, TimeUnit.SECONDS));
    }

    /** A request for 3 permits of a semaphore of 2, which must wait until interrupted. */
    @FunctionalInterface
    private interface OverSizeRequest {
        void run(WeightedSemaphore sem) throws InterruptedException;
    }

    /** The scenario of the two tests above, with "huge" making {@code request}. */
    private static void overSizeRequestHoldsNobodyBack(OverSizeRequest request) throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(2);
        Thread huge = start("huge", () -> {
            assertThrows(InterruptedException.class, () -> request.run(sem),
                    "an over-size request returned without an interrupt: granted, or timed out while holding others back");
        });
        Thread small = start("small", () -> {
            sem.acquire(1);
            sem.release(1);
        });
        Thread releaser = start("release 2", () -> sem.release(2));
        untilParked(huge);
        join(small, releaser);
        assertTrue(sem.tryAcquire(2), () -> "a waiting over-size request held tryAcquire back: " + sem);
        sem.release(2);
        huge.interrupt();
        join(huge);
        assertEquals(2, sem.available(), sem::toString);
    }

    /**
     * A request for zero permits succeeds at once only when no thread waits, else when its turn comes (the class
     * javadoc; Go's {@code Acquire(ctx, 0)} queues behind waiters too), and the interrupt checks hold for it:
     * with "head" waiting for the one permit, "zero" asks for none and must park (one that returns barged);
     * {@code tryAcquire(0)} fails meanwhile. Then the holder's release races an interrupt of zero: zero either
     * returns, after head was granted (head holds the permit until zero is done), or throws; either way head is
     * served and every permit comes back. An interrupted {@code acquire(0)} or timed {@code tryAcquire(0)} on a
     * free semaphore throws on entry.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aZeroRequestWaitsItsTurn() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        AtomicBoolean headGranted = new AtomicBoolean();
        AtomicBoolean zeroDone = new AtomicBoolean();
        sem.acquire(1);
        Thread head = start("head", () -> {
            sem.acquire(1);
            headGranted.set(true);
            FrayThreads.until("zero is done", zeroDone::get);
            sem.release(1);
        });
        untilParked(head);
        Thread zero = start("zero", () -> {
            try {
                sem.acquire(0);
                assertTrue(headGranted.get() || sem.available() == 0,
                        () -> "acquire(0) returned before the waiter ahead of it was granted: " + sem);
            } catch (InterruptedException expected) {
                // interrupted while it waited: holds nothing
            } finally {
                zeroDone.set(true);
            }
        });
        untilParked(zero);
        assertFalse(sem.tryAcquire(0), () -> "tryAcquire(0) barged past waiters: " + sem);
        Thread interrupter = start("interrupter", zero::interrupt);
        sem.release(1);
        join(zero, interrupter, head);
        assertTrue(headGranted.get(), "the waiter ahead of an interrupted zero request was not served");
        assertEquals(1, sem.available(), sem::toString);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> sem.acquire(0), "acquire(0) ignored an interrupt on entry");
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> sem.tryAcquire(0, 1, TimeUnit.SECONDS),
                "tryAcquire(0, timeout) ignored an interrupt on entry");
        assertTrue(sem.tryAcquire(0));
    }

    /**
     * "Releasing more permits than are held throws {@link IllegalStateException} ... and leaves the semaphore as it
     * was", also while a thread waits (the locked path, not the lock-free one): of 2 permits, 2 held and a waiter
     * for 1 queueing at any moment, {@code release(3)} throws and grants nobody; {@code release(2)} then serves
     * the waiter, and all 2 permits end free.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void releasingMoreThanHeldThrowsAlsoWhileAThreadWaits() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        sem.acquire(2);
        Thread waiter = start("waiter", () -> {
            sem.acquire(1);
            sem.release(1);
        });
        assertThrows(IllegalStateException.class, () -> sem.release(3), () -> "release(3) with 2 held: " + sem);
        assertEquals(0, sem.available(), sem::toString);
        sem.release(2);
        join(waiter);
        assertEquals(2, sem.available(), sem::toString);
    }

    /**
     * Two neighbours that leave from the middle of the queue, in either order, leave the others queued in their
     * order ("a waiter that is interrupted or times out leaves the queue holding nothing"; "waiters are served in
     * the order they came"). The main thread holds the one permit; w1 to w4 queue for it in that order; w2
     * ({@code acquire}) and w3 ({@code tryAcquire} with a long timeout) are interrupted by two threads at once
     * and throw; then the main thread releases: w1 and w4 are each granted the permit, w1 first. Coverage review
     * 17, mutant WQ-N ({@code WaitQueue.withdraw} leaving the follower of a waiter it withdraws with no back
     * link, as if it were the head: its own withdrawal then cuts the head off the queue, and w1 sleeps for ever).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoNeighboursLeavingFromTheMiddleOfTheQueueLeaveTheOthersInOrder() throws InterruptedException {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        sem.acquire(1);
        java.util.Queue<String> granted = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Thread w1 = start("w1", () -> {
            sem.acquire(1);
            granted.add("w1");
            sem.release(1);
        });
        untilParked(w1);
        Thread w2 = start("w2", () -> {
            assertThrows(InterruptedException.class, () -> sem.acquire(1),
                    "w2 granted the permit the main thread holds");
            assertFalse(Thread.currentThread().isInterrupted(), "w2's interrupt status was not cleared");
        });
        untilParked(w2);
        Thread w3 = start("w3", () -> {
            assertThrows(InterruptedException.class, () -> sem.tryAcquire(1, 100, TimeUnit.SECONDS),
                    "w3 granted the permit the main thread holds");
        });
        untilParked(w3);
        Thread w4 = start("w4", () -> {
            sem.acquire(1);
            granted.add("w4");
            sem.release(1);
        });
        untilParked(w4);
        Thread i2 = start("w2's interrupter", w2::interrupt);
        Thread i3 = start("w3's interrupter", w3::interrupt);
        join(i2, i3, w2, w3);
        assertEquals(0, sem.available(), sem::toString);
        sem.release(1);
        join(w1, w4);
        assertEquals(java.util.List.of("w1", "w4"), java.util.List.copyOf(granted), "the order of the grants");
        assertEquals(1, sem.available(), sem::toString);
        assertTrue(sem.toString().endsWith("waiting=0]"), sem::toString);
    }
}
