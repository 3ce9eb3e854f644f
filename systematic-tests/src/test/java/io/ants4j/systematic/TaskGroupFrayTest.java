package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.TaskGroup;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * The blocking contracts of {@link TaskGroup} on a platform-thread executor, explored by Fray. The random
 * scheduler, not POS: the group's SpinLock has several spinners here, and POS, which runs a yield before
 * anything else and gives a thread a new priority only when it runs, can starve the holder for hours.
 */
@ExtendWith(FrayTestExtension.class)
class TaskGroupFrayTest {
    /** A platform thread per task: Fray hangs on the default virtual threads. */
    private static final Executor PLATFORM_THREADS = task -> Thread.ofPlatform().start(task);

    /** Tasks of the group running now, checked against the limit by every task as it starts. */
    private final AtomicInteger running = new AtomicInteger();

    /** A task that counts itself running (never more than {@code limit}) until {@code until} opens. */
    private TaskGroupTask holding(int limit, CountDownLatch until, String result) {
        return () -> {
            assertTrue(running.incrementAndGet() <= limit, "more tasks run than the limit");
            try {
                assertTrue(until.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "never released");
                return result;
            } finally {
                running.decrementAndGet();
            }
        };
    }

    @FunctionalInterface
    private interface TaskGroupTask extends java.util.concurrent.Callable<String> {
    }

    /**
     * Blocked submitters go in first come, first served, and the limit is never exceeded: s1, s2 and s3 block
     * in that order behind two running tasks; when both end, the two freed slots go to s1 and s2, and s3 still
     * waits (issue 25, defect 1: a woken submitter that has not re-taken the lock is still counted as blocked,
     * so a second slot is signalled to it and a later submitter gets in first).
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void blockedSubmittersGoInInArrivalOrder() throws Exception {
        blockedSubmittersGoInInArrivalOrderScenario();
    }

    /** The schedule in which Fray found issue 25's defect 1 (iteration 0 of blockedSubmittersGoInInArrivalOrder). */
    @FrayTest(replay = "classpath:fray-recordings/TaskGroupFrayTest/blockedSubmittersGoInInArrivalOrder", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void blockedSubmittersGoInInArrivalOrderReplay() throws Exception {
        blockedSubmittersGoInInArrivalOrderScenario();
    }

    private void blockedSubmittersGoInInArrivalOrderScenario() throws Exception {
        TaskGroup<String> group = TaskGroup.create(2, PLATFORM_THREADS);
        CountDownLatch firstTasksEnd = new CountDownLatch(1);
        CountDownLatch laterTasksEnd = new CountDownLatch(1);
        group.go(holding(2, firstTasksEnd, "t0"));
        group.go(holding(2, firstTasksEnd, "t1"));
        ConcurrentLinkedQueue<String> admitted = new ConcurrentLinkedQueue<>();
        Thread[] submitters = new Thread[3];
        for (int i = 0; i < submitters.length; i++) {
            String name = "s" + (i + 1);
            submitters[i] = start(name, () -> {
                group.go(holding(2, laterTasksEnd, name));
                admitted.add(name);
            });
            untilParked(submitters[i]);
        }
        firstTasksEnd.countDown();
        until("two submitters are let in", () -> admitted.size() == 2);
        assertEquals(Set.of("s1", "s2"), Set.copyOf(admitted), "the freed slots went to a later submitter");
        laterTasksEnd.countDown();
        join(submitters);
        assertEquals(List.of("s1", "s2", "s3", "t0", "t1"), group.await().stream().sorted().toList());
        group.close();
    }

    /**
     * First come, first served also when a blocked submitter is interrupted: it gets a
     * RejectedExecutionException caused by the interrupt, with its interrupt status set again, and the slot
     * freed meanwhile goes to the first of the others (issue 25, defect 1, second case).
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedSubmitterLeavesTheOrderIntact() throws Exception {
        anInterruptedSubmitterLeavesTheOrderIntactScenario();
    }

    /** The schedule in which Fray found issue 25's defect 1 (iteration 1 of anInterruptedSubmitterLeavesTheOrderIntact). */
    @FrayTest(replay = "classpath:fray-recordings/TaskGroupFrayTest/anInterruptedSubmitterLeavesTheOrderIntact", resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedSubmitterLeavesTheOrderIntactReplay() throws Exception {
        anInterruptedSubmitterLeavesTheOrderIntactScenario();
    }

    private void anInterruptedSubmitterLeavesTheOrderIntactScenario() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch firstTaskEnds = new CountDownLatch(1);
        CountDownLatch laterTasksEnd = new CountDownLatch(1);
        group.go(holding(1, firstTaskEnds, "t0"));
        ConcurrentLinkedQueue<String> admitted = new ConcurrentLinkedQueue<>();
        Thread s1 = start("s1", () -> {
            group.go(holding(1, laterTasksEnd, "s1"));
            admitted.add("s1");
        });
        untilParked(s1);
        Thread s2 = start("s2", () -> {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                    () -> group.go(holding(1, laterTasksEnd, "s2")));
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertTrue(Thread.interrupted(), "the interrupt status was not set again");
        });
        untilParked(s2);
        Thread s3 = start("s3", () -> {
            group.go(holding(1, laterTasksEnd, "s3"));
            admitted.add("s3");
        });
        untilParked(s3);
        Thread interrupter = start("interrupter", s2::interrupt);
        firstTaskEnds.countDown();
        until("a submitter is let in", () -> !admitted.isEmpty());
        assertEquals("s1", admitted.peek(), "the freed slot went to a later submitter");
        laterTasksEnd.countDown();
        join(interrupter, s1, s2, s3);
        assertEquals(List.of("s1", "s3", "t0"), group.await().stream().sorted().toList());
        group.close();
    }

