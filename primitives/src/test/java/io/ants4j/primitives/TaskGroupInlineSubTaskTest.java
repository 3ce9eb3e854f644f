package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * Sub-tasks run on the thread of the task that submitted them: by an executor that runs a task inline (a
 * saturated {@code ThreadPoolExecutor} with {@code CallerRunsPolicy}, {@code Runnable::run}), or that queues it
 * and lets the submitting task run it (as a {@code ForkJoinPool} worker helping). A cancellation interrupts the
 * one thread for every task it cancels there; a task's interrupt must still be set when a sub-task nested in it
 * returns, also if the sub-task consumed it, while the interrupt that cancelled only the sub-task is cleared
 * (the class javadoc of {@link TaskGroup}: "every other task of the group that runs is interrupted"; the
 * interrupt "is cleared when the task returns").
 */
class TaskGroupInlineSubTaskTest {
    /** Threads started by {@link #inlineInOwnThreads} and {@link #queuedInOwnThreads}. */
    private final Set<Thread> ownThreads = ConcurrentHashMap.newKeySet();
    /** Tasks {@link #queuedInOwnThreads} queued, run by the task that submitted them after its go returns. */
    private final Queue<Runnable> queued = new ConcurrentLinkedQueue<>();

    /** Runs a task in a new platform thread; one submitted from such a thread, inline in {@code execute}. */
    private final Executor inlineInOwnThreads = task -> {
        if (ownThreads.contains(Thread.currentThread())) {
            task.run();
        } else {
            startOwnThread(task);
        }
    };

    /** Runs a task in a new platform thread; one submitted from such a thread, when its submitter runs it. */
    private final Executor queuedInOwnThreads = task -> {
        if (ownThreads.contains(Thread.currentThread())) {
            queued.add(task);
        } else {
            startOwnThread(task);
        }
    };

    private void startOwnThread(Runnable task) {
        Thread t = Thread.ofPlatform().daemon(true).unstarted(task);
        ownThreads.add(t);
        t.start();
    }

