package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TaskGroup}'s cancellation, interrupts and task futures: each test quotes the contract it holds the class to. */
@Timeout(60)
class TaskGroupCancellationContractTest {

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
        final CountDownLatch closeTried = new CountDownLatch(1);

        @Override
        protected void implCloseChannel() {
            closeTried.countDown();
            throw new OutOfMemoryError("injected: closing the channel of an interrupted thread");
        }

        /**
         * Blocks "in I/O" on this channel until an interrupt has tried to close it, not before: on JDK 25 the
         * interrupted thread's {@code end} closes the channel too, and if it came first, the interrupt would find the
         * channel closed and not throw (the test would then show nothing).
         */
        Integer blockingRead() throws Exception {
            begin();
            try {
                blocked.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                for (;;) {
                    try {
                        closeTried.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                        return 0;
                    } catch (InterruptedException expected) {
                        // the interrupt is on its way to close the channel
                    }
                }
            } finally {
                end(false); // throws ClosedByInterruptException
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
     * propagates"; {@link TaskGroup#cancel()}: "Every task is cancelled and every submitter let go all the same; then
     * this method throws the first such throwable". Interrupting the first task throws (its thread is blocked on a
     * channel whose close fails): the walk over the members stopped there, and the second task, which runs, was never
     * interrupted.
     */
    @Test
    void cancelInterruptsEveryRunningTaskEvenIfInterruptingOneThrows() throws Exception {
        TwoBlockedTasks tasks = new TwoBlockedTasks();
        OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class, tasks.group::cancel,
                "cancel() throws what interrupting a task threw");
        assertTrue(thrown.getMessage().startsWith("injected"), thrown::toString);
        assertTrue(tasks.secondInterrupted(), "the second running task was never interrupted by cancel()");
        assertTrue(tasks.first.isCancelled() && tasks.second.isCancelled(), "a task's Future is not cancelled");
        assertThrows(CancellationException.class, tasks.group::await);
    }

    /**
     * Same contract, through a failure: "The first task to throw cancels the group: every other task of the group
     * that runs is interrupted (its Future reports it cancelled)". And a task's Future reports what it threw ("what it
     * throws fails the group"), not what went wrong while it cancelled the others, which await reports suppressed in
     * the failure ("so is what interrupting the other tasks throws").
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
        ExecutionException awaited = assertThrows(ExecutionException.class, tasks.group::await);
        assertSame(boom, awaited.getCause(), "await reports the first failure");
        assertAll(
                () -> assertTrue(Arrays.stream(awaited.getSuppressed()).anyMatch(t -> t instanceof OutOfMemoryError
                        && t.getMessage().startsWith("injected")), () -> "the interrupt's error is not suppressed in "
                        + "what await throws: " + Arrays.toString(awaited.getSuppressed())),
                () -> assertTrue(secondInterrupted, "the second running task was never interrupted by the first failure"),
                () -> assertSame(boom, thrown.getCause(), "the failing task's Future reports another throwable than the task's"));
    }

    /**
     * {@link TaskGroup#close()}: "Cancels the group (see cancel()) and waits until none of its tasks runs"; README:
     * "close() cancels and waits, so in try-with-resources no task outlives the block"; close(): "If cancel() throws
     * (interrupting a task threw), this method still waits until none of the tasks runs, and then throws that". When
     * interrupting one task threw, close() threw at once without waiting, and the second task still ran after it.
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
        assertTrue(outcome.startsWith("threw java.lang.OutOfMemoryError: injected"), "close() " + outcome);
    }

    /**
     * Class javadoc, Memory consistency effects: "everything a task does happens-before its {@code Future} yields its
     * outcome, unless that {@code Future} was cancelled while the task ran (it then yields its outcome at once, while
     * the task may still run, as a {@code FutureTask} does), and before {@code await} or {@code close} returns". A
     * Future not cancelled is not done while its task runs, and get() sees the task's last write; a Future cancelled
     * (without interruption) while its task runs yields its CancellationException before the task's write, which
     * await, waiting for the task, then sees. (Review 6 found the sentence made no exception for the cancelled Future.)
     */
    @Test
    void aFutureYieldsAfterEverythingItsTaskDidUnlessCancelledWhileItRuns() throws Exception {
        TaskGroup<Integer> group = TaskGroup.create(-1, PLATFORM_THREADS);
        int[] written = new int[2];
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch mayWrite = new CountDownLatch(1);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int task = i;
            futures.add(group.go(() -> {
                running.countDown();
                mayWrite.await(10, TimeUnit.SECONDS); // not interrupted: cancel(false)
                written[task] = 42;                   // the task's last action
                return task;
            }));
        }
        Future<Integer> kept = futures.get(0);
        Future<Integer> cancelled = futures.get(1);
        await(running, "both tasks run");
        assertTrue(cancelled.cancel(false));
        boolean yieldedBeforeTheWrite;
        try {
            assertThrows(CancellationException.class, () -> cancelled.get(10, TimeUnit.SECONDS),
                    "the Future cancelled while its task runs yields at once");
            yieldedBeforeTheWrite = written[1] != 42;
            assertFalse(kept.isDone(), "a Future not cancelled is done while its task still runs");
        } finally {
            mayWrite.countDown();
        }
        assertEquals(0, kept.get(10, TimeUnit.SECONDS));
        assertEquals(42, written[0], "get() does not see the task's last write");
        assertTrue(yieldedBeforeTheWrite, "the cancelled Future yielded only after its task's write");
        assertEquals(Arrays.asList(0, null), group.await());
        assertEquals(42, written[1], "await does not see the last write of the task whose Future was cancelled");
    }

    /**
     * Class javadoc, Failure and cancellation: "An interrupt that another thread sends while the task runs cannot be
     * told apart from the cancellation's (a thread has one interrupt status): if the task is so cancelled before it
     * returns, that interrupt is cleared with the cancellation's." Review 6 held the run to the CHANGELOG's "only the
     * interrupt a cancellation delivered to that run is cleared": no design tells the two apart without losing a
     * cancellation or leaking one (see the implementation notes), so this is the documented limitation. Without a
     * cancellation the other thread's interrupt survives the task's return.
     */
    @Test
    void anotherThreadsInterruptWhileTheTaskRunsIsClearedOnlyIfTheTaskIsCancelled() throws Exception {
        assertFalse(interruptedAfterTheTask(true), "the cancellation's interrupt reached what the thread runs next");
        assertTrue(interruptedAfterTheTask(false),
                "without a cancellation, the run cleared another thread's interrupt");
    }

    /**
     * Whether the runner's interrupt status is set after a task that another thread interrupted while it ran, then,
     * if {@code cancel}, the group cancelled, returns without looking at it.
     */
    private static boolean interruptedAfterTheTask(boolean cancel) throws Exception {
        CompletableFuture<Boolean> interruptedAfterTheTask = new CompletableFuture<>();
        AtomicReference<Thread> runner = new AtomicReference<>();
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
        AtomicBoolean mayReturn = new AtomicBoolean();
        Future<Integer> f = group.go(() -> {
            running.countDown();
            Threads.until("the test lets the task return", mayReturn::get); // never looks at its interrupt status
            return 1;
        });
        await(running, "the task runs");
        runner.get().interrupt(); // someone else's interrupt, for whatever the thread does after the task
        Threads.until("the runner is interrupted", runner.get()::isInterrupted);
        if (cancel) {
            group.cancel();
            assertTrue(f.isCancelled());
        }
        mayReturn.set(true);
        return interruptedAfterTheTask.get(10, TimeUnit.SECONDS);
    }
}