    /**
     * First come, first served when two neighbours leave the middle of the queue of submitters (TaskGroup.go:
     * "first waiting while limit tasks of the group run"; setLimit: "first come, first served"): s1 to s4 block in
     * that order behind t0 on a limit of 1; s2 and s3 are interrupted, racing each other (each rejected, status
     * set); the slot t0 frees goes to s1, and the one s1 frees to s4. Coverage review 18: round 17's mutant WQ-N
     * ({@code WaitQueue.withdraw} leaving the follower with no back link, so the second withdrawal cuts the head
     * off) survived every other TaskGroupFrayTest, whose one withdrawal from the middle left its follower in place.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoNeighboursLeavingTheMiddleOfTheQueueLeaveTheOthersInOrder() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch t0End = new CountDownLatch(1);
        CountDownLatch s1End = new CountDownLatch(1);
        CountDownLatch s4End = new CountDownLatch(1);
        group.go(holding(1, t0End, "t0"));
        ConcurrentLinkedQueue<String> admitted = new ConcurrentLinkedQueue<>();
        Thread[] s = new Thread[4];
        for (int i = 0; i < 4; i++) {
            String name = "s" + (i + 1);
            boolean leaves = i == 1 || i == 2;
            CountDownLatch end = i == 0 ? s1End : s4End;
            s[i] = start(name, () -> {
                if (leaves) {
                    RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                            () -> group.go(holding(1, end, name)));
                    assertInstanceOf(InterruptedException.class, e.getCause());
                    assertTrue(Thread.interrupted(), "the interrupt status was not set again");
                } else {
                    group.go(holding(1, end, name));
                    admitted.add(name);
                }
            });
            untilParked(s[i]);
        }
        Thread i2 = start("interrupt s2", s[1]::interrupt);
        Thread i3 = start("interrupt s3", s[2]::interrupt);
        join(i2, i3, s[1], s[2]);
        t0End.countDown();
        until("a submitter is let in after t0", () -> !admitted.isEmpty());
        assertEquals(List.of("s1"), List.copyOf(admitted), "the slot t0 freed went past s1");
        s1End.countDown();
        join(s[0]);
        until("s4 is let in after s1", () -> admitted.size() == 2);
        s4End.countDown();
        join(s[3]);
        assertEquals(List.of("s1", "s4", "t0"), group.await().stream().sorted().toList());
        group.close();
    }

    /**
     * A slot handed to a blocked submitter as the group is cancelled is given back (go: "If the group is cancelled,
     * before or while this call waits, the task does not start and the returned Future is cancelled"; setLimit
     * throws only while "a task of the group is active"). Limit 1: t0 runs (it ignores interrupts), s waits; t0's
     * return, which hands its slot to s, races cancel(): s's go returns a Future that is done, and once close() has
     * returned no task of the group is active, so setLimit(1) does not throw. Coverage review 18, mutant TG-R:
     * TaskGroup.registerInOwnSlot finding the group cancelled and returning without giving the slot back (the
     * group keeps a task counted for good): survived the 31 other TaskGroupFrayTests.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSlotHandedToASubmitterAsTheGroupIsCancelledIsGivenBack() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch t0End = new CountDownLatch(1);
        group.go(() -> {
            try {
                t0End.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException cancelled) {
                t0End.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS); // returns only once released
            }
            return "t0";
        });
        AtomicReference<Future<String>> sFuture = new AtomicReference<>();
        Thread s = start("s", () -> sFuture.set(group.go(() -> "s")));
        untilParked(s);
        Thread ender = start("t0 returns", t0End::countDown);
        Thread canceller = start("canceller", group::cancel);
        join(ender, canceller, s);
        group.close();
        assertTrue(sFuture.get().isDone(), "s's Future is not done after close()");
        group.setLimit(1); // throws IllegalStateException if a slot is still counted
    }

    /**
     * A submitter that must wait checks its interrupt status before it takes a slot: one interrupted before it
     * calls go is rejected, with its status set again, also when a slot is handed to it between its queueing
     * and its first look at the queue, and that slot goes on to the next in line. The group's limit is 0 until
     * both have queued, so the interrupted submitter never finds a slot free. The window in which the slot is
     * handed to it before its first look is narrow: random schedules did not reach it in 728 iterations on the
     * code that let it in; TaskSlotsTest enters it step by step.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedSubmitterThatMustWaitIsRejected() throws Exception {
        TaskGroup<String> group = TaskGroup.create(0, PLATFORM_THREADS);
        CountDownLatch rejected = new CountDownLatch(1);
        AtomicBoolean interruptedRan = new AtomicBoolean();
        Thread interrupted = start("interrupted submitter", () -> {
            Thread.currentThread().interrupt();
            try {
                RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> group.go(() -> {
                    interruptedRan.set(true);
                    return "interrupted";
                }), "an interrupted submitter that had to wait was let in");
                assertInstanceOf(InterruptedException.class, e.getCause());
                assertTrue(Thread.interrupted(), "the interrupt status was not set again");
            } finally {
                rejected.countDown();
            }
        });
        Thread other = start("other submitter", () -> group.go(() -> {
            assertTrue(rejected.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "never released");
            return "other";
        }));
        untilParked(other);
        group.setLimit(1); // a slot for the head of the queue: either submitter
        join(interrupted, other);
        assertEquals(List.of("other"), group.await(), "the slot was not passed on to the next in line");
        assertFalse(interruptedRan.get());
        group.close();
    }

    /** tryGo never overtakes a blocked submitter: while s1 waits, tryGo gets in only after s1's task has. */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void tryGoNeverOvertakesABlockedSubmitter() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch firstTaskEnds = new CountDownLatch(1);
        AtomicBoolean s1Started = new AtomicBoolean();
        group.go(holding(1, firstTaskEnds, "t0"));
        Thread s1 = start("s1", () -> group.go(() -> {
            s1Started.set(true);
            return "s1";
        }));
        untilParked(s1);
        Thread trier = start("tryGo", () -> {
            for (int i = 0; i < 3; i++) {
                Optional<Future<String>> f = group.tryGo(() -> "tryGo");
                if (f.isPresent()) {
                    assertTrue(s1Started.get(), "tryGo took the slot of a blocked submitter");
                    return;
                }
                Thread.yield();
            }
        });
        firstTaskEnds.countDown();
        join(s1, trier);
        group.await();
        group.close();
    }

    /**
     * A task counts against the limit until it returns, and no longer: once its Future is done, with a result or
     * with the task's failure, its slot is free, so tryGo lets the next task in (a failure has cancelled the
     * group by then: tryGo gives a cancelled Future) and setLimit does not throw. Also: the failure has cancelled
     * the group before its Future is done.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aDoneFutureHoldsNoSlot() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        Future<String> returns = group.go(() -> "returns");
        until("the first task's Future is done", returns::isDone);
        Optional<Future<String>> fails = group.tryGo(() -> {
            throw new IllegalStateException("fails");
        });
        assertTrue(fails.isPresent(), "tryGo refused a task although the only task's Future was done");
        until("the failing task's Future is done", fails.get()::isDone);
        assertTrue(group.isCancelled(), "the failing task's Future was done before the failure cancelled the group");
        Optional<Future<String>> afterFailure = group.tryGo(() -> "never runs");
        assertTrue(afterFailure.isPresent() && afterFailure.get().isCancelled());
        group.setLimit(1); // throws while a task is active
        ExecutionException e = assertThrows(ExecutionException.class, group::await);
        assertEquals("fails", e.getCause().getMessage());
        group.close();
    }

    /**
     * A task's {@code Future.get} racing the task's completion (CHANGELOG: "a task's {@code Future.get} (also
     * timed) waits in a queue of the group's own ... a {@code get} that times out or is interrupted once the task
     * has completed returns its result, as {@code FutureTask}'s does"): two threads in {@code get()} both return
     * the result, whenever the task completes (before either looked, while one queues, once both wait); a third
     * getter, interrupted at any moment, either throws {@code InterruptedException} (its status then clear) or
     * returns the result with its interrupt status set, never loses the interrupt.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void everyThreadInAFuturesGetGetsTheOutcomeAndKeepsItsInterrupt() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        Future<String> f = group.go(() -> "result");
        Thread first = start("getter 1", () -> assertEquals("result", f.get()));
        Thread second = start("getter 2", () -> assertEquals("result", f.get()));
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread interrupted = start("interrupted getter", () -> {
            boolean threw = false;
            try {
                assertEquals("result", f.get());
            } catch (InterruptedException e) {
                threw = true;
            }
            until("the interrupt is sent", interruptSent::get);
            boolean statusSet = Thread.interrupted();
            assertTrue(threw != statusSet, threw ? "get threw InterruptedException and left the status set"
                    : "get returned the result and lost the interrupt");
        });
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        join(first, second, interrupter, interrupted);
        assertEquals(List.of("result"), group.await());
        group.close();
    }

    /**
     * cancel() (here through close()) interrupts the running tasks, lets blocked submitters go with a cancelled
     * Future, starts nothing afterwards, and close() returns only once no task of the group runs; await then
     * throws CancellationException. The first task, if it started (the cancellation may come first), waits untimed
     * for an interrupt, so it ends only by the cancellation's: a cancellation that does not interrupt it leaves
     * close() stuck, which the bound of the join reports.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void closeCancelsAndWaitsForTheTasks() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean started = new AtomicBoolean();
        AtomicBoolean interrupted = new AtomicBoolean();
        Future<String> first = group.go(() -> {
            running.incrementAndGet();
            started.set(true);
            try {
                never.await();
                return "not cancelled";
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            } finally {
                running.decrementAndGet();
            }
        });
        AtomicReference<Future<String>> blocked = new AtomicReference<>();
        Thread submitter = start("submitter", () -> blocked.set(group.go(() -> "never runs")));
        Thread closer = start("closer", () -> {
            group.close();
            assertEquals(0, running.get(), "close() returned while a task of the group ran");
        });
        join(submitter, closer);
        assertTrue(blocked.get().isCancelled(), "a submitter let go by the cancellation got a live Future");
        assertTrue(first.isCancelled());
        assertTrue(group.go(() -> "after").isCancelled(), "a go after the cancellation started a task");
        assertThrows(CancellationException.class, group::await);
        assertEquals(started.get(), interrupted.get(), "the running task was not interrupted by the cancellation");
    }

    /**
     * A task the executor runs only once the group's cancellation has begun never starts (the class javadoc:
     * "tasks that have not started yet never start"). The group has two tasks, both registered before the
     * cancellation: "a", started at once, and "b", whose executor thread calls the group's {@code Runnable} only
     * once a's {@code Future} is cancelled, that is after the group was cancelled but possibly before the
     * cancellation has reached b's {@code Future} (the cancellation walks the members in {@code go} order). b's
     * body must never run: a member that ran its task without checking whether the group is cancelled would start
     * b in that window.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskRunByTheExecutorAfterTheCancellationBeganNeverStarts() throws Exception {
        AtomicReference<Future<String>> a = new AtomicReference<>();
        ConcurrentLinkedQueue<Thread> executorThreads = new ConcurrentLinkedQueue<>();
        AtomicInteger executed = new AtomicInteger();
        Executor deferringTheSecond = task -> {
            boolean second = executed.incrementAndGet() == 2;
            executorThreads.add(Thread.ofPlatform().name(second ? "runs-b" : "runs-a").start(() -> {
                if (second) {
                    until("a's Future is cancelled", () -> a.get().isCancelled());
                }
                task.run();
            }));
        };
        TaskGroup<String> group = TaskGroup.create(2, deferringTheSecond);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean bStarted = new AtomicBoolean();
        a.set(group.go(() -> {
            never.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return "a";
        }));
        Future<String> b = group.go(() -> {
            bStarted.set(true);
            return "b";
        });
        group.cancel();
        join(executorThreads.toArray(new Thread[0]));
        assertFalse(bStarted.get(), "a task of the group started after the group was cancelled");
        assertTrue(b.isCancelled());
    }

    /**
     * close() interrupted while it waits keeps waiting, and sets the interrupt status again before it returns
     * (its javadoc): the group's task ignores interrupts and ends only once a releaser, who waits for the group to
     * be cancelled, lets it go; the closer is interrupted at any point, before or during close(). Invariant:
     * close() returns only after the task ended (if it started), with the closer's interrupt status set.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedCloseWaitsForTheTasksAndKeepsTheInterrupt() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        AtomicBoolean release = new AtomicBoolean();
        AtomicBoolean started = new AtomicBoolean();
        AtomicBoolean ended = new AtomicBoolean();
        group.go(() -> {
            started.set(true);
            try {
                until("the task is released", release::get); // ignores the cancellation's interrupt
                return "released";
            } finally {
                ended.set(true);
            }
        });
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread closer = start("closer", () -> {
            group.close();
            assertEquals(started.get(), ended.get(), "close() returned while a task of the group ran");
            until("the interrupt is sent", interruptSent::get);
            assertTrue(Thread.interrupted(), "close() returned without the interrupt status it was sent");
        });
        Thread interrupter = start("interrupter", () -> {
            closer.interrupt();
            interruptSent.set(true);
        });
        Thread releaser = start("releaser", () -> {
            until("the group is cancelled", group::isCancelled);
            Thread.yield();
            release.set(true);
        });
        join(closer, interrupter, releaser);
    }

    /**
     * {@code await()} from one of the group's own tasks waits for that task too, until its thread is interrupted;
     * a cancellation of the group interrupts the task, and {@code await} then throws {@code InterruptedException}
     * (the class javadoc, "Rounds"; errgroup's {@code Wait} from one of its goroutines). "self" awaits its own
     * group; "other" ends; a closer, once other ended, closes the group at any point of self's run. self's
     * {@code await} never returns (the round ended with self still running), and never throws before the
     * cancellation; self either never started or its {@code await} threw {@code InterruptedException}, and
     * {@code close()} returns once self ended (an await the cancellation did not end leaves the closer stuck,
     * which the bound of the join reports).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void awaitFromATaskOfTheGroupWaitsForItUntilTheCancellation() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        AtomicBoolean otherEnded = new AtomicBoolean();
        AtomicBoolean closing = new AtomicBoolean();
        AtomicReference<String> selfOutcome = new AtomicReference<>("never started");
        Future<String> self = group.go(() -> {
            selfOutcome.set("awaiting");
            try {
                selfOutcome.set("await returned " + group.await());
            } catch (InterruptedException e) {
                selfOutcome.set(closing.get() ? "interrupted" : "interrupted before the cancellation");
                throw e;
            } catch (CancellationException | ExecutionException e) {
                selfOutcome.set("await threw " + e);
            }
            return "self";
        });
        group.go(() -> {
            otherEnded.set(true);
            return "other";
        });
        Thread closer = start("closer", () -> {
            until("the other task ended", otherEnded::get);
            closing.set(true);
            group.close();
        });
        join(closer);
        assertTrue(Set.of("never started", "interrupted").contains(selfOutcome.get()),
                () -> "await() from a task of the group: " + selfOutcome.get());
        assertTrue(self.isCancelled(), "the cancellation left the awaiting task's Future live");
        assertThrows(CancellationException.class, group::await);
    }

    /**
     * A cancellation clears only the interrupt it delivered to the run it cancels: whenever {@code cancel(true)}
     * of a task's Future, or of the group, comes (before the task starts, while it runs, as it returns), the
     * thread that runs the task ends with the interrupt status it had before (a runner interrupted on its own
     * stays interrupted, one that was not is not), and a task blocked when it is cancelled is interrupted.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aCancellationClearsOnlyTheInterruptItDelivered() throws Exception {
        ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
        TaskGroup<String> group = TaskGroup.create(-1, queued::add);
        CountDownLatch never = new CountDownLatch(1);
        Future<String> ownInterrupt = group.go(() -> {
            Thread.yield();
            return "own";
        });
        Future<String> noInterrupt = group.go(() -> {
            Thread.yield();
            return "none";
        });
        AtomicBoolean blockedNotInterrupted = new AtomicBoolean();
        group.go(() -> {
            // Checked on the test thread: what a task throws goes into what await throws, not to the test.
            blockedNotInterrupted.set(!never.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS));
            return "never opens";
        });
        Runnable[] members = queued.toArray(Runnable[]::new);
        AtomicBoolean ownKept = new AtomicBoolean();
        AtomicBoolean leaked = new AtomicBoolean();
        Thread withOwn = start("runner interrupted on its own", () -> {
            Thread.currentThread().interrupt();
            members[0].run();
            ownKept.set(Thread.interrupted());
        });
        Thread[] others = new Thread[2];
        for (int i = 0; i < others.length; i++) {
            Runnable member = members[i + 1];
            others[i] = start("runner " + (i + 1), () -> {
                member.run();
                if (Thread.interrupted()) {
                    leaked.set(true);
                }
            });
        }
        Thread futureCanceller = start("Future canceller", () -> {
            ownInterrupt.cancel(true);
            noInterrupt.cancel(true);
        });
        Thread groupCanceller = start("group canceller", group::cancel);
        join(withOwn, others[0], others[1], futureCanceller, groupCanceller);
        assertTrue(ownKept.get(), "the runner's own interrupt was cleared");
        assertFalse(leaked.get(), "a cancellation's interrupt leaked past the task into its runner");
        assertFalse(blockedNotInterrupted.get(), "a task blocked when it was cancelled was not interrupted");
        assertThrows(CancellationException.class, group::await);
    }

    /**
     * A task run nested in another one's call on its thread (here inline in its go, by an executor of another
     * group) shares its interrupt status: whenever the cancellations of both groups come, and although the
     * nested task consumes its interrupt, the enclosing task, cancelled while it runs, is interrupted when it
     * goes on, and no cancellation's interrupt outlives the enclosing task in its runner.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellation() throws Exception {
        aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellationScenario();
    }

    /**
     * The schedule in which aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellation failed on the code before
     * the fix (iteration 15): the nested task's return cleared the interrupt the enclosing task was sent.
     */
    @FrayTest(replay = "classpath:fray-recordings/TaskGroupFrayTest/aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellation",
            resetClassLoaderPerIteration = false, systemTimeDelegateType = SystemTimeDelegateType.MOCK,
            ignoreTimedBlock = false, scheduler = RandomScheduler.class)
    void aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellationReplay() throws Exception {
        aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellationScenario();
    }

    private void aNestedTaskKeepsTheInterruptOfItsEnclosingTasksCancellationScenario() throws Exception {
        ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
        TaskGroup<String> outerGroup = TaskGroup.create(-1, queued::add);
        TaskGroup<String> innerGroup = TaskGroup.create(-1, Runnable::run);
        AtomicBoolean outerGroupCancelled = new AtomicBoolean();
        AtomicReference<Boolean> outerSawInterrupt = new AtomicReference<>();
        Future<String> outer = outerGroup.go(() -> {
            innerGroup.go(() -> {
                Thread.yield();
                Thread.interrupted(); // as a blocking call's InterruptedException, caught
                return "inner";
            });
            while (!outerGroupCancelled.get()) {
                Thread.yield(); // without looking at the interrupt status
            }
            outerSawInterrupt.set(Thread.interrupted());
            return "outer";
        });
        Runnable member = queued.remove();
        AtomicBoolean leaked = new AtomicBoolean();
        Thread runner = start("runner", () -> {
            member.run();
            leaked.set(Thread.interrupted());
        });
        Thread outerCanceller = start("outer group canceller", () -> {
            outerGroup.cancel();
            outerGroupCancelled.set(true);
        });
        Thread innerCanceller = start("inner group canceller", innerGroup::cancel);
        join(runner, outerCanceller, innerCanceller);
        assertTrue(outer.isCancelled());
        assertTrue(outerSawInterrupt.get() == null || outerSawInterrupt.get(),
                "the enclosing task, cancelled while it ran, lost its interrupt to the task nested in it");
        assertFalse(leaked.get(), "a cancellation's interrupt leaked past the task into its runner");
    }

    /**
     * The interrupt of the cancellation of a nested task alone (its group's or its Future's, whenever they come)
     * is cleared when it returns: the enclosing task, not cancelled, never sees it.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aNestedTasksOwnCancellationDoesNotReachItsEnclosingTask() throws Exception {
        ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
        TaskGroup<String> outerGroup = TaskGroup.create(-1, queued::add);
        TaskGroup<String> innerGroup = TaskGroup.create(-1, queued::add);
        AtomicReference<Future<String>> inner = new AtomicReference<>();
        AtomicBoolean outerSawInterrupt = new AtomicBoolean();
        outerGroup.go(() -> {
            inner.set(innerGroup.go(() -> {
                Thread.yield();
                return "inner";
            }));
            Runnable nested = queued.poll(); // none if the inner group was cancelled before the go
            if (nested != null) {
                nested.run(); // on this thread, as a ForkJoinPool worker that helps
            }
            outerSawInterrupt.set(Thread.currentThread().isInterrupted());
            return "outer";
        });
        Runnable member = queued.remove();
        Thread runner = start("runner", member::run);
        Thread groupCanceller = start("inner group canceller", innerGroup::cancel);
        Thread futureCanceller = start("nested Future canceller", () -> {
            while (inner.get() == null) {
                Thread.yield();
            }
            inner.get().cancel(true);
        });
        join(runner, groupCanceller, futureCanceller);
        assertFalse(outerSawInterrupt.get(), "the nested task's cancellation reached the task it ran nested in");
        assertEquals(List.of("outer"), outerGroup.await());
    }

    /**
     * The first task to fail cancels the group: the other running task is interrupted, a blocked submitter is
     * let go, and await throws an ExecutionException whose cause is that first failure, only once no task of the
     * group runs: the interrupted task, if it started, has ended (it yields in its finally before it says so), for
     * an await that started before the failure and one that starts after it.
     */
    @FrayTest(iterations = 150 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theFirstFailureCancelsTheOthers() throws Exception {
        TaskGroup<String> group = TaskGroup.create(2, PLATFORM_THREADS);
        CountDownLatch never = new CountDownLatch(1);
        IllegalStateException failure = new IllegalStateException("task failed");
        AtomicBoolean victimStarted = new AtomicBoolean();
        AtomicBoolean victimEnded = new AtomicBoolean();
        Future<String> victim = group.go(() -> {
            victimStarted.set(true);
            try {
                never.await();
                return "not cancelled";
            } finally {
                Thread.yield();
                victimEnded.set(true);
            }
        });
        group.go(() -> {
            Thread.yield();
            throw failure;
        });
        AtomicReference<Future<String>> blocked = new AtomicReference<>();
        Thread submitter = start("submitter", () -> blocked.set(group.go(() -> "maybe")));
        Thread lateAwaiter = start("awaiter after the failure", () -> { // the test thread's await mostly comes first
            until("the failure cancels the group", group::isCancelled);
            ExecutionException e = assertThrows(ExecutionException.class, group::await);
            assertSame(failure, e.getCause());
            assertEquals(victimStarted.get(), victimEnded.get(), "an await after the failure threw while a task ran");
        });
        ExecutionException e = assertThrows(ExecutionException.class, group::await);
        assertSame(failure, e.getCause());
        assertEquals(victimStarted.get(), victimEnded.get(), "await threw while a task of the group ran");
        join(lateAwaiter);
        assertTrue(victim.isCancelled(), "the running task was not cancelled");
        join(submitter);
        Future<String> late = blocked.get();
        assertTrue(late.isCancelled() || "maybe".equals(late.get()), "a let-in task neither ran nor was cancelled");
        group.close();
    }

    /**
     * {@code setLimit} "@throws IllegalStateException if {@code limit} is zero or more and a task of the group is
     * active ...; the limit is then unchanged": limit 1, t holds its slot until let go, s queues for it at any
     * moment; {@code setLimit(2)} while t runs throws, s is never let in beside t (the limit stayed 1), and s runs
     * once t returned.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void setLimitWhileATaskIsActiveThrowsAndKeepsTheLimit() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch release = new CountDownLatch(1);
        group.go(holding(1, release, "t"));
        Thread submitter = start("submitter", () -> group.go(holding(1, release, "s")));
        assertThrows(IllegalStateException.class, () -> group.setLimit(2), () -> "setLimit(2) while t ran: " + group);
        release.countDown();
        join(submitter);
        assertEquals(List.of("t", "s"), group.await());
        group.close();
    }

    /**
     * setLimit lets every waiting submitter that fits the new limit in at once, first come, first served: four
     * submitters queue on a limit of zero; setLimit(2) lets in the first two while their tasks still run, and
     * setLimit(-1) the other two.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void setLimitLetsInEveryWaiterThatFits() throws Exception {
        TaskGroup<String> group = TaskGroup.create(0, PLATFORM_THREADS);
        CountDownLatch tasksEnd = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> admitted = new ConcurrentLinkedQueue<>();
        Thread[] submitters = new Thread[4];
        for (int i = 0; i < submitters.length; i++) {
            String name = "s" + (i + 1);
            submitters[i] = start(name, () -> {
                group.go(holding(4, tasksEnd, name));
                admitted.add(name);
            });
            untilParked(submitters[i]);
        }
        group.setLimit(2);
        until("setLimit(2) lets two submitters in", () -> admitted.size() == 2);
        assertEquals(Set.of("s1", "s2"), Set.copyOf(admitted), "setLimit let in a later submitter");
        group.setLimit(-1);
        until("setLimit(-1) lets everyone in", () -> admitted.size() == 4);
        tasksEnd.countDown();
        join(submitters);
        assertEquals(List.of("s1", "s2", "s3", "s4"), group.await().stream().sorted().toList());
        group.close();
    }

    /**
     * The submitters setLimit lets in hold their slots as tasks let in by go do (setLimit: "Submitters waiting in
     * go that fit the new limit are let in at once"; "@throws IllegalStateException if limit is zero or more and a
     * task of the group is active: let in by go or tryGo and not yet returned"). s1, s2 and s3 queue on a limit of
     * zero; setLimit(2) races a tryGo (refused either way: limit 0, then full with s3 waiting) and lets in s1 and
     * s2; while their tasks run, setLimit(1) throws and the limit stays 2: s3 goes in only once a slot is given
     * back, never three at once; after await, setLimit(1) succeeds and holds a second task back. Coverage review 18,
     * mutant TG-S: TaskSlots.setLimitLocked handing the slots without counting them (active stays 0: setLimit(1)
     * passes beside two running tasks, and each return then frees a slot that was never taken).
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theSubmittersSetLimitLetsInHoldTheirSlots() throws Exception {
        TaskGroup<String> group = TaskGroup.create(0, PLATFORM_THREADS);
        CountDownLatch firstEnd = new CountDownLatch(1);
        CountDownLatch thirdEnd = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> admitted = new ConcurrentLinkedQueue<>();
        Thread[] submitters = new Thread[3];
        for (int i = 0; i < submitters.length; i++) {
            String name = "s" + (i + 1);
            CountDownLatch end = i < 2 ? firstEnd : thirdEnd;
            submitters[i] = start(name, () -> {
                group.go(holding(2, end, name));
                admitted.add(name);
            });
            untilParked(submitters[i]);
        }
        AtomicReference<Boolean> tried = new AtomicReference<>();
        Thread tryGo = start("tryGo", () -> tried.set(group.tryGo(holding(2, thirdEnd, "never")).isPresent()));
        group.setLimit(2);
        join(tryGo);
        assertFalse(tried.get(), "tryGo got in on a limit of 0, or beside two tasks with s3 waiting");
        until("setLimit(2) lets s1 and s2 in", () -> admitted.size() == 2);
        assertEquals(Set.of("s1", "s2"), Set.copyOf(admitted));
        assertThrows(IllegalStateException.class, () -> group.setLimit(1),
                () -> "setLimit(1) while the two tasks setLimit(2) let in run: " + group);
        assertFalse(submitters[2].getState() == Thread.State.TERMINATED, "s3 went in beside s1 and s2");
        firstEnd.countDown();
        join(submitters);
        thirdEnd.countDown();
        assertEquals(List.of("s1", "s2", "s3"), group.await().stream().sorted().toList());
        group.setLimit(1); // no task of the group is active now
        CountDownLatch lastEnd = new CountDownLatch(1);
        assertTrue(group.tryGo(holding(1, lastEnd, "t1")).isPresent(), "tryGo refused on an idle group of limit 1");
        assertTrue(group.tryGo(holding(1, lastEnd, "t2")).isEmpty(), "a second task got in on a limit of 1");
        lastEnd.countDown();
        assertEquals(List.of("t1"), group.await());
        group.close();
    }

    /**
     * Any negative limit means none, on a new group and by setLimit (TaskGroup: "As in errgroup, a negative limit
     * means none"; create: "negative: no limit"; setLimit: "negative means no limit ... Submitters waiting in go
     * that fit the new limit are let in at once"). A group made with limit -2: s1 and s2 submit racing, both are
     * let in and their tasks run at once. After the round, setLimit(0) holds s3 and s4 back (tryGo refused), and
     * setLimit(Integer.MIN_VALUE), racing a tryGo, lets both in while their tasks run together. (Coverage review
     * 11, mutant TG-N: TaskSlots taking only -1 for "none", the other negatives kept as limits that let nobody in:
     * every test used -1, and no unit test either.)
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anyNegativeLimitMeansNone() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-2, PLATFORM_THREADS);
        CountDownLatch firstEnd = new CountDownLatch(1);
        Thread s1 = start("s1", () -> group.go(holding(Integer.MAX_VALUE, firstEnd, "s1")));
        Thread s2 = start("s2", () -> group.go(holding(Integer.MAX_VALUE, firstEnd, "s2")));
        join(s1, s2);
        until("s1's and s2's tasks run at once", () -> running.get() == 2);
        firstEnd.countDown();
        assertEquals(List.of("s1", "s2"), group.await().stream().sorted().toList());
        group.setLimit(0);
        CountDownLatch secondEnd = new CountDownLatch(1);
        Thread s3 = start("s3", () -> group.go(holding(Integer.MAX_VALUE, secondEnd, "s3")));
        untilParked(s3);
        Thread s4 = start("s4", () -> group.go(holding(Integer.MAX_VALUE, secondEnd, "s4")));
        untilParked(s4);
        assertTrue(group.tryGo(holding(Integer.MAX_VALUE, secondEnd, "never")).isEmpty(), "tryGo got in on limit 0");
        AtomicReference<Boolean> tried = new AtomicReference<>();
        Thread t = start("tryGo", () -> tried.set(group.tryGo(holding(Integer.MAX_VALUE, secondEnd, "t")).isPresent()));
        group.setLimit(Integer.MIN_VALUE);
        join(s3, s4, t);
        int expected = Boolean.TRUE.equals(tried.get()) ? 3 : 2;
        until("the tasks let in by setLimit(MIN_VALUE) run at once", () -> running.get() == expected);
        secondEnd.countDown();
        assertEquals(expected == 3 ? List.of("s3", "s4", "t") : List.of("s3", "s4"),
                group.await().stream().sorted().toList());
        group.close();
    }

    /**
     * An executor that starts the task and then throws: go throws RejectedExecutionException, and the task is
     * part of the group exactly when it had started: then it holds its slot until it returns and await reports
     * its result; otherwise it never runs, its slot is free at once and await does not report it. Whoever
     * claims the task first decides; the slot is given back once, never twice.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskTheExecutorRejectedIsPartOfTheGroupOnlyIfItStarted() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean(true);
        AtomicReference<Thread> runner = new AtomicReference<>();
        Executor startsThenMayThrow = command -> {
            Thread t = Thread.ofPlatform().start(command);
            if (failNext.compareAndSet(true, false)) {
                runner.set(t);
                throw new RejectedExecutionException("the executor failed after it had started the task");
            }
        };
        TaskGroup<String> group = TaskGroup.create(1, startsThenMayThrow);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean ran = new AtomicBoolean();
        assertThrows(RejectedExecutionException.class, () -> group.go(() -> {
            ran.set(true);
            assertTrue(release.await(FrayThreads.TIMEOUT_SECONDS, TimeUnit.SECONDS), "never released");
            return "rejected";
        }));
        Optional<Future<String>> next = group.tryGo(() -> "next"); // the slot is free iff the task never runs
        release.countDown();
        join(runner.get());
        if (ran.get()) {
            assertTrue(next.isEmpty(), "tryGo got the slot of a task that runs");
            assertEquals(List.of("rejected"), group.await(), "a started task was not reported");
        } else {
            assertTrue(next.isPresent(), "the slot of a task that never ran was not given back");
            assertEquals(List.of("next"), group.await());
        }
        CountDownLatch hold = new CountDownLatch(1);
        assertTrue(group.tryGo(holding(1, hold, "held")).isPresent(), "a slot was lost");
        assertTrue(group.tryGo(() -> "over the limit").isEmpty(), "a slot was given back twice: the limit is broken");
        hold.countDown();
        assertEquals(List.of("held"), group.await());
        group.close();
    }

    /**
     * The slot of a task the executor refused goes to the next blocked submitter ({@code TaskGroup}: "a slot
     * given back goes to the submitter that has been queued longest"): limit 1, t0 runs, s1, s2 and s3 block in
     * that order; t0 ends and its slot goes to s1, whose task the executor refuses without running it; s1 gets
     * {@link RejectedExecutionException}, and its slot goes on to s2 (woken: it must not wait for another task to
     * end, and none will), then to s3 once s2's task ended. s1's task never runs; the tasks start in the order
     * t0, s2, s3, never two at once; {@code await} reports those three.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theSlotOfATaskTheExecutorRefusedGoesToTheNextSubmitter() throws Exception {
        AtomicInteger executions = new AtomicInteger();
        Executor refusesTheSecond = task -> {
            if (executions.incrementAndGet() == 2) {
                throw new RejectedExecutionException("the executor refuses the second task");
            }
            PLATFORM_THREADS.execute(task);
        };
        TaskGroup<String> group = TaskGroup.create(1, refusesTheSecond);
        ConcurrentLinkedQueue<String> started = new ConcurrentLinkedQueue<>();
        java.util.function.Function<String, TaskGroupTask> recording = name -> () -> {
            assertTrue(running.incrementAndGet() <= 1, "more tasks run than the limit");
            try {
                started.add(name);
                Thread.yield();
                return name;
            } finally {
                running.decrementAndGet();
            }
        };
        CountDownLatch t0Ends = new CountDownLatch(1);
        group.go(holding(1, t0Ends, "t0"));
        started.add("t0");
        Thread s1 = start("s1", () -> assertThrows(RejectedExecutionException.class,
                () -> group.go(recording.apply("s1")), "the executor refused s1's task"));
        untilParked(s1);
        Thread s2 = start("s2", () -> group.go(recording.apply("s2")));
        untilParked(s2);
        Thread s3 = start("s3", () -> group.go(recording.apply("s3")));
        untilParked(s3);
        t0Ends.countDown();
        join(s1, s2, s3);
        assertEquals(List.of("s2", "s3", "t0"), group.await().stream().sorted().toList());
        assertEquals(List.of("t0", "s2", "s3"), List.copyOf(started), "the order the tasks started in");
        group.close();
    }

    /**
     * Several awaits of one round each get its results, also if the group is cancelled after the round ended
     * ({@code await}'s javadoc): two awaiters wait while the round's two tasks run; the tasks are let go, and a
     * canceller cancels the group as soon as one await has returned (so the round has ended), racing the other
     * await's end of the round. Invariant: both awaits return the results {@code [a, b]}; a later await throws
     * {@link CancellationException}.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void everyAwaitOfARoundGetsItsResultsAlsoAfterALaterCancel() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        CountDownLatch go = new CountDownLatch(1);
        Future<String> a = group.go(() -> {
            go.await();
            return "a";
        });
        Future<String> b = group.go(() -> {
            go.await();
            return "b";
        });
        AtomicReference<Object> first = new AtomicReference<>();
        AtomicReference<Object> second = new AtomicReference<>();
        Thread firstAwaiter = start("first awaiter", () -> first.set(outcomeOfAwait(group)));
        Thread secondAwaiter = start("second awaiter", () -> second.set(outcomeOfAwait(group)));
        untilParked(firstAwaiter); // parked only in the round's wait: the group's SpinLock yields on platform threads
        untilParked(secondAwaiter);
        Thread canceller = start("canceller", () -> {
            until("an await returned", () -> first.get() != null || second.get() != null);
            group.cancel();
        });
        go.countDown();
        join(firstAwaiter, secondAwaiter, canceller);
        assertEquals(List.of("a", "b"), first.get(), "what the first await returned or threw");
        assertEquals(List.of("a", "b"), second.get(), "what the second await returned or threw");
        assertThrows(CancellationException.class, group::await);
    }

    /**
     * A go concurrent with a running await (the class javadoc, Rounds): if it is counted before await finds every
     * task done, await waits for it and returns its result too; otherwise it opens the next round. An awaiter
     * waits for the round of t1 while a submitter calls go(t2). Invariant: t2 is in exactly one round's results
     * ({@code [t1, t2]} then {@code []}, or {@code [t1]} then {@code [t2]}), and an await whose results hold t2
     * returned only after t2 ended.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aGoRacingAwaitIsInExactlyOneRound() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        AtomicBoolean t2Ended = new AtomicBoolean();
        AtomicBoolean t1Returning = new AtomicBoolean();
        group.go(() -> {
            Thread.yield();
            t1Returning.set(true);
            return "t1";
        });
        AtomicReference<List<String>> firstRound = new AtomicReference<>();
        Thread awaiter = start("awaiter", () -> {
            List<String> results = group.await();
            assertTrue(!results.contains("t2") || t2Ended.get(), () -> "await returned " + results + " before t2 ended");
            firstRound.set(results);
        });
        Thread submitter = start("submitter", () -> {
            until("t1 returns", t1Returning::get); // into the window where await finds the round done
            group.go(() -> {
                try {
                    Thread.yield();
                    return "t2";
                } finally {
                    t2Ended.set(true);
                }
            });
        });
        join(awaiter, submitter);
        List<String> secondRound = group.await();
        assertTrue(t2Ended.get(), "the second await returned before t2 ended");
        if (firstRound.get().contains("t2")) {
            assertEquals(List.of("t1", "t2"), firstRound.get());
            assertEquals(List.of(), secondRound, "t2 was in two rounds");
        } else {
            assertEquals(List.of("t1"), firstRound.get());
            assertEquals(List.of("t2"), secondRound, "t2 was in no round");
        }
    }

    /**
     * Cancelling one task's Future cancels that task only, its place in the results of await holding null, and the
     * task counts against the limit until it returns; a task whose own Future was cancelled does not fail the
     * group when it throws, one that throws first does. Limit 1: t clears an interrupt and throws, while a
     * canceller calls cancel(true) on t's Future and a submitter s waits for the slot. Invariants: s never runs
     * beside t; if t saw its Future cancelled before it threw, the group is not cancelled; if the group is not
     * cancelled, t's Future is, and await returns {@code [null, s]}; if it is, await throws t's throwable as the
     * cause and s never ran.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aCancelledTaskHoldsItsSlotUntilItReturnsAndFailsNothing() throws Exception {
        // s's task runs inline in its go: let in while t runs, it gets there within t's few steps
        Executor inlineForS = task -> {
            if (Thread.currentThread().getName().equals("s")) {
                task.run();
            } else {
                PLATFORM_THREADS.execute(task);
            }
        };
        TaskGroup<String> group = TaskGroup.create(1, inlineForS);
        IllegalStateException thrown = new IllegalStateException("t failed");
        AtomicReference<Future<String>> tFuture = new AtomicReference<>();
        AtomicBoolean tRunning = new AtomicBoolean();
        AtomicBoolean sawCancelledBeforeThrow = new AtomicBoolean();
        AtomicBoolean sBesideT = new AtomicBoolean();
        AtomicBoolean sRan = new AtomicBoolean();
        tFuture.set(group.go(() -> {
            tRunning.set(true);
            try {
                Thread.yield();
                Thread.interrupted(); // ignores a cancellation's interrupt, if it came
                Future<String> own = tFuture.get();
                sawCancelledBeforeThrow.set(own != null && own.isCancelled());
                for (int i = 0; i < 3; i++) { // still counted against the limit, cancelled or not
                    Thread.yield();
                    Thread.interrupted();
                }
                throw thrown;
            } finally {
                tRunning.set(false);
            }
        }));
        Thread canceller = start("canceller", () -> tFuture.get().cancel(true));
        Thread submitter = start("s", () -> group.go(() -> {
            sBesideT.set(tRunning.get());
            sRan.set(true);
            return "s";
        }));
        join(canceller, submitter);
        if (sawCancelledBeforeThrow.get()) {
            assertFalse(group.isCancelled(), "a task whose Future was cancelled before it threw failed the group");
        }
        if (group.isCancelled()) {
            ExecutionException e = assertThrows(ExecutionException.class, group::await);
            assertSame(thrown, e.getCause());
            assertFalse(sRan.get(), "a task submitted after the failure ran");
        } else {
            assertTrue(tFuture.get().isCancelled(), "t threw, its Future not cancelled, and the group was not cancelled");
            assertEquals(Arrays.asList(null, "s"), group.await());
        }
        assertFalse(sBesideT.get(), "s ran beside t, whose cancelled Future no longer held its slot");
    }

    /**
     * {@code await()} "waits for every task started in the group", and a task is active, for {@code setLimit},
     * until it has returned: so once {@code await()} returns, no task of its round is active, also one whose
     * {@code Future} was cancelled (which holds its slot until it returns). Limit 1: t runs until interrupted,
     * a canceller calls {@code cancel(true)} on its {@code Future} at any moment (before t starts, t then never
     * runs; or while it runs) racing the main thread's {@code await()}. Invariant: {@code await()} returns
     * {@code [null]}; right after it, {@code setLimit(1)} does not throw ("a task of the group is active"), and
     * {@code tryGo} is let in.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void afterAwaitNoTaskOfTheRoundIsActiveAlsoOneWhoseFutureWasCancelled() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        Future<String> t = group.go(() -> {
            until("t is interrupted by its cancellation", () -> Thread.currentThread().isInterrupted());
            Thread.interrupted();
            return "t";
        });
        Thread canceller = start("canceller", () -> assertTrue(t.cancel(true), "t's Future was done before its cancel"));
        assertEquals(Arrays.asList((String) null), group.await());
        try {
            group.setLimit(1);
        } catch (IllegalStateException e) {
            throw new AssertionError("await() returned while a task of its round was still active", e);
        }
        Optional<Future<String>> u = group.tryGo(() -> "u");
        assertTrue(u.isPresent(), "tryGo was not let in after await() returned on a group of limit 1");
        assertEquals(List.of("u"), group.await());
        join(canceller);
    }

    /**
     * {@code close()}: "If {@code cancel()} throws (interrupting a task threw), this method still waits until none
     * of the tasks runs, and then throws that". The group's task runs on a thread whose {@code interrupt()} sets
     * the interrupt status and then throws; the task ignores interrupts and ends only once a releaser, who waits
     * for the group to be cancelled, lets it go. Invariant: close() returns or throws only after the task ended
     * (if it started), and what it throws is the interrupt's throwable.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void closeWaitsForTheTasksAlsoWhenInterruptingOneThrows() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, task -> new InterruptThrows(task).start());
        AtomicBoolean release = new AtomicBoolean();
        AtomicBoolean started = new AtomicBoolean();
        AtomicBoolean ended = new AtomicBoolean();
        group.go(() -> {
            started.set(true);
            try {
                until("the task is released", release::get); // ignores the cancellation's interrupt
                return "released";
            } finally {
                ended.set(true);
            }
        });
        Thread closer = start("closer", () -> {
            String outcome = "returned";
            try {
                group.close();
            } catch (IllegalStateException e) {
                assertSame(InterruptThrows.INJECTED, e.getMessage(), "close() threw another exception");
                outcome = "threw";
            }
            String how = outcome;
            assertEquals(started.get(), ended.get(), () -> "close() " + how + " while a task of the group ran");
        });
        Thread releaser = start("releaser", () -> {
            until("the group is cancelled", group::isCancelled);
            Thread.yield();
            release.set(true);
        });
        join(closer, releaser);
    }

    /**
     * The class javadoc, Failure and cancellation: "await throws an ExecutionException whose cause is that first
     * throwable. What other tasks throw afterwards is attached to it as suppressed ..., except an
     * InterruptedException". Tasks a and b, once both run, each throw their own exception, racing; c waits until the
     * cancellation interrupts it and throws InterruptedException. Invariant: the cause is a or b, one that saw
     * the group cancelled before it threw is not the cause, and the other one is the only suppressed throwable.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void theFirstFailureIsTheCauseAndTheLaterOnesSuppressed() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        IllegalStateException a = new IllegalStateException("a failed");
        IllegalStateException b = new IllegalStateException("b failed");
        Set<Throwable> thrownAfterTheCancellation = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger started = new AtomicInteger();
        for (IllegalStateException thrown : List.of(a, b)) {
            group.go(() -> {
                started.incrementAndGet();
                until("a and b run", () -> started.get() == 2); // a task not started when the group is cancelled never runs
                if (group.isCancelled()) {
                    thrownAfterTheCancellation.add(thrown);
                }
                throw thrown;
            });
        }
        group.go(() -> {
            until("c is interrupted by the cancellation", Thread::interrupted);
            throw new InterruptedException("c");
        });
        ExecutionException e = assertThrows(ExecutionException.class, group::await);
        Throwable cause = e.getCause();
        assertTrue(cause == a || cause == b, () -> "the cause is " + cause);
        assertFalse(thrownAfterTheCancellation.contains(cause), "the cause was thrown after the group was cancelled");
        assertEquals(List.of(cause == a ? b : a), List.of(e.getSuppressed()), "what is suppressed in await's exception");
        assertEquals(List.of(), List.of(cause.getSuppressed()), "what is suppressed in the cause");
        group.close();
    }

    /** The results {@code await} returned, or the class of what it threw. */
    private static Object outcomeOfAwait(TaskGroup<String> group) throws Exception {
        try {
            return group.await();
        } catch (CancellationException | ExecutionException e) {
            return e.getClass();
        }
    }

    /**
     * "An interrupted submitter does not spin, and goes in only if it finds a slot free without waiting" (the
     * class javadoc; a platform submitter that finds the group full with nobody queued otherwise spin-waits for a
     * slot first): on a full group (limit 1, t0 holding its slot to the end) a platform submitter interrupted
     * before {@code go} is rejected, its status set, having spun nothing. It is the only thread that runs
     * meanwhile (the main thread waits in {@code join}, t0 on its latch), so the virtual time its {@code go}
     * takes counts its own scheduling steps (and t0's few as it starts), 1.5 to 5.3 ms on the real code; a
     * {@code go} that first spins while the group looks full takes a step or more for each of its spin-waits
     * (coverage review 15, mutant TG-I, the interrupt status dropped from the spin's condition: 203.5 ms, caught
     * at iteration 0; no other TaskGroup Fray or unit test sees the spin, since a slot that frees during it lets
     * the submitter in, which a single look at that moment would do as well).
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedSubmitterOnAFullGroupDoesNotSpin() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        CountDownLatch t0Ends = new CountDownLatch(1);
        group.go(holding(1, t0Ends, "t0"));
        AtomicLong took = new AtomicLong(-1);
        Thread s = start("interrupted submitter", () -> {
            Thread.currentThread().interrupt();
            long before = System.nanoTime();
            assertThrows(RejectedExecutionException.class, () -> group.go(() -> "s"),
                    "an interrupted submitter on a full group was let in");
            took.set(System.nanoTime() - before);
            assertTrue(Thread.interrupted(), "the interrupt status was not set again");
        });
        join(s);
        t0Ends.countDown();
        assertEquals(List.of("t0"), group.await());
        assertTrue(took.get() < TimeUnit.MILLISECONDS.toNanos(20), () -> "the interrupted submitter's go took "
                + took.get() / 1_000 + " µs of virtual time on a full group: it spun before it looked");
        group.close();
    }

    /**
     * The class javadoc, Failure and cancellation: "{@code cancel()} cancels the group the same way without a
     * failure, and {@code await} then throws a {@link CancellationException}", with what tasks throw afterwards
     * "attached ... as suppressed ..., except an InterruptedException". Two tasks wait for the cancellation's
     * interrupt: t then throws an exception of its own (as a task that translates an interrupt does), u an
     * InterruptedException; a canceller cancels the group at any moment, maybe before either starts (a task not
     * started then never runs). Invariant: await throws CancellationException, with t's exception suppressed if t
     * ran and nothing else; the group's later await throws the same way. (Coverage review 20, mutant TG-CF: a
     * failure after cancel() taken as the group's first failure, so await throws ExecutionException, caught at
     * iteration 0; the other TaskGroupFrayTests that cancel have their tasks throw InterruptedException only.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTaskThatFailsAfterCancelIsSuppressedInTheCancellation() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, PLATFORM_THREADS);
        IllegalStateException stopped = new IllegalStateException("t stopped on the cancellation");
        AtomicBoolean tRan = new AtomicBoolean();
        group.go(() -> {
            tRan.set(true);
            until("t is interrupted by the cancellation", Thread::interrupted);
            throw stopped;
        });
        group.go(() -> {
            until("u is interrupted by the cancellation", Thread::interrupted);
            throw new InterruptedException("u");
        });
        Thread canceller = start("canceller", group::cancel);
        CancellationException e = assertThrows(CancellationException.class, group::await,
                "await of a group cancelled by cancel()");
        join(canceller);
        assertEquals(tRan.get() ? List.of(stopped) : List.of(), List.of(e.getSuppressed()),
                "what is suppressed in await's CancellationException");
        assertThrows(CancellationException.class, group::await, "a later await of the cancelled group");
        group.close();
    }

    /**
     * The class javadoc: "Cancellation is final: afterwards {@code go} and {@code tryGo} start nothing and return an
     * already cancelled {@code Future}"; {@code tryGo}: "If the group is cancelled, the task does not start and the
     * returned {@code Future} is cancelled", empty only "if it would have had to wait". Limit 1: t holds the slot
     * until the cancellation interrupts it; {@code tryGo} on the full group finds it full (empty); a canceller
     * cancels the group, and a thread calls {@code tryGo} as soon as the group shows cancelled, racing t's return
     * of its slot: it gets a cancelled {@code Future}, whether or not t still holds the slot, and its task never
     * runs. (Coverage review 20, mutant TG-TC: a full group answering {@code tryGo} before it looks whether it is
     * cancelled, caught at iteration 0; the other TaskGroupFrayTests call {@code tryGo} on open groups only.)
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void tryGoOnACancelledGroupGivesACancelledFutureAlsoWhileItIsFull() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1, PLATFORM_THREADS);
        AtomicBoolean ranAfterTheCancellation = new AtomicBoolean();
        Future<String> t = group.go(() -> {
            until("t is interrupted by the cancellation", Thread::interrupted);
            return "t";
        });
        assertTrue(group.tryGo(() -> "never").isEmpty(), "tryGo on a full open group let a task in");
        AtomicReference<Optional<Future<String>>> tried = new AtomicReference<>();
        Thread trier = start("tryGo", () -> {
            until("the group is cancelled", group::isCancelled);
            tried.set(group.tryGo(() -> {
                ranAfterTheCancellation.set(true);
                return "after";
            }));
        });
        Thread canceller = start("canceller", group::cancel);
        join(canceller, trier);
        Optional<Future<String>> late = tried.get();
        assertTrue(late.isPresent(), "tryGo on a cancelled group returned empty, as if it had only been full");
        assertTrue(late.get().isCancelled(), "tryGo on a cancelled group returned a live Future");
        group.close();
        assertTrue(t.isCancelled(), "t was not cancelled");
        assertFalse(ranAfterTheCancellation.get(), "a task of tryGo ran after the cancellation");
    }
}
