package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.WaitGroup;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The blocking contracts of {@link WaitGroup}, explored by Fray. Fewer iterations than elsewhere: a waiter
 * spin-waits about a thousand reads of the counter before it parks, each of them a scheduling point.
 */
@ExtendWith(FrayTestExtension.class)
class WaitGroupFrayTest {
    /**
     * await returns only after every task counted has called done(), by each kind of wait; a timed wait
     * that returns true saw them all too. The tasks finish once all three waiters are queued, so every done()
     * meets counted waiters.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void awaitReturnsOnlyAfterEveryDone() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch waitersQueued = new CountDownLatch(1);
        wg.add(2);
        Thread[] tasks = new Thread[2];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = start("task " + i, () -> {
                assertTrue(waitersQueued.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
                finished.incrementAndGet();
                wg.done();
            });
        }
        Thread waiter = start("await", () -> {
            wg.await();
            assertEquals(2, finished.get(), "await returned before every done()");
        });
        Thread timed = start("timed await", () -> {
            assertTrue(wg.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "timed out");
            assertEquals(2, finished.get(), "await returned before every done()");
        });
        Thread uninterruptible = start("awaitUninterruptibly", () -> {
            wg.awaitUninterruptibly();
            assertEquals(2, finished.get(), "await returned before every done()");
        });
        untilParked(waiter);
        untilParked(timed);
        untilParked(uninterruptible);
        waitersQueued.countDown();
        join(tasks);
        join(waiter, timed, uninterruptible);
    }

    /**
     * A waiter that times out (1 ms of virtual time) or is interrupted leaves the group without consuming
     * another's wake-up, and if the round ended first, its wait succeeded. The next round's add, made as soon
     * as the count reaches zero and possibly before the round's waiters are released, does not hold them back:
     * the next round's task waits for the previous round's patient waiter to return.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void waitersThatGiveUpLeaveTheRoundsIntact() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch patientReturned = new CountDownLatch(1);
        wg.add(1);
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread timed = start("timed", () -> {
            if (wg.await(1, TimeUnit.MILLISECONDS)) {
                assertTrue(finished.get() >= 1, "a timed await returned true before the round ended");
            }
        });
        Thread interrupted = start("interrupted", () -> {
            try {
                wg.await();
                assertTrue(finished.get() >= 1, "await returned before the round ended");
                // the round ended first: an interrupt that came too is set again
                until("the interrupt is sent", interruptSent::get);
                assertTrue(Thread.interrupted(), "await() returned normally without the interrupt status");
            } catch (InterruptedException gaveUp) {
                // left the group
            }
        });
        Thread patient = start("patient", () -> {
            wg.await();
            assertTrue(finished.get() >= 1, "await returned before the round ended");
            patientReturned.countDown();
        });
        untilParked(interrupted);
        untilParked(patient);
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        Thread task = start("task", () -> {
            go.await();
            finished.incrementAndGet();
            wg.done();
        });
        Thread next = start("next round", () -> {
            go.await();
            until("the first round ends", () -> wg.count() == 0);
            wg.add(1);
            assertTrue(patientReturned.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                    "the next round held back a waiter of the previous one");
            finished.incrementAndGet();
            wg.done();
        });
        go.countDown();
        wg.await();
        join(interrupter, timed, interrupted, patient, task, next);
        assertEquals(2, finished.get());
        assertEquals(0, wg.count());
    }

    /** go(executor, task): await returns after the task has run. */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void goCountsTheTaskUntilItReturns() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            wg.go(task -> Thread.ofPlatform().start(task), ran::incrementAndGet);
        }
        wg.await();
        assertEquals(2, ran.get(), "await returned before a task of go() ran");
    }

    /** {@code awaitUninterruptibly()} waits through an interrupt for the last {@code done()}, and returns with the status set. */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void awaitUninterruptiblyKeepsAnInterrupt() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        FrayThreads.interruptKeptThroughAnUninterruptibleWait(wg::awaitUninterruptibly, wg::done);
        assertEquals(0, wg.count());
    }

    /**
     * go(executor, task) whose executor starts the task and then throws: go throws, and exactly one of two
     * things happens, whoever claims the task first: it never runs and the count is restored, or it runs and
     * counts as usual (await returns only after it ended). Either way the group counts it once: the count ends
     * at 0, never below, and the group works on.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void goCountsATaskOnceWhenTheExecutorThrows() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        AtomicInteger ran = new AtomicInteger();
        AtomicBoolean ended = new AtomicBoolean();
        AtomicReference<Thread> runner = new AtomicReference<>();
        Executor startsThenThrows = command -> {
            runner.set(start("runner", command::run));
            throw new RejectedExecutionException("the executor failed after it had started the task");
        };
        assertThrows(RejectedExecutionException.class, () -> wg.go(startsThenThrows, () -> {
            ran.incrementAndGet();
            Thread.yield();
            ended.set(true);
        }));
        assertTrue(wg.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), wg::toString);
        boolean endedAtAwait = ended.get();
        join(runner.get());
        assertTrue(ran.get() <= 1, "the task ran twice");
        if (ran.get() == 1) {
            assertTrue(endedAtAwait, "await returned while the started task still ran: it was not counted");
        }
        assertEquals(0, wg.count(), wg::toString);
        wg.add(1);
        wg.done();
        assertEquals(0, wg.count(), wg::toString);
    }

    /**
     * A throwable escaping a task of go(executor, task) reaches the uncaught exception handler of the thread
     * that runs it before the count drops: an await that the task releases returns only after the failure was
     * reported (Go 1.26's rule).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aFailureIsReportedBeforeAwaitReturns() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        AtomicReference<Throwable> reported = new AtomicReference<>();
        IllegalStateException failure = new IllegalStateException("task failed");
        Executor reporting = command -> Thread.ofPlatform().name("runner")
                .uncaughtExceptionHandler((t, e) -> {
                    Thread.yield(); // a waiter may run while the handler reports
                    reported.set(e);
                })
                .start(command);
        wg.go(reporting, () -> {
            throw failure;
        });
        Thread waiter = start("await", () -> {
            wg.await();
            assertSame(failure, reported.get(), "await returned before the failure was reported");
        });
        join(waiter);
        assertEquals(0, wg.count(), wg::toString);
    }

    /**
     * A timed waiter whose timeout runs out as the round ends: "If the count reached zero before it could
     * leave, its wait succeeded: await(timeout) returns true". The waiter's timeout (1 ms of virtual time) runs
     * out while it spins, so it counts itself, parks and leaves at once; {@code done()} comes once it is
     * counted (or, having missed that moment, once it returned). The main thread watches the state meanwhile: a count of zero with the waiter still counted means
     * the round ended before it left, and then its {@code await} must return {@code true}.
     */
    @FrayTest(iterations = 60 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedWaiterWhoseRoundEndedAsItTimedOutReturnsTrue() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        AtomicBoolean returned = new AtomicBoolean();
        AtomicBoolean waiterDone = new AtomicBoolean();
        Thread waiter = start("timed waiter", () -> {
            returned.set(wg.await(1, TimeUnit.MILLISECONDS));
            waiterDone.set(true);
        });
        Thread doner = start("done", () -> {
            until("the waiter is counted or gone", () -> wg.toString().endsWith("waiters=1]") || waiterDone.get());
            wg.done();
        });
        boolean endedWithTheWaiterCounted = false;
        while (waiter.isAlive() || doner.isAlive()) {
            endedWithTheWaiterCounted |= wg.toString().endsWith("[count=0, waiters=1]");
            Thread.yield();
        }
        join(waiter, doner);
        if (endedWithTheWaiterCounted) {
            assertTrue(returned.get(), () -> "the round ended before the waiter left, and await returned false: " + wg);
        }
    }

    /**
     * {@code await} "blocks until the counter is zero", and a waiter "returns when the count reaches zero in the
     * round it waits in": also a waiter whose spin before it registers ends just as the last {@code done()} comes
     * (WaitGroup's notes: registering counts the waiter in only "while the counter is non-zero", re-read under the
     * queue's lock; a waiter counted into a round that has ended would wait for the next round's add). The waiter
     * spins about 2^10 reads of the word (each a scheduling point) before it registers, so the doer yields about as
     * often before its {@code done()}, a little longer each round, so that over 24 rounds its {@code done()} often
     * lands between the waiter's last spin and its registration. Every round's waiter returns. (Coverage review 12,
     * mutant WG-R: register without its re-check of the counter under the lock, which survived the 7 other
     * WaitGroupFrayTests: their done()s come while the waiter still spins, or once it has parked; it fails at the
     * second or third iteration of ten.)
     */
    @FrayTest(iterations = 10 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aWaiterWhoseSpinEndsAsTheLastDoneComesReturns() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        for (int round = 0; round < 24; round++) {
            int yields = 980 + 4 * round;
            wg.add(1);
            Thread waiter = start("waiter " + round, wg::await);
            Thread doer = start("doer " + round, () -> {
                for (int i = 0; i < yields; i++) {
                    Thread.yield();
                }
                wg.done();
            });
            join(doer, waiter);
            assertEquals(0, wg.count());
        }
    }

    /**
     * {@code await(timeout)} "throws InterruptedException if the thread is interrupted on entry", also when the
     * round ends as it comes: a thread interrupted before it calls {@code await(10 s)} on a group of one, while
     * another thread calls {@code done()} at any moment, throws {@code InterruptedException} (status cleared) and
     * never returns {@code true}. Coverage review 16, mutant WG-ET ({@code await(timeout)} without its look at the
     * interrupt on entry: a round that ended before it counted itself in returns {@code true}).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aThreadInterruptedBeforeItAwaitsWithATimeoutThrowsAsTheRoundEnds() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        Thread waiter = start("waiter", () -> {
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> wg.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS),
                    "await(10 s) by a thread interrupted on entry returned");
            assertTrue(!Thread.currentThread().isInterrupted(), "the interrupt status was not cleared");
        });
        Thread doer = start("done", wg::done);
        join(waiter, doer);
        assertTrue(wg.await(0, TimeUnit.SECONDS), wg::toString);
    }

    /**
     * The class javadoc: "Misuse throws IllegalStateException (Go panics) and leaves the group as it was:
     * {@code "negative WaitGroup counter"}: more done than add", also while a thread waits: on a group of one
     * with a waiter parked, {@code add(-2)} races the one {@code done()}. Whichever comes first, {@code add(-2)}
     * throws with that message; the waiter returns only once the round ended (after the {@code done()}), the
     * count ends at 0, and the group works on. (Coverage review 20, mutant WG-NW: the check of a negative counter
     * made only while nobody waits, caught at iteration 0; no other WaitGroupFrayTest misuses a group with a
     * waiter.)
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aNegativeCounterIsRefusedAlsoWhileAThreadWaits() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        AtomicBoolean doneCalled = new AtomicBoolean();
        Thread waiter = start("waiter", () -> {
            wg.await();
            assertTrue(doneCalled.get(), "await returned before the done(): " + wg);
        });
        untilParked(waiter);
        Thread misuser = start("add(-2)", () -> {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> wg.add(-2),
                    "add(-2) on a group of one");
            assertEquals("negative WaitGroup counter", e.getMessage());
        });
        Thread doer = start("done", () -> {
            doneCalled.set(true);
            wg.done();
        });
        join(misuser, doer, waiter);
        assertEquals(0, wg.count(), wg::toString);
        wg.add(1);
        Thread next = start("next round's waiter", wg::await);
        wg.done();
        join(next);
        assertEquals(0, wg.count(), wg::toString);
    }
}
