package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TaskGroupTest {

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "latch not reached within " + TIMEOUT);
    }

    /** A task that blocks until {@code gate} opens; an interrupt ends it with InterruptedException. */
    private static <T> T blockOn(CountDownLatch gate, T result) throws InterruptedException {
        await(gate);
        return result;
    }

    @Test
    void resultsComeInGoOrderWhateverOrderTasksEndIn() throws Exception {
        int n = 50;
        CountDownLatch[] gates = new CountDownLatch[n];
        try (TaskGroup<Integer> group = TaskGroup.create()) {
            for (int i = 0; i < n; i++) {
                gates[i] = new CountDownLatch(1);
                int id = i;
                group.go(() -> blockOn(gates[id], id));
            }
            for (int i = n - 1; i >= 0; i--) { // the last one ends first
                gates[i].countDown();
            }
            assertEquals(IntStream.range(0, n).boxed().toList(), group.await());
        }
    }

    @Test
    void tasksRunOnVirtualThreadsByDefault() throws Exception {
        try (TaskGroup<Boolean> group = TaskGroup.create(2)) {
            group.go(() -> Thread.currentThread().isVirtual());
            assertEquals(List.of(true), group.await());
        }
    }

    @Test
    void goBlocksWhileTheLimitRunsAndBlockedSubmittersGoInFirstComeFirstServed() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        List<Integer> started = new CopyOnWriteArrayList<>();
        try (TaskGroup<Integer> group = TaskGroup.create(1)) {
            group.go(() -> blockOn(gate, -1));
            List<Threads.Task<Future<Integer>>> submitters = new ArrayList<>();
            List<CountDownLatch> gates = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int id = i;
                CountDownLatch own = new CountDownLatch(1);
                gates.add(own);
                Threads.Task<Future<Integer>> s = Threads.start(() -> group.go(() -> {
                    started.add(id);
                    return blockOn(own, id);
                }));
                Threads.untilParked(s.thread()); // queued behind the ones before it
                submitters.add(s);
            }
            assertEquals(List.of(), started, "no task may start while the limit runs");
            assertTrue(group.tryGo(() -> 99).isEmpty(), "tryGo never overtakes blocked submitters");
            gate.countDown();
            for (int i = 0; i < 3; i++) {
                int expected = i;
                Threads.until("task " + i + " starts", () -> started.size() == expected + 1);
                gates.get(i).countDown();
            }
            assertEquals(List.of(0, 1, 2), started);
            for (Threads.Task<Future<Integer>> s : submitters) {
                Threads.get(s);
            }
            assertEquals(List.of(-1, 0, 1, 2), group.await());
        }
    }

    /** Runs each task in a platform thread of its own (so tasks need no carrier), and keeps the threads. */
    private static final class ThreadPerTask implements Executor {
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @Override
        public void execute(Runnable task) {
            threads.add(Thread.ofPlatform().daemon(true).start(task));
        }
    }

    /**
     * Starts a submitter in a thread of {@code builder} whose task records {@code id}, then holds its
     * slot until {@code gate} opens and returns {@code id}.
     */
    private static Threads.Task<Future<Integer>> submitter(TaskGroup<Integer> group, Thread.Builder builder, int id,
            List<Integer> started, CountDownLatch gate) {
        Threads.Task<Future<Integer>> s = Threads.start(builder, () -> group.go(() -> {
            started.add(id);
            return blockOn(gate, id);
        }));
        Threads.untilParked(s.thread()); // queued behind the ones started before it
        return s;
    }

    /** Asserts that {@code s}'s go threw RejectedExecutionException caused by an interrupt. */
    private static void assertRejectedByInterrupt(Threads.Task<Future<Integer>> s, String why) throws Exception {
        try {
            Future<Integer> f = s.result().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            fail(why + ": its go returned " + f);
        } catch (ExecutionException e) {
            assertInstanceOf(RejectedExecutionException.class, e.getCause(), why);
            assertInstanceOf(InterruptedException.class, e.getCause().getCause());
        }
    }

    /**
     * Keeps every carrier of the default virtual-thread scheduler busy until closed, so that a virtual
     * thread unparked meanwhile cannot run: it stands for a submitter that was handed a slot and has not
     * yet been scheduled.
     */
    private static final class CarriersHeld implements AutoCloseable {
        private final AtomicBoolean released = new AtomicBoolean();
        private final List<Thread> spinners = new ArrayList<>();

        CarriersHeld() {
            int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                    Runtime.getRuntime().availableProcessors());
            AtomicInteger mounted = new AtomicInteger();
            for (int i = 0; i < carriers; i++) {
                spinners.add(Thread.ofVirtual().start(() -> {
                    mounted.incrementAndGet();
                    while (!released.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            Threads.until("all " + carriers + " carriers are held", () -> mounted.get() == carriers);
        }

        @Override
        public void close() throws InterruptedException {
            released.set(true);
            for (Thread t : spinners) {
                Threads.join(t);
            }
        }
    }

    @Test
    void twoSlotsFreedInARowGoToTheTwoOldestSubmittersEvenIfTheFirstIsSlowToRun() throws Exception {
        CountDownLatch gateA = new CountDownLatch(1);
        CountDownLatch gateB = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1); // the submitters' tasks hold their slots until then
        List<Integer> started = new CopyOnWriteArrayList<>();
        try (TaskGroup<Integer> group = TaskGroup.create(2, new ThreadPerTask())) {
            group.go(() -> blockOn(gateA, -1));
            group.go(() -> blockOn(gateB, -2));
            Threads.Task<Future<Integer>> s1 = submitter(group, Thread.ofVirtual(), 1, started, release);
            Threads.Task<Future<Integer>> s2 = submitter(group, Thread.ofPlatform().daemon(true), 2, started, release);
            Threads.Task<Future<Integer>> s3 = submitter(group, Thread.ofPlatform().daemon(true), 3, started, release);
            try (CarriersHeld held = new CarriersHeld()) {
                gateA.countDown();
                gateB.countDown();
                Threads.get(s2); // both slots are free: one is s1's, who cannot run yet, the other s2's
                s3.thread().interrupt(); // s3 waits for a slot: no slot is left for it
                assertRejectedByInterrupt(s3, "s3, blocked after s1, went in while s1 could not run");
            }
            Threads.get(s1);
            release.countDown();
            List<Integer> results = group.await();
            assertEquals(List.of(-1, -2), results.subList(0, 2));
            assertEquals(Set.of(1, 2), Set.copyOf(results.subList(2, results.size())), results::toString);
            assertEquals(Set.of(1, 2), Set.copyOf(started));
        }
    }

    @Test
    void aSubmitterLeavingTheQueueDoesNotLetTheOneBehindItOvertakeTheHead() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1); // the submitters' tasks hold their slots until then
        List<Integer> started = new CopyOnWriteArrayList<>();
        ThreadPerTask executor = new ThreadPerTask();
        try (TaskGroup<Integer> group = TaskGroup.create(1, executor)) {
            group.go(() -> blockOn(gate, -1));
            Threads.Task<Future<Integer>> s1 = submitter(group, Thread.ofVirtual(), 1, started, release);
            Threads.Task<Future<Integer>> leaving = submitter(group, Thread.ofPlatform().daemon(true), 9, started, release);
            Threads.Task<Future<Integer>> s2 = submitter(group, Thread.ofPlatform().daemon(true), 2, started, release);
            try (CarriersHeld held = new CarriersHeld()) {
                gate.countDown();
                Threads.join(executor.threads.get(0)); // the task has given its slot back, to s1
                leaving.thread().interrupt();
                assertRejectedByInterrupt(leaving, "an interrupted submitter is rejected");
                s2.thread().interrupt(); // s2 waits behind s1, whose slot it must not take
                assertRejectedByInterrupt(s2, "s2, blocked after s1, went in while s1 could not run");
            }
            Threads.get(s1);
            release.countDown();
            assertEquals(List.of(-1, 1), group.await());
            assertEquals(List.of(1), started);
        }
    }

    @Test
    void aSubmitterInterruptedBeforeItSawTheSlotHandedToItPassesTheSlotOn() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1); // the submitters' tasks hold their slots until then
        List<Integer> started = new CopyOnWriteArrayList<>();
        ThreadPerTask executor = new ThreadPerTask();
        try (TaskGroup<Integer> group = TaskGroup.create(1, executor)) {
            group.go(() -> blockOn(gate, -1));
            Threads.Task<Future<Integer>> s1 = submitter(group, Thread.ofVirtual(), 1, started, release);
            Threads.Task<Future<Integer>> s2 = submitter(group, Thread.ofPlatform().daemon(true), 2, started, release);
            try (CarriersHeld held = new CarriersHeld()) {
                s1.thread().interrupt(); // s1 is unparked, and cannot run yet
                gate.countDown();
                Threads.join(executor.threads.get(0)); // the task has given its slot back, to s1, the head
            }
            assertRejectedByInterrupt(s1, "s1 saw its interrupt first: it is rejected");
            Threads.get(s2);
            release.countDown();
            assertEquals(List.of(-1, 2), group.await(), "the slot went on to s2");
            assertEquals(List.of(2), started);
        }
    }

    @Test
    void anExecutorThatThrowsAndStillRunsTheTaskLaterCountsItOnce() throws Exception {
        AtomicBoolean factoryFails = new AtomicBoolean(true);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), r -> {
            if (factoryFails.getAndSet(false)) {
                throw new IllegalStateException("no thread this time");
            }
            return new Thread(r);
        });
        AtomicBoolean rejectedRan = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        try (TaskGroup<String> group = TaskGroup.create(1, pool)) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> group.go(() -> {
                rejectedRan.set(true); // the pool kept it in its queue: its next worker runs it first
                return "rejected";
            }));
            assertEquals("no thread this time", e.getCause().getMessage());
            group.go(() -> {
                running.countDown();
                return blockOn(gate, "b");
            });
            await(running); // the worker has taken the rejected task from the queue before this one
            assertTrue(group.tryGo(() -> "c").isEmpty(), "tryGo went past the limit of 1: " + group);
            gate.countDown();
            assertEquals(List.of("b"), group.await());
            assertFalse(rejectedRan.get(), "a task whose go threw ran");
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void anExecutorThatThrowsAfterStartingTheTaskLeavesItInTheGroupCountedOnce() throws Exception {
        Executor runsThenThrows = task -> {
            task.run();
            throw new IllegalStateException("after running it");
        };
        try (TaskGroup<String> group = TaskGroup.create(1, runsThenThrows)) {
            RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> group.go(() -> "a"));
            assertEquals("after running it", e.getCause().getMessage());
            assertEquals(List.of("a"), group.await(), "a task the executor started is part of the group");
            assertTrue(group.toString().contains("running=0,"), group.toString());
        }
    }

    @Test
    void anOutOfMemoryErrorInCancelLeavesNoTaskRunning() throws Exception {
        LockTests.runOutOfMemoryProbe(TaskGroupOutOfMemoryProbe.class, "cancel");
    }

    @Test
    void anOutOfMemoryErrorWhileAFailureCancelsTheGroupLeavesNoTaskRunningAndKeepsTheFailure() throws Exception {
        LockTests.runOutOfMemoryProbe(TaskGroupOutOfMemoryProbe.class, "failure");
    }

    @Test
    void anOutOfMemoryErrorInAwaitLeavesTheResultsToTheNextAwait() throws Exception {
        LockTests.runOutOfMemoryProbe(TaskGroupOutOfMemoryProbe.class, "await");
    }

    @Test
    void aLimitOfZeroLetsNoTaskInAndANegativeLimitMeansNone() throws Exception {
        try (TaskGroup<Integer> none = TaskGroup.create(0)) {
            assertTrue(none.tryGo(() -> 1).isEmpty(), "errgroup: a limit of zero admits no new task");
            Threads.Task<Future<Integer>> blocked = Threads.start(() -> none.go(() -> 2));
            Threads.untilParked(blocked.thread());
            none.cancel();
            assertTrue(Threads.get(blocked).isCancelled());
        }
        int n = 100;
        CountDownLatch allRunning = new CountDownLatch(n);
        try (TaskGroup<Integer> unlimited = TaskGroup.create(-1)) {
            for (int i = 0; i < n; i++) {
                int id = i;
                assertTrue(unlimited.tryGo(() -> {
                    allRunning.countDown();
                    await(allRunning);
                    return id;
                }).isPresent());
            }
            assertEquals(IntStream.range(0, n).boxed().toList(), unlimited.await());
        }
    }

    /** errgroup_test.go's TestTryGo: an unbuffered channel is a SynchronousQueue. */
    @Test
    void errgroupTryGo() throws Exception {
        TaskGroup<Void> g = TaskGroup.create();
        int n = 42;
        g.setLimit(42);
        SynchronousQueue<Object> ch = new SynchronousQueue<>();
        Callable<Void> fn = () -> {
            assertTrue(ch.offer(ch, TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "nobody received");
            return null;
        };
        for (int i = 0; i < n; i++) {
            assertTrue(g.tryGo(fn).isPresent(), "TryGo should succeed but got fail at " + i + "-th call.");
        }
        assertTrue(g.tryGo(fn).isEmpty(), "TryGo is expected to fail but succeeded.");
        Threads.Task<Void> receiver = receive(ch, n);
        g.await();
        Threads.get(receiver);

        assertTrue(g.tryGo(fn).isPresent(), "TryGo should success but got fail after all goroutines.");
        receiver = receive(ch, 1);
        g.await();
        Threads.get(receiver);

        // Switch limit.
        g.setLimit(1);
        assertTrue(g.tryGo(fn).isPresent(), "TryGo should success but got failed.");
        assertTrue(g.tryGo(fn).isEmpty(), "TryGo should fail but succeeded.");
        receiver = receive(ch, 1);
        g.await();
        Threads.get(receiver);

        // Block all calls.
        g.setLimit(0);
        for (int i = 0; i < 1 << 10; i++) {
            assertTrue(g.tryGo(fn).isEmpty(), "TryGo should fail but got succeeded.");
        }
        g.await();
    }

    /** Receives {@code n} values from {@code ch} in another thread, each within the timeout. */
    private static Threads.Task<Void> receive(SynchronousQueue<Object> ch, int n) {
        return Threads.start(() -> {
            for (int i = 0; i < n; i++) {
                assertNotNull(ch.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "nothing sent");
            }
            return null;
        });
    }

    /** errgroup_test.go's TestGoLimit; Go's 1 µs sleep that lets the others in is a yield here. */
    @Test
    void errgroupGoLimit() throws Exception {
        int limit = 10;
        TaskGroup<Void> g = TaskGroup.create();
        g.setLimit(limit);
        AtomicInteger active = new AtomicInteger();
        for (int i = 0; i <= 1 << 10; i++) {
            g.go(() -> {
                int n = active.incrementAndGet();
                if (n > limit) {
                    throw new IllegalStateException("saw " + n + " active tasks; want <= " + limit);
                }
                Thread.yield(); // give the other tasks a chance to increment active
                active.decrementAndGet();
                return null;
            });
        }
        g.await();
    }

    @Test
    void setLimitWhileTasksAreActiveThrowsUnlessItRemovesTheLimit() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (TaskGroup<Integer> group = TaskGroup.create(2)) {
            group.go(() -> blockOn(gate, 1));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> group.setLimit(5));
            assertEquals("TaskGroup: modify limit while 1 tasks of the group are still active", e.getMessage());
            assertThrows(IllegalStateException.class, () -> group.setLimit(0));
            assertTrue(group.toString().contains("[limit=2, running=1,"), group.toString());
            group.setLimit(-1); // as errgroup's SetLimit(-1): allowed at any time
            assertTrue(group.toString().contains("[limit=none, running=1,"), group.toString());
            gate.countDown();
            assertEquals(List.of(1), group.await());
            group.setLimit(1);
            assertTrue(group.toString().contains("[limit=1, running=0,"), group.toString());
        }
    }

    @Test
    void setLimitLetsWaitingSubmittersInFirstComeFirstServed() throws Exception {
        CountDownLatch release = new CountDownLatch(1); // the submitters' tasks hold their slots until then
        List<Integer> started = new CopyOnWriteArrayList<>();
        try (TaskGroup<Integer> group = TaskGroup.create(0)) {
            List<Threads.Task<Future<Integer>>> submitters = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                submitters.add(submitter(group, Thread.ofPlatform().daemon(true), i, started, release));
            }
            group.setLimit(2);
            Threads.get(submitters.get(0));
            Threads.get(submitters.get(1));
            submitters.get(2).thread().interrupt();
            assertRejectedByInterrupt(submitters.get(2), "the third was let in past the limit of 2");
            release.countDown();
            assertEquals(Set.of(0, 1), Set.copyOf(group.await()));
            assertEquals(Set.of(0, 1), Set.copyOf(started));
        }
    }

    @Test
    void tryGoStartsOnlyWhatCanStartAtOnce() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (TaskGroup<String> group = TaskGroup.create(1)) {
            Optional<Future<String>> first = group.tryGo(() -> blockOn(gate, "a"));
            assertTrue(first.isPresent());
            assertTrue(group.tryGo(() -> "b").isEmpty(), "the limit runs");
            gate.countDown();
            assertEquals("a", first.get().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            Threads.until("the slot is free", () -> group.tryGo(() -> "c").isPresent());
            assertEquals(List.of("a", "c"), group.await());
        }
    }

    @Test
    void anInterruptedSubmitterIsRejectedKeepsItsInterruptAndLosesNoSlot() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        AtomicBoolean ran = new AtomicBoolean();
        try (TaskGroup<Integer> group = TaskGroup.create(1)) {
            group.go(() -> blockOn(gate, 1));
            Threads.Task<Boolean> s = Threads.start(() -> {
                RejectedExecutionException e = assertThrows(RejectedExecutionException.class,
                        () -> group.go(() -> {
                            ran.set(true);
                            return 2;
                        }));
                assertInstanceOf(InterruptedException.class, e.getCause());
                return Thread.currentThread().isInterrupted();
            });
            Threads.untilParked(s.thread());
            s.thread().interrupt();
            assertTrue(Threads.get(s), "the interrupt status is set again");
            gate.countDown();
            assertEquals(List.of(1), group.await());
            assertFalse(ran.get());
            assertEquals(List.of(3), goAndAwait(group, 3), "the slot is still there");
        }
    }

    private static List<Integer> goAndAwait(TaskGroup<Integer> group, int value) throws Exception {
        group.go(() -> value);
        return group.await();
    }

    @Test
    void theFirstFailureCancelsTheRestAndNoTaskStartsAfterIt() throws Exception {
        int n = 10_000;
        int failing = 5_000;
        AtomicInteger started = new AtomicInteger();
        AtomicInteger blocking = new AtomicInteger();
        AtomicInteger interrupted = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("task 5000 failed");
        CountDownLatch never = new CountDownLatch(1);
        TaskGroup<Integer> group = TaskGroup.create(8);
        List<Future<Integer>> futures = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int id = i;
            futures.add(group.go(() -> {
                started.incrementAndGet();
                if (id == failing) {
                    throw boom;
                }
                if (id > failing - 8) { // these still run when the failure comes: they wait to be interrupted
                    blocking.incrementAndGet();
                    try {
                        return blockOn(never, id);
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        throw e;
                    }
                }
                return id;
            }));
        }
        ExecutionException e = assertThrows(ExecutionException.class, group::await);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertSame(boom, e.getCause());
        assertEquals(0, e.getSuppressed().length, "interrupts caused by the cancellation are no failures");
        assertEquals(0, boom.getSuppressed().length, "the first failure is left as it was thrown");
        assertTrue(group.isCancelled());
        // the seven before it hold their slots until interrupted, so the next one could only come after it
        assertTrue(started.get() <= failing + 1, started.get() + " tasks started: some after the failure");
        assertEquals(blocking.get(), interrupted.get(), "every other running task was interrupted");
        for (int i = failing + 1; i < n; i++) {
            assertTrue(futures.get(i).isCancelled(), "task " + i + " was let in after the cancellation");
        }
        assertTrue(millis < TIMEOUT.toMillis(), "took " + millis + " ms");
    }

    /** Unlike errgroup, whose Go still runs f after a failure (only WithContext's context tells f), and without it. */
    @Test
    void goAndTryGoAfterAFailureStartNothing() throws Exception {
        AtomicBoolean ranAfter = new AtomicBoolean();
        TaskGroup<Integer> group = TaskGroup.create();
        IllegalStateException boom = new IllegalStateException("boom");
        group.go(() -> {
            throw boom;
        });
        assertSame(boom, assertThrows(ExecutionException.class, group::await).getCause());
        Future<Integer> go = group.go(() -> {
            ranAfter.set(true);
            return 1;
        });
        Future<Integer> tryGo = group.tryGo(() -> {
            ranAfter.set(true);
            return 2;
        }).orElseThrow();
        assertTrue(go.isCancelled() && tryGo.isCancelled(), "go and tryGo after the failure return cancelled Futures");
        assertSame(boom, assertThrows(ExecutionException.class, group::await).getCause());
        assertFalse(ranAfter.get(), "a task given to go or tryGo after the failure ran");
    }

    @Test
    void laterFailuresAreSuppressedInWhatAwaitThrowsAtMostSixteen() throws Exception {
        int others = 20;
        CountDownLatch othersRunning = new CountDownLatch(others);
        CountDownLatch othersFail = new CountDownLatch(1);
        RuntimeException first = new RuntimeException("first");
        try (TaskGroup<Void> group = TaskGroup.create()) {
            for (int i = 0; i < others; i++) {
                int id = i;
                group.go(() -> {
                    othersRunning.countDown();
                    awaitIgnoringInterrupts(othersFail); // the cancellation's interrupt does not stop it
                    throw new IllegalArgumentException("later " + id);
                });
            }
            await(othersRunning);
            group.go(() -> {
                throw first;
            });
            Threads.until("the first failure cancels the group", group::isCancelled);
            othersFail.countDown();
            ExecutionException e = assertThrows(ExecutionException.class, group::await);
            assertSame(first, e.getCause());
            assertEquals(16, e.getSuppressed().length, Arrays.toString(e.getSuppressed()));
            assertEquals(0, first.getSuppressed().length, "the first failure is left as it was thrown");
            for (Throwable s : e.getSuppressed()) {
                assertInstanceOf(IllegalArgumentException.class, s);
            }
        }
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        for (;;) {
            try {
                assertTrue(latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
                return;
            } catch (InterruptedException expected) {
                // keep waiting
            }
        }
    }

    @Test
    void anErrorFailsTheGroupLikeAnException() throws Exception {
        AssertionError error = new AssertionError("task error");
        try (TaskGroup<Void> group = TaskGroup.create()) {
            Future<Void> f = group.go(() -> {
                throw error;
            });
            assertSame(error, assertThrows(ExecutionException.class, group::await).getCause());
            assertSame(error, assertThrows(ExecutionException.class, f::get).getCause());
        }
    }

    @Test
    void cancelInterruptsRunningTasksReleasesBlockedSubmittersAndStartsNothingMore() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        AtomicBoolean ranAfter = new AtomicBoolean();
        TaskGroup<Integer> group = TaskGroup.create(1);
        Future<Integer> first = group.go(() -> {
            running.countDown();
            return blockOn(never, 1);
        });
        await(running);
        Threads.Task<Future<Integer>> blocked = Threads.start(() -> group.go(() -> {
            ranAfter.set(true);
            return 2;
        }));
        Threads.untilParked(blocked.thread());
        group.cancel();
        assertTrue(Threads.get(blocked).isCancelled(), "a blocked submitter gets a cancelled Future");
        assertThrows(CancellationException.class, group::await);
        assertTrue(first.isCancelled(), "the running task was cancelled");
        assertTrue(group.go(() -> 3).isCancelled());
        assertTrue(group.tryGo(() -> 4).orElseThrow().isCancelled());
        assertFalse(ranAfter.get());
        assertTrue(group.isCancelled());
    }

    @Test
    void whatTasksThrowAfterACancelIsSuppressedInTheCancellationException() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        TaskGroup<Void> group = TaskGroup.create();
        group.go(() -> {
            running.countDown();
            awaitIgnoringInterrupts(fail);
            throw new IllegalStateException("after the cancel");
        });
        await(running);
        group.cancel();
        fail.countDown();
        CancellationException e = assertThrows(CancellationException.class, group::await);
        assertEquals(1, e.getSuppressed().length);
        assertEquals("after the cancel", e.getSuppressed()[0].getMessage());
    }

    @Test
    void closeCancelsAndWaitsSoNothingOutlivesTheBlock() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(2);
        AtomicInteger ended = new AtomicInteger();
        try (TaskGroup<Integer> group = TaskGroup.create()) {
            for (int i = 0; i < 2; i++) {
                group.go(() -> {
                    running.countDown();
                    try {
                        return blockOn(never, 0);
                    } finally {
                        ended.incrementAndGet();
                    }
                });
            }
            await(running);
        }
        assertEquals(2, ended.get(), "close returned while a task still ran");
    }

    @Test
    void closeIsIdempotentAndKeepsTheInterruptStatus() {
        TaskGroup<Integer> group = TaskGroup.create();
        group.go(() -> 1);
        Thread.currentThread().interrupt();
        group.close();
        group.close();
        assertTrue(Thread.interrupted(), "close keeps the interrupt status");
        assertTrue(group.isCancelled());
    }

    @Test
    void goAfterAwaitStartsANewRound() throws Exception {
        try (TaskGroup<Integer> group = TaskGroup.create(2)) {
            group.go(() -> 1);
            group.go(() -> 2);
            assertEquals(List.of(1, 2), group.await());
            group.go(() -> 3);
            assertEquals(List.of(3), group.await());
            assertEquals(List.of(), group.await());
        }
    }

    @Test
    void aGoDuringAwaitIsWaitedFor() throws Exception {
        CountDownLatch gateA = new CountDownLatch(1);
        CountDownLatch gateB = new CountDownLatch(1);
        try (TaskGroup<String> group = TaskGroup.create()) {
            group.go(() -> blockOn(gateA, "a"));
            Threads.Task<List<String>> awaiter = Threads.start(group::await);
            Threads.untilParked(awaiter.thread());
            group.go(() -> blockOn(gateB, "b"));
            gateA.countDown();
            Threads.assertNotDone(awaiter.result()); // b still runs
            gateB.countDown();
            assertEquals(List.of("a", "b"), Threads.get(awaiter));
        }
    }

    @Test
    void aCancelledFutureCancelsOnlyItsTaskAndLeavesNullInTheResults() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        try (TaskGroup<String> group = TaskGroup.create()) {
            group.go(() -> "a");
            Future<String> b = group.go(() -> {
                running.countDown();
                return blockOn(never, "b");
            });
            group.go(() -> "c");
            await(running);
            assertTrue(b.cancel(true));
            assertEquals(Arrays.asList("a", null, "c"), group.await());
            assertFalse(group.isCancelled());
        }
    }

    @Test
    void aRejectingExecutorRejectsOnlyThatGoAndGivesTheSlotBack() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Executor flaky = task -> {
            switch (calls.incrementAndGet()) {
                case 2 -> throw new RejectedExecutionException("full");
                case 3 -> throw new IllegalStateException("broken");
                case 4 -> throw new OutOfMemoryError("injected: unable to create a thread");
                default -> Thread.ofPlatform().daemon(true).start(task);
            }
        };
        try (TaskGroup<Integer> group = TaskGroup.create(1, flaky)) {
            group.go(() -> 1);
            assertEquals("full", assertThrows(RejectedExecutionException.class, () -> group.go(() -> 2)).getMessage());
            assertInstanceOf(IllegalStateException.class,
                    assertThrows(RejectedExecutionException.class, () -> group.go(() -> 3)).getCause());
            assertThrows(OutOfMemoryError.class, () -> group.go(() -> 4));
            group.go(() -> 5);
            assertEquals(List.of(1, 5), group.await(), "the limit of 1 still lets tasks in");
            assertFalse(group.isCancelled());
        }
    }

    @Test
    void aBoundedPoolComposesWithTheLimitEitherWayRound() throws Exception {
        for (int[] limitAndThreads : new int[][] {{8, 2}, {2, 8}}) {
            int limit = limitAndThreads[0];
            int threads = limitAndThreads[1];
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            AtomicInteger now = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            try (TaskGroup<Integer> group = TaskGroup.create(limit, pool)) {
                for (int i = 0; i < 200; i++) {
                    int id = i;
                    group.go(() -> {
                        most.accumulateAndGet(now.incrementAndGet(), Math::max);
                        Thread.onSpinWait();
                        now.decrementAndGet();
                        return id;
                    });
                }
                assertEquals(IntStream.range(0, 200).boxed().toList(), group.await());
            } finally {
                pool.shutdown();
                assertTrue(pool.awaitTermination(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            }
            assertTrue(most.get() <= Math.min(limit, threads), "limit " + limit + ", threads " + threads
                    + ": " + most.get() + " ran at once");
        }
    }

    /**
     * Two awaiters of one round: the first ends it and returns its results, then the group is cancelled; the
     * second, which had not yet looked (a virtual thread that cannot run while every carrier is held), reads
     * the same results: the round ended before the cancel.
     */
    @Test
    void aSecondAwaiterOfARoundThatEndedBeforeACancelReadsItsResults() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (TaskGroup<Integer> group = TaskGroup.create(-1, new ThreadPerTask())) {
            group.go(() -> blockOn(gate, 1));
            Threads.Task<List<Integer>> second = Threads.start(Thread.ofVirtual(), group::await);
            Threads.untilParked(second.thread());
            try (CarriersHeld held = new CarriersHeld()) {
                gate.countDown();
                assertEquals(List.of(1), group.await(), "the first awaiter ends the round");
                group.cancel();
            }
            assertEquals(List.of(1), Threads.get(second), "the second awaiter of the ended round");
            assertThrows(CancellationException.class, group::await, "the next round is cancelled");
        }
    }

    /**
     * await from one of the group's own tasks waits for that task too: it returns nothing while the task
     * waits, and ends only by an interrupt, here the one with which cancel() stops the task.
     */
    @Test
    void awaitFromATaskOfTheGroupWaitsForItselfUntilInterrupted() throws Exception {
        AtomicReference<Thread> taskThread = new AtomicReference<>();
        try (TaskGroup<Integer> group = TaskGroup.create()) {
            Future<Integer> self = group.go(() -> {
                taskThread.set(Thread.currentThread());
                return group.await().size();
            });
            Threads.until("the task runs", () -> taskThread.get() != null);
            Threads.untilParked(taskThread.get());
            assertThrows(TimeoutException.class, () -> self.get(200, TimeUnit.MILLISECONDS));
            group.cancel(); // interrupts the task: its await throws InterruptedException
            assertTrue(self.isCancelled());
        } // close() returns: the task has ended
    }

    /**
     * close() from one of the group's own tasks cancels the group, then waits for every task, itself
     * included, uninterruptibly: it never returns. The task's thread (a daemon) is left parked.
     */
    @Test
    void closeFromATaskOfTheGroupCancelsItAndWaitsForItselfForEver() throws Exception {
        AtomicReference<Thread> taskThread = new AtomicReference<>();
        AtomicBoolean closeReturned = new AtomicBoolean();
        TaskGroup<Integer> group = TaskGroup.create(-1, new ThreadPerTask());
        group.go(() -> {
            taskThread.set(Thread.currentThread());
            group.close();
            closeReturned.set(true);
            return 1;
        });
        Threads.until("the task runs", () -> taskThread.get() != null);
        Threads.until("the group is cancelled", group::isCancelled);
        Threads.untilParked(taskThread.get());
        taskThread.get().interrupt();
        assertFalse(taskThread.get().join(Duration.ofMillis(200)), "close() from a task of the group returned");
        assertFalse(closeReturned.get());
    }

    @Test
    void anInterruptedAwaitThrowsAndLeavesTheGroupUsable() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (TaskGroup<Integer> group = TaskGroup.create()) {
            group.go(() -> blockOn(gate, 1));
            Threads.Task<List<Integer>> awaiter = Threads.start(group::await);
            Threads.untilParked(awaiter.thread());
            awaiter.thread().interrupt();
            assertInstanceOf(InterruptedException.class, Threads.failure(awaiter.result()));
            gate.countDown();
            assertEquals(List.of(1), group.await());
        }
    }

    @Test
    void badInputIsRejected() {
        assertThrows(NullPointerException.class, () -> TaskGroup.create(1, null));
        try (TaskGroup<Integer> group = TaskGroup.create()) {
            assertThrows(NullPointerException.class, () -> group.go(null));
            assertThrows(NullPointerException.class, () -> group.tryGo(null));
        }
    }

    @Test
    void aTaskThatEndsWithInterruptedExceptionUnprovokedIsAFailure() throws Exception {
        try (TaskGroup<Integer> group = TaskGroup.create()) {
            group.go(() -> {
                throw new InterruptedException("not from the group");
            });
            assertInstanceOf(InterruptedException.class,
                    assertThrows(ExecutionException.class, group::await).getCause());
        }
    }

    @Test
    void theCancellationInterruptDoesNotLeakIntoWhatTheExecutorsThreadDoesNext() throws Exception {
        CompletableFuture<Boolean> leaked = new CompletableFuture<>();
        Executor reporting = task -> Thread.ofPlatform().daemon(true).start(() -> {
            task.run();
            leaked.complete(Thread.currentThread().isInterrupted());
        });
        AtomicReference<Future<Integer>> self = new AtomicReference<>();
        CountDownLatch running = new CountDownLatch(1);
        TaskGroup<Integer> group = TaskGroup.create(-1, reporting);
        self.set(group.go(() -> {
            running.countDown();
            // ends without looking at its interrupt, which the cancellation is delivering right now
            Threads.until("the task's Future is cancelled", () -> self.get() != null && self.get().isCancelled());
            return 1;
        }));
        await(running);
        group.close();
        assertFalse(Threads.get(leaked), "the executor's thread is still interrupted after the task");
    }

    /**
     * A task whose own Future was cancelled before it started is never run and nobody is interrupted, so
     * running its member (here by a trampoline executor, in a thread with an interrupt of its own pending)
     * leaves the thread's interrupt status as it was.
     */
    @Test
    void aTaskWhoseOwnFutureWasCancelledBeforeItStartsDoesNotClearTheRunnersInterrupt() throws Exception {
        ArrayDeque<Runnable> queued = new ArrayDeque<>();
        TaskGroup<Integer> group = TaskGroup.create(-1, queued::add);
        Future<Integer> cancelled = group.go(() -> 1);
        Future<Integer> kept = group.go(() -> 2);
        assertTrue(cancelled.cancel(false), "cancel without interrupting: nothing is interrupted");
        Thread.currentThread().interrupt(); // the runner's own pending interrupt
        boolean stillInterrupted;
        try {
            queued.poll().run();
        } finally {
            stillInterrupted = Thread.interrupted();
        }
        assertTrue(stillInterrupted, "running a task cancelled before it started cleared the runner's interrupt");
        queued.poll().run();
        assertEquals(2, kept.get());
        assertEquals(Arrays.asList(null, 2), group.await());
    }

    @Test
    void toStringShowsTheState() {
        try (TaskGroup<Integer> group = TaskGroup.create(3)) {
            assertTrue(group.toString().endsWith("[limit=3, running=0, cancelled=false]"), group.toString());
        }
    }
}
