package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TaskGroup}'s slots, submitter order and interrupt status: each test states the contract it holds the class to. */
@Timeout(60)
class TaskGroupSlotsAndOrderTest {

    /**
     * Contract (class javadoc, Limit): "A task counts against the limit from the moment go lets it in
     * until it returns", and setLimit throws only while "a task of the group is active: let in by go or
     * tryGo and not yet returned". So once a task's Future is done (normally or with the task's failure),
     * its slot is free: tryGo lets the next task in and setLimit does not throw. Made deterministic by
     * holding the group's lock while the task returns: its thread then stops where it gives the slot
     * back, and its Future must not be done yet (it was, when the slot was given back after the Future
     * completed). A failing task takes the lock first to record its failure, so that path is
     * TaskGroupFrayTest's (systematic-tests).
     */
    @Test
    void aTaskWhoseFutureIsDoneHasGivenItsSlotBack() throws Exception {
        AtomicReference<Thread> runner = new AtomicReference<>();
        Executor recordingThread = task -> {
            Thread t = Thread.ofPlatform().daemon(true).unstarted(task);
            runner.set(t);
            t.start();
        };
        TaskGroup<Integer> group = TaskGroup.create(1, recordingThread);
        CountDownLatch end = new CountDownLatch(1);
        Future<Integer> f = group.go(() -> {
            assertTrue(end.await(10, TimeUnit.SECONDS));
            return 1;
        });
        SpinLock lock = lockOf(group);
        lock.lock();
        try {
            end.countDown();
            Threads.until("the task's thread waits for the group's lock", () -> Arrays.stream(runner.get().getStackTrace())
                    .anyMatch(e -> e.getClassName().equals(SpinLock.class.getName()) && e.getMethodName().equals("lock")));
            assertFalse(f.isDone(), "the Future completed before the task gave its slot back");
        } finally {
            lock.unlock();
        }
        Threads.until("the Future is done", f::isDone);
        assertDoesNotThrow(() -> group.setLimit(1), "setLimit threw although the only task's Future was done");
        Optional<Future<Integer>> next = group.tryGo(() -> 2);
        assertTrue(next.isPresent(), () -> "tryGo refused a task although the only task's Future was done: " + group);
        assertEquals(List.of(1, 2), group.await());
        group.close();
    }

    /**
     * Contract (class javadoc, Limit): blocked submitters go in in the order they queued, and a platform
     * thread spin-waits before it queues. So a virtual-thread submitter, which queues at once, goes in
     * before a platform submitter that called go first but was still spinning when it queued: first come
     * means first queued. The test retries until it catches the platform submitter spinning after the
     * virtual one has parked (the spin lasts tens of µs), then checks who goes in first.
     */
    @Test
    void aSubmitterThatQueuesWhileAPlatformSubmitterSpinsGoesInFirst() throws Exception {
        for (int attempt = 0; attempt < 200; attempt++) {
            TaskGroup<String> group = TaskGroup.create(1);
            CountDownLatch end = new CountDownLatch(1);
            group.go(() -> {
                assertTrue(end.await(10, TimeUnit.SECONDS));
                return "holder";
            });
            List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread platform = Thread.ofPlatform().start(() -> group.go(() -> order.add("platform") ? "" : ""));
            Threads.until("the platform submitter spins", () -> inSpin(platform) || !platform.isAlive()
                    || platform.getState() == Thread.State.WAITING);
            Thread virtual = Thread.ofVirtual().start(() -> group.go(() -> order.add("virtual") ? "" : ""));
            Threads.untilParked(virtual);
            boolean overtaken = inSpin(platform); // still spinning, so not queued, with the virtual one queued
            end.countDown();
            Threads.join(platform);
            Threads.join(virtual);
            group.await();
            group.close();
            if (overtaken) {
                assertEquals(List.of("virtual", "platform"), order);
                return;
            }
        }
        org.junit.jupiter.api.Assumptions.abort("never caught the platform submitter spinning in 200 attempts");
    }

    private static boolean inSpin(Thread t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(e -> e.getMethodName().equals("spinWhileFull"));
    }

    /** The lock that guards the group's state. */
    private static SpinLock lockOf(TaskGroup<?> group) throws ReflectiveOperationException {
        return (SpinLock) MethodHandles.privateLookupIn(TaskGroup.class, MethodHandles.lookup())
                .findVarHandle(TaskGroup.class, "lock", SpinLock.class).get(group);
    }

    /**
     * Contract: the javadoc of go documents the interrupt status only for an interrupted wait ("set
     * again"); nothing lets go clear a caller's interrupt. With an executor that runs tasks in the
     * caller (any Executor may be given), a group cancelled between go letting the task in and the task
     * starting must not swallow the caller's own pending interrupt: the cancellation delivered none
     * (the task never started, its Future is cancelled without interruption).
     */
    @Test
    void goDoesNotClearTheCallersInterruptStatus() {
        AtomicReference<TaskGroup<Integer>> ref = new AtomicReference<>();
        Executor cancelThenRunInline = task -> {
            ref.get().cancel(); // as another thread might, in this instant
            task.run();
        };
        TaskGroup<Integer> group = TaskGroup.create(-1, cancelThenRunInline);
        ref.set(group);
        Thread.currentThread().interrupt();
        Future<Integer> f;
        try {
            f = group.go(() -> 1);
        } finally {
            boolean stillInterrupted = Thread.interrupted();
            assertTrue(stillInterrupted, "go cleared the caller's own interrupt status");
        }
        assertTrue(f.isCancelled());
        group.close();
    }

    /** Held: submitters blocked at the limit are released by cancel() with cancelled Futures, FIFO kept before. */
    @Test
    void cancelReleasesBlockedSubmittersWithCancelledFutures() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        TaskGroup<Integer> group = TaskGroup.create(1);
        group.go(() -> {
            release.await(30, TimeUnit.SECONDS);
            return 0;
        });
        AtomicReference<Future<Integer>> got = new AtomicReference<>();
        Thread submitter = new Thread(() -> got.set(group.go(() -> 1)));
        submitter.start();
        Threads.untilParked(submitter);
        group.cancel();
        submitter.join(10_000);
        assertTrue(got.get() != null && got.get().isCancelled());
        release.countDown();
        try {
            group.await();
            fail("await should throw");
        } catch (CancellationException expected) {
            // as documented
        }
        group.close();
    }

    /** Held: FIFO across setLimit from 0: waiters let in in arrival order. */
    @Test
    void setLimitFromZeroLetsWaitersInInArrivalOrder() throws Exception {
        TaskGroup<Integer> group = TaskGroup.create(0);
        List<Integer> order = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) {
            int n = i;
            ts[i] = new Thread(() -> group.go(() -> {
                order.add(n);
                return n;
            }));
            ts[i].start();
            Threads.untilParked(ts[i]);
        }
        group.setLimit(1);
        for (Thread t : ts) {
            t.join(10_000);
        }
        assertEquals(List.of(0, 1, 2, 3), group.await());
        assertEquals(List.of(0, 1, 2, 3), order);
        group.close();
    }
}
