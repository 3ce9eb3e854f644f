package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Adversarial review of {@link TaskGroup}: each test states the contract it holds the class to. */
@Timeout(60)
class TaskGroupReviewTest {

    private static final int ITERATIONS = 20_000;

    /**
     * Contract (class javadoc, Limit): "A task counts against the limit from the moment go lets it in
     * until it returns". Once the task's Future is done the task has returned, so tryGo on a group of
     * limit 1 with no other task must let the next one in.
     */
    @Disabled("open defect (adversarial review): the slot is given back just after the task's Future completes, so for a moment a done Future still counts against the limit; statistical test, fails in some of 20,000 iterations")
    @Test
    void aTaskWhoseFutureIsDoneNoLongerCountsAgainstTheLimit() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Thread[] load = startLoad();
        try (TaskGroup<Integer> group = TaskGroup.create(1, pool)) {
            for (int i = 0; i < ITERATIONS; i++) {
                Future<Integer> f = group.go(() -> 1);
                spinUntilDone(f);
                Optional<Future<Integer>> next = group.tryGo(() -> 2);
                group.await();
                if (next.isEmpty()) {
                    fail("iteration " + i + ": tryGo refused a task although the only task's Future was done: "
                            + group);
                }
            }
        } finally {
            stopLoad(load);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    /**
     * Contract (setLimit): throws IllegalStateException only "if limit is zero or more and a task of the
     * group is active: let in by go or tryGo and not yet returned". After every task's Future is done,
     * no task is active.
     */
    @Disabled("open defect (adversarial review): the slot is given back just after the task's Future completes, so for a moment a done Future still counts against the limit; statistical test, fails in some of 20,000 iterations")
    @Test
    void setLimitAfterEveryFutureIsDoneDoesNotThrow() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Thread[] load = startLoad();
        try (TaskGroup<Integer> group = TaskGroup.create(1, pool)) {
            for (int i = 0; i < ITERATIONS; i++) {
                Future<Integer> f = group.go(() -> 1);
                spinUntilDone(f);
                try {
                    group.setLimit(1);
                } catch (IllegalStateException e) {
                    fail("iteration " + i + ": setLimit threw although the only task's Future was done: " + e);
                }
                group.await();
            }
        } finally {
            stopLoad(load);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
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

    /** Busy threads, so that the task's thread is preempted between its Future completing and its slot being given back. */
    private static Thread[] startLoad() {
        Thread[] load = new Thread[3];
        for (int i = 0; i < load.length; i++) {
            load[i] = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();
                }
            });
            load[i].setDaemon(true);
            load[i].start();
        }
        return load;
    }

    private static void stopLoad(Thread[] load) throws InterruptedException {
        for (Thread t : load) {
            t.interrupt();
        }
        for (Thread t : load) {
            t.join(10_000);
        }
    }

    private static void spinUntilDone(Future<?> f) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!f.isDone()) {
            if (System.nanoTime() > deadline) {
                fail("task did not complete");
            }
            Thread.onSpinWait();
        }
    }
}