    @Test
    void aCancelledTaskKeepsItsInterruptWhenASubTaskRunInlineOnItsThreadReturns() throws Exception {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new SynchronousQueue<>(),
                new ThreadPoolExecutor.CallerRunsPolicy());
        try {
            TaskGroup<String> group = TaskGroup.create(-1, executor);
            CountDownLatch innerRunning = new CountDownLatch(1);
            AtomicBoolean groupCancelled = new AtomicBoolean();
            AtomicReference<String> outerSaw = new AtomicReference<>("outer task did not get there");
            CountDownLatch outerDone = new CountDownLatch(1);
            Future<String> outer = group.go(() -> {
                try {
                    // The executor's only thread is busy with this task: CallerRunsPolicy runs the sub-task here.
                    group.go(() -> {
                        innerRunning.countDown();
                        spinUntil(groupCancelled); // uninterruptibly: the sub-task does not consume the interrupt
                        return "inner";
                    });
                    outerSaw.set(Thread.currentThread().isInterrupted() ? "interrupted" : "not interrupted");
                    return "outer";
                } finally {
                    outerDone.countDown();
                }
            });
            assertTrue(innerRunning.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            group.cancel(); // interrupts the outer task and the sub-task, both running on the executor's thread
            groupCancelled.set(true);
            assertTrue(outerDone.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            assertTrue(outer.isCancelled());
            assertEquals("interrupted", outerSaw.get(),
                    "the outer task, cancelled with interruption while it still runs, lost the interrupt when the"
                            + " sub-task run inline on its thread returned: a blocking call of it would never stop");
        } finally {
            executor.shutdownNow();
            assertTrue(executor.awaitTermination(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    // ------------------------------------------------------------------------------------- one group

    @Test
    void groupCancelKeepsTheOuterInterruptWhenTheSubTaskConsumedItsOwn() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, inlineInOwnThreads);
        Nest nest = new Nest(true, group, group);
        nest.start();
        group.cancel();
        assertEquals(List.of(true), nest.finish(), "the outer task is cancelled and still runs: interrupted");
    }

    @Test
    void subTaskCancelledThroughItsFutureWhileTheGroupCancelsTheOuterTask() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, queuedInOwnThreads);
        Nest nest = new Nest(false, group, group);
        nest.start();
        assertTrue(nest.future(1).cancel(true));
        group.cancel();
        assertEquals(List.of(true), nest.finish(), "the outer task is cancelled and still runs: interrupted");
    }

    @Test
    void subTaskCancelledThroughItsFutureAloneClearsItsInterrupt() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, queuedInOwnThreads);
        Nest nest = new Nest(true, group, group);
        nest.start();
        assertTrue(nest.future(1).cancel(true));
        assertEquals(List.of(false), nest.finish(), "only the sub-task was cancelled: its interrupt is cleared");
    }

    @Test
    void outerTaskCancelledThroughItsFutureAloneKeepsItsInterrupt() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, queuedInOwnThreads);
        Nest nest = new Nest(true, group, group);
        nest.start();
        assertTrue(nest.future(0).cancel(true));
        assertEquals(List.of(true), nest.finish(), "the sub-task consumed the outer task's interrupt");
    }

    // ------------------------------------------------------------------------------------- two groups

    @Test
    void bothGroupsCancelled() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(-1, inlineInOwnThreads);
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(false, outer, inner);
        nest.start();
        outer.cancel();
        inner.cancel();
        assertEquals(List.of(true), nest.finish(), "the outer task is cancelled and still runs: interrupted");
    }

    @Test
    void bothGroupsCancelledInnerFirstAndTheSubTaskConsumesTheInterrupt() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(); // the outer task in a virtual thread of its own
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(true, outer, inner);
        nest.start();
        inner.cancel();
        outer.cancel();
        assertEquals(List.of(true), nest.finish(), "the outer task is cancelled and still runs: interrupted");
    }

    @Test
    void onlyTheSubTasksGroupCancelled() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(-1, inlineInOwnThreads);
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(false, outer, inner);
        nest.start();
        inner.cancel();
        assertEquals(List.of(false), nest.finish(), "the outer task was not cancelled: the sub-task's interrupt is cleared");
    }

    @Test
    void onlyTheOuterGroupCancelledAndTheSubTaskConsumesTheInterrupt() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(-1, inlineInOwnThreads);
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(true, outer, inner);
        nest.start();
        outer.cancel();
        assertEquals(List.of(true), nest.finish(), "the outer task is cancelled and still runs: interrupted");
    }

    @Test
    void onlyTheOuterGroupCancelled() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(-1, inlineInOwnThreads);
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(false, outer, inner);
        nest.start();
        outer.cancel();
        assertEquals(List.of(true), nest.finish(), "the outer task is cancelled and still runs: interrupted");
    }

    /**
     * The outer task is cancelled, consumes its interrupt and goes on: the interrupt of a later cancellation
     * of the sub-task alone is cleared, and does not reach it.
     */
    @Test
    void anInterruptTheOuterTaskConsumedBeforeTheSubTaskStartedIsNotSetAgain() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(-1, inlineInOwnThreads);
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(false, outer, inner);
        nest.outerFirstWaits(true);
        nest.start();
        outer.cancel();
        nest.submit();
        inner.cancel();
        assertEquals(List.of(false), nest.finish(), "the outer task had consumed its interrupt");
    }

    /** The outer task is cancelled and submits before it sees its interrupt; the sub-task consumes it. */
    @Test
    void anInterruptPendingWhenTheSubTaskStartedIsSetAgainIfTheSubTaskConsumedIt() throws Exception {
        TaskGroup<String> outer = TaskGroup.create(-1, inlineInOwnThreads);
        TaskGroup<String> inner = TaskGroup.create(-1, Runnable::run);
        Nest nest = new Nest(true, outer, inner);
        nest.outerFirstWaits(false);
        nest.start();
        outer.cancel();
        nest.submit();
        assertEquals(List.of(true), nest.finish(), "the outer task's pending interrupt was lost");
    }

    // ------------------------------------------------------------------------------------- three levels

    @Test
    void threeLevelsInnermostGroupCancelled() throws Exception {
        Nest nest = new Nest(false, TaskGroup.create(), TaskGroup.create(-1, Runnable::run),
                TaskGroup.create(-1, Runnable::run));
        nest.start();
        nest.groups[2].cancel();
        assertEquals(List.of(false, false), nest.finish(), "only the innermost task was cancelled");
    }

    @Test
    void threeLevelsMiddleGroupCancelled() throws Exception {
        Nest nest = new Nest(true, TaskGroup.create(), TaskGroup.create(-1, Runnable::run),
                TaskGroup.create(-1, Runnable::run));
        nest.start();
        nest.groups[1].cancel();
        assertEquals(List.of(false, true), nest.finish(), "the middle task is interrupted, the outermost not");
    }

    @Test
    void threeLevelsOutermostAndInnermostGroupsCancelled() throws Exception {
        Nest nest = new Nest(false, TaskGroup.create(), TaskGroup.create(-1, Runnable::run),
                TaskGroup.create(-1, Runnable::run));
        nest.start();
        nest.groups[0].cancel();
        nest.groups[2].cancel();
        assertEquals(List.of(true, true), nest.finish(), "the outermost task's interrupt reaches every level");
    }

    @Test
    void threeLevelsInOneGroupCancelled() throws Exception {
        TaskGroup<String> group = TaskGroup.create(-1, inlineInOwnThreads);
        Nest nest = new Nest(true, group, group, group);
        nest.start();
        group.cancel();
        assertEquals(List.of(true, true), nest.finish(), "every level is cancelled and still runs: interrupted");
    }

    /** Spins, without looking at the interrupt status, until {@code flag} is set (bounded by {@link Threads#TIMEOUT}). */
    private static void spinUntil(AtomicBoolean flag) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!flag.get() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Tasks nested on one thread: level 0 is submitted to {@code groups[0]}; the task of level i submits level
     * i+1 to {@code groups[i+1]}, whose executor runs it on the same thread (inline, or queued and run by level
     * i), and once it returned records whether its thread is interrupted. The innermost task signals that it
     * runs, spins without looking at the interrupt status until released, then consumes it if asked.
     */
    private final class Nest {
        final TaskGroup<String>[] groups;
        final boolean innermostConsumes;
        final AtomicReferenceArray<Future<String>> futures;
        final Boolean[] interruptedAfterSubTask;
        final CountDownLatch innermostRunning = new CountDownLatch(1);
        final AtomicBoolean released = new AtomicBoolean();
        final CountDownLatch outermostDone = new CountDownLatch(1);
        final CountDownLatch outermostRunning = new CountDownLatch(1);
        final AtomicBoolean submit = new AtomicBoolean(true);
        boolean outermostConsumesFirst;

        @SafeVarargs
        Nest(boolean innermostConsumes, TaskGroup<String>... groups) {
            this.groups = groups;
            this.innermostConsumes = innermostConsumes;
            this.futures = new AtomicReferenceArray<>(groups.length);
            this.interruptedAfterSubTask = new Boolean[groups.length - 1];
        }

        /** Level 0 first waits for {@link #submit}; then consumes its interrupt if {@code consumes}. */
        void outerFirstWaits(boolean consumes) {
            submit.set(false);
            outermostConsumesFirst = consumes;
        }

        void start() throws InterruptedException {
            futures.set(0, groups[0].go(level(0)));
            CountDownLatch running = submit.get() ? innermostRunning : outermostRunning;
            assertTrue(running.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "never ran");
        }

        /** Lets level 0 submit its sub-task, and waits until the innermost task runs. */
        void submit() throws InterruptedException {
            submit.set(true);
            assertTrue(innermostRunning.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "never ran");
        }

        Future<String> future(int level) {
            return futures.get(level);
        }

        /** Releases the innermost task; returns, per level but the innermost, whether it was interrupted after its sub-task. */
        List<Boolean> finish() throws InterruptedException {
            released.set(true);
            assertTrue(outermostDone.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "never ended");
            return Arrays.asList(interruptedAfterSubTask);
        }

        private Callable<String> level(int i) {
            return () -> {
                if (i == groups.length - 1) {
                    innermostRunning.countDown();
                    spinUntil(released);
                    if (innermostConsumes) {
                        Thread.interrupted(); // as a blocking call that throws InterruptedException, caught
                    }
                    return "level " + i;
                }
                try {
                    if (i == 0) {
                        outermostRunning.countDown();
                        spinUntil(submit);
                        if (outermostConsumesFirst) {
                            Thread.interrupted();
                        }
                    }
                    futures.set(i + 1, groups[i + 1].go(level(i + 1)));
                    for (Runnable r; (r = queued.poll()) != null;) {
                        r.run();
                    }
                    interruptedAfterSubTask[i] = Thread.currentThread().isInterrupted();
                    return "level " + i;
                } finally {
                    if (i == 0) {
                        outermostDone.countDown();
                    }
                }
            };
        }
    }
}
