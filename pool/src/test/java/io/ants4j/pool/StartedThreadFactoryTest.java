package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Kind;
import io.ants4j.pool.PoolKinds.Tested;
import io.ants4j.pool.PoolKinds.Threads;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A thread factory that returns a thread it has already started, running the worker it was given (a factory
 * that starts its threads itself, or hands them to something that does). The pool's {@code Thread.start()} then
 * throws {@link IllegalThreadStateException}, and the README says a factory failure "rejects only that
 * submission (RejectedExecutionException ...) and gives its worker slot back"; a factory that returns a started
 * thread fails the same way, and the worker never runs in that thread, unless it had begun to run there after
 * the pool admitted it (then that thread is the worker's, and the submission succeeded). Either way the pool
 * keeps its contracts: a rejected task does not run (a caller that submits it again would run it twice), a task
 * whose submission returned normally runs, the counts stay consistent ({@code idle() <= running()},
 * {@code running()} back to 0), and the pool terminates after {@code release()} with no thread of it left
 * alive.
 */
class StartedThreadFactoryTest {

    /**
     * Starts the thread it makes on its first call only, and waits (bounded) until that thread has ended or
     * parks, so that the run it makes of the worker comes before the pool starts the thread; later calls
     * return unstarted threads.
     */
    static final class StartsFirstThread implements ThreadFactory {
        private final ThreadFactory delegate;
        private final AtomicInteger calls = new AtomicInteger();
        final AtomicReference<Thread> started = new AtomicReference<>();

        StartsFirstThread(ThreadFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = delegate.newThread(r);
            if (calls.incrementAndGet() == 1) {
                t.start();
                started.set(t);
                awaitEndedOrParked(t);
            }
            return t;
        }
    }

    /** Waits up to 5 s until {@code t} has ended or parks. */
    static void awaitEndedOrParked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TERMINATED
                && System.nanoTime() - deadline < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @ParameterizedTest(name = "{0} on {1} workers")
    @MethodSource("io.ants4j.pool.PoolKinds#kindsAndThreads")
    void aFactoryThatStartsItsThreadNeitherRunsARejectedTaskNorCorruptsTheCounts(Kind kind, Threads threads)
            throws InterruptedException {
        StartsFirstThread factory = new StartsFirstThread(threads.factory((t, e) -> { }));
        Tested tested = kind.make(2, PoolOptions.builder().disablePurge(true).threadFactory(factory).build());
        WorkerPool pool = tested.pool();
        AtomicInteger ran = new AtomicInteger();
        Runnable task = ran::incrementAndGet;
        boolean rejected;
        Throwable cause = null;
        try {
            tested.submit().accept(task);
            rejected = false;
        } catch (RejectedExecutionException e) { // Thread.start() of a started thread throws
            rejected = true;
            cause = e.getCause();
        }
        Thread t = factory.started.get();
        // whatever became of the started thread, it settles: it ends, or parks
        eventually("the factory's started thread ends or parks", () -> t.getState() == Thread.State.TERMINATED
                || t.getState() == Thread.State.WAITING, () -> t.getState() + " " + pool);
        int idle = pool.idle();
        int running = pool.running();
        int ranBeforeResubmit = ran.get();
        long rejections = pool.stats().rejected();
        Throwable startFailure = cause;
        String settled = "after the " + (rejected ? "rejection" : "submission") + ": " + pool;
        if (rejected) {
            tested.submit().accept(task); // what a caller does with a rejected task: submit it again
        }
        pool.release();
        boolean terminated = pool.awaitTermination(5, TimeUnit.SECONDS);
        String released = "after release: " + pool;
        eventually("the factory's started thread ends", () -> t.getState() == Thread.State.TERMINATED,
                () -> t.getState() + " " + pool);
        String submissions = rejected ? "rejected, then submitted again" : "accepted";
        boolean wasRejected = rejected;
        assertAll(
                () -> assertTrue(wasRejected, "a factory that returns a started thread rejects the submission, as"
                        + " one that throws (README); " + settled),
                () -> assertTrue(startFailure instanceof IllegalThreadStateException, "the rejection's cause is"
                        + " Thread.start()'s failure: " + startFailure),
                () -> assertEquals(0, ranBeforeResubmit, "runs of the rejected task before it was submitted again"),
                () -> assertEquals(1L, rejections, "stats().rejected() after the rejection; " + settled),
                () -> assertEquals(0, running, "running() after the rejection: the slot is given back; " + settled),
                () -> assertEquals(1, ran.get(), "runs of a task whose first submission was " + submissions),
                () -> assertTrue(idle <= running, "idle() <= running() (WorkerPool#idle): idle=" + idle
                        + " running=" + running + "; " + settled),
                () -> assertTrue(terminated, "the pool terminates after release(); " + released),
                () -> assertEquals(0, pool.running(), "running() after release; " + released));
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> singlePoolKindsAndThreads() {
        return PoolKinds.kindsAndThreads().filter(a -> !((Kind) a.get()[0]).multi());
    }

    /**
     * The same factory, calling back into the pool: once its started thread has ended or parks, it submits
     * another task to the pool before it returns. That submission returns normally, so its task must run.
     */
    @ParameterizedTest(name = "{0} on {1} workers")
    @MethodSource("singlePoolKindsAndThreads")
    void aTaskSubmittedWhileTheFactoryStartsItsThreadRuns(Kind kind, Threads threads) throws InterruptedException {
        AtomicReference<java.util.function.Consumer<Runnable>> submit = new AtomicReference<>();
        CountDownLatch secondRan = new CountDownLatch(1);
        AtomicReference<Throwable> secondFailed = new AtomicReference<>();
        AtomicReference<Thread> started = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory delegate = threads.factory((t, e) -> { });
        ThreadFactory factory = r -> {
            Thread t = delegate.newThread(r);
            if (calls.incrementAndGet() == 1) {
                t.start();
                started.set(t);
                awaitEndedOrParked(t);
                try {
                    submit.get().accept(secondRan::countDown);
                } catch (Throwable e) {
                    secondFailed.set(e);
                }
            }
            return t;
        };
        Tested tested = kind.make(2, PoolOptions.builder().disablePurge(true).threadFactory(factory).build());
        submit.set(tested.submit());
        WorkerPool pool = tested.pool();
        try {
            tested.submit().accept(() -> { });
        } catch (RejectedExecutionException e) {
            // Thread.start() of a started thread throws
        }
        boolean secondWasAccepted = secondFailed.get() == null;
        boolean ran = secondRan.await(5, TimeUnit.SECONDS);
        String state = pool + ", started thread " + started.get().getState();
        pool.release();
        boolean terminated = pool.awaitTermination(5, TimeUnit.SECONDS);
        Thread t = started.get();
        assertAll(
                () -> assertTrue(!secondWasAccepted || ran, "a submission that returned normally (from the"
                        + " factory) has its task run; " + state),
                () -> assertTrue(terminated, "the pool terminates after release(); " + pool),
                () -> assertTrue(!terminated || !t.isAlive(), "no thread of a terminated pool is alive"
                        + " (awaitTermination); the factory's started thread is " + t.getState()));
    }

    /**
     * A platform thread the factory starts itself, whose run reaches the worker only when the pool starts the
     * thread: its {@code start()} lets the run go on, waits until the worker has run its first task, and then
     * throws as {@code Thread.start()} of a started thread does.
     */
    static final class GatedThread extends Thread {
        private final CountDownLatch admitted;
        private final CountDownLatch firstRan;

        private GatedThread(CountDownLatch admitted, Runnable worker, CountDownLatch firstRan) {
            super(() -> {
                try {
                    if (admitted.await(5, TimeUnit.SECONDS)) {
                        worker.run();
                    }
                } catch (InterruptedException e) {
                    // the worker does not run
                }
            });
            this.admitted = admitted;
            this.firstRan = firstRan;
            setDaemon(true);
        }

        static GatedThread startedEarly(Runnable worker, CountDownLatch firstRan) {
            GatedThread t = new GatedThread(new CountDownLatch(1), worker, firstRan);
            t.startEarly();
            return t;
        }

        private void startEarly() {
            super.start();
        }

        /** The pool's start: lets the worker run, waits (bounded) for its first task, then fails. */
        @Override
        public void start() {
            admitted.countDown();
            try {
                firstRan.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.start(); // throws IllegalThreadStateException: started already
        }
    }

    /**
     * The worker began to run in the thread the factory started, after the pool admitted it, and only then
     * did {@code Thread.start()} throw: the thread is the worker's, so the submission succeeds, its task runs
     * once, the worker stays counted and idle in that thread, and {@code release()} ends it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aWorkerThatBeganInTheFactorysStartedThreadMakesItTheWorkersThread(Kind kind) throws InterruptedException {
        CountDownLatch firstRan = new CountDownLatch(1);
        AtomicReference<GatedThread> gated = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory platform = Threads.PLATFORM.factory((t, e) -> { });
        ThreadFactory factory = r -> {
            if (calls.incrementAndGet() == 1) {
                gated.set(GatedThread.startedEarly(r, firstRan));
                return gated.get();
            }
            return platform.newThread(r);
        };
        Tested tested = kind.make(2, PoolOptions.builder().disablePurge(true).threadFactory(factory).build());
        WorkerPool pool = tested.pool();
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        tested.submit().accept(() -> { // Thread.start() throws after this task ran: the submission succeeds
            ran.incrementAndGet();
            ranOn.set(Thread.currentThread());
            firstRan.countDown();
        });
        Thread t = gated.get();
        eventually("the worker idle after its task", () -> pool.idle() == 1, pool::toString);
        String settled = pool.toString();
        int running = pool.running();
        long rejections = pool.stats().rejected();
        pool.release();
        boolean terminated = pool.awaitTermination(5, TimeUnit.SECONDS);
        assertAll(
                () -> assertEquals(1, ran.get(), "runs of the task"),
                () -> assertEquals(t, ranOn.get(), "the thread the task ran on"),
                () -> assertEquals(1, running, "running() with the worker idle; " + settled),
                () -> assertEquals(0L, rejections, "stats().rejected(); " + settled),
                () -> assertTrue(terminated, "the pool terminates after release(); " + pool),
                () -> assertEquals(0, pool.running(), "running() after release; " + pool),
                () -> assertEquals(Thread.State.TERMINATED, t.getState(), "the worker's thread after"
                        + " awaitTermination"));
    }
}
