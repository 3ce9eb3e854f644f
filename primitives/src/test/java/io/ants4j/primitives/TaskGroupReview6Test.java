package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Review 6 of {@link TaskGroup}: each test quotes the contract it holds the class to, and fails on the code reviewed. */
@Timeout(60)
class TaskGroupReview6Test {

    private static final Executor PLATFORM_THREADS = task -> Thread.ofPlatform().daemon(true).start(task);

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(10, TimeUnit.SECONDS), what + " within 10 s");
    }

    /**
     * A channel whose close fails: {@code Thread.interrupt()} of a thread blocked in one of its operations closes it
     * and so throws (what {@code implCloseChannel} throws other than an IOException escapes {@code interrupt()}, after
     * the thread's interrupt status is set). On JDK 21 interrupting a virtual thread can likewise throw an
     * OutOfMemoryError from its unpark, the case the CHANGELOG says unparks were hardened against.
     */
    private static final class FailingCloseChannel extends AbstractInterruptibleChannel {
        final CountDownLatch blocked = new CountDownLatch(1);

        @Override
        protected void implCloseChannel() {
            throw new OutOfMemoryError("injected: closing the channel of an interrupted thread");
        }

        /** Blocks "in I/O" on this channel until interrupted. */
        Integer blockingRead() throws Exception {
            begin();
            try {
                blocked.countDown();
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                return 0;
            } finally {
                end(false);
            }
        }
    }

    /** The three tasks: one blocked on a failing channel, then one blocked until interrupted. */
    private static final class TwoBlockedTasks {
        final TaskGroup<Integer> group = TaskGroup.create(-1, PLATFORM_THREADS);
        final FailingCloseChannel channel = new FailingCloseChannel();
        final CountDownLatch secondRunning = new CountDownLatch(1);
        final CountDownLatch secondInterrupted = new CountDownLatch(1);
        final CountDownLatch secondMayEnd = new CountDownLatch(1);
        final CountDownLatch secondEnded = new CountDownLatch(1);
        final Future<Integer> first;
        final Future<Integer> second;

        TwoBlockedTasks() throws InterruptedException {
            first = group.go(channel::blockingRead);
            await(channel.blocked, "the first task blocks on its channel");
            second = group.go(() -> {
                secondRunning.countDown();
                try {
                    secondMayEnd.await(30, TimeUnit.SECONDS);
                    return 2;
                } catch (InterruptedException e) {
                    secondInterrupted.countDown();
                    throw e;
                } finally {
                    secondEnded.countDown();
                }
            });
            await(secondRunning, "the second task runs");
        }

        boolean secondInterrupted() throws InterruptedException {
            try {
                return secondInterrupted.await(10, TimeUnit.SECONDS);
            } finally {
                secondMayEnd.countDown(); // ends it either way, so the group can drain
            }
        }
    }

    /**
     * Class javadoc, Failure and cancellation: "{@link TaskGroup#cancel()} cancels the group the same way [as the
     * first failure]: every other task of the group that runs is interrupted"; CHANGELOG (Fixed): "if unparking one
     * throws ..., the others are still unparked, and TaskGroup still ... cancels the other tasks, before the error
     * propagates". Interrupting the first task throws (its thread is blocked on a channel whose close fails): the walk
     * over the members stops there, and the second task, which runs, is never interrupted.
     */
    @Test
    void cancelInterruptsEveryRunningTaskEvenIfInterruptingOneThrows() throws Exception {
        TwoBlockedTasks tasks = new TwoBlockedTasks();
        try {
            tasks.group.cancel();
        } catch (OutOfMemoryError injected) {
            // may propagate, once every task is cancelled
        }
        assertTrue(tasks.secondInterrupted(), "the second running task was never interrupted by cancel()");
        assertTrue(tasks.second.isCancelled(), "the second task's Future is not cancelled");
    }

    /**
     * Same contract, through a failure: "The first task to throw cancels the group: every other task of the group
     * that runs is interrupted (its Future reports it cancelled)". And a task's Future reports what it threw ("what it
     * throws fails the group"), not what went wrong while it cancelled the others.
     */
    @Test
    void aFailureInterruptsEveryRunningTaskEvenIfInterruptingOneThrows() throws Exception {
        TwoBlockedTasks tasks = new TwoBlockedTasks();
        IllegalStateException boom = new IllegalStateException("boom");
        Future<Integer> failing = tasks.group.go(() -> {
            throw boom;
        });
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
        boolean secondInterrupted = tasks.secondInterrupted();
        assertSame(boom, assertThrows(ExecutionException.class, tasks.group::await).getCause(),
                "await reports the first failure");
        assertAll(
                () -> assertTrue(secondInterrupted, "the second running task was never interrupted by the first failure"),
                () -> assertSame(boom, thrown.getCause(), "the failing task's Future reports another throwable than the task's"));
    }

    /**
     * {@link TaskGroup#close()}: "Cancels the group (see cancel()) and waits until none of its tasks runs"; README:
     * "close() cancels and waits, so in try-with-resources no task outlives the block". When interrupting one task
     * throws, close() throws at once without waiting, and the second task still runs after it.
     */
    @Test
    void closeWaitsForTheTasksEvenIfInterruptingOneThrows() throws Exception {
        TwoBlockedTasks tasks = new TwoBlockedTasks();
        String outcome = "returned";
        try {
            tasks.group.close();
        } catch (OutOfMemoryError injected) {
            outcome = "threw " + injected;
        }
        boolean secondStillRuns = tasks.secondEnded.getCount() > 0;
        tasks.secondMayEnd.countDown();
        assertTrue(!secondStillRuns, "close() " + outcome + " while a task of the group still ran");
    }

    /**
     * Class javadoc, Memory consistency effects: "everything a task does happens-before its Future yields its
     * outcome". A Future cancelled while its task runs (the class javadoc says a cancellation "can come while the
     * task still runs") yields its outcome, a CancellationException from get(), while the task still runs: what the
     * task does afterwards cannot happen-before it. Documentation only (FutureTask's own behaviour), but the sentence
     * makes no exception.
     */
    @Test
    void whatATaskDoesAfterItsFutureWasCancelledDoesNotHappenBeforeTheFuturesOutcome() throws Exception {
        TaskGroup<Integer> group = TaskGroup.create(-1, PLATFORM_THREADS);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch mayWrite = new CountDownLatch(1);
        int[] written = new int[1];
        Future<Integer> f = group.go(() -> {
            running.countDown();
            mayWrite.await(10, TimeUnit.SECONDS); // not interrupted: cancel(false)
            written[0] = 42;                      // an action of the task
            return 1;
        });
        await(running, "the task runs");
        assertTrue(f.cancel(false));
        boolean yieldedBeforeTheWrite;
        try {
            f.get(10, TimeUnit.SECONDS);
            yieldedBeforeTheWrite = false;
        } catch (java.util.concurrent.CancellationException outcome) {
            yieldedBeforeTheWrite = written[0] != 42; // the write has not happened yet: no edge from it can exist
        } finally {
            mayWrite.countDown();
        }
        group.await();
        assertTrue(!yieldedBeforeTheWrite,
                "the Future yielded its outcome (CancellationException) before the task's write of 42");
    }

    /**
     * CHANGELOG (Fixed): "Now only the interrupt a cancellation delivered to that run is cleared, when the task
     * returns"; class javadoc: the interrupt "with which a cancellation ... stops a running task is cleared". Here the
     * thread is interrupted by someone else while the task runs (the task does not look), and only then is the group
     * cancelled: the cancellation's interrupt finds the status already set and delivers nothing, yet the run clears
     * the status when the task returns, so the other party's interrupt is lost to what the thread does next.
     * (FutureTask, which the class replaced here, never clears a status: it only waits for its own interrupt.)
     */
    @Test
    void anInterruptFromSomeoneElseThatCameBeforeTheCancellationSurvivesTheTasksReturn() throws Exception {
        java.util.concurrent.CompletableFuture<Boolean> interruptedAfterTheTask = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.atomic.AtomicReference<Thread> runner = new java.util.concurrent.atomic.AtomicReference<>();
        Executor reporting = task -> {
            Thread t = Thread.ofPlatform().daemon(true).unstarted(() -> {
                task.run();
                interruptedAfterTheTask.complete(Thread.currentThread().isInterrupted());
            });
            runner.set(t);
            t.start();
        };
        TaskGroup<Integer> group = TaskGroup.create(-1, reporting);
        CountDownLatch running = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean mayReturn = new java.util.concurrent.atomic.AtomicBoolean();
        Future<Integer> f = group.go(() -> {
            running.countDown();
            Threads.until("the test lets the task return", mayReturn::get); // never looks at its interrupt status
            return 1;
        });
        await(running, "the task runs");
        runner.get().interrupt(); // someone else's interrupt, for whatever the thread does after the task
        Threads.until("the runner is interrupted", runner.get()::isInterrupted);
        group.cancel();
        assertTrue(f.isCancelled());
        mayReturn.set(true);
        assertTrue(interruptedAfterTheTask.get(10, TimeUnit.SECONDS),
                "the run cleared an interrupt that the cancellation did not deliver (it came before, from someone else)");
    }
}
