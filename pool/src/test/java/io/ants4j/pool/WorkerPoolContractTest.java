package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static io.ants4j.pool.TestSupport.occupy;
import static io.ants4j.pool.TestSupport.tasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Kind;
import io.ants4j.pool.PoolKinds.Tested;
import io.ants4j.pool.PoolKinds.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One suite for every {@link WorkerPool} member, run on all four pools with virtual and with platform workers:
 * a user who switches from one pool to another finds the same behaviour. Each pool has a capacity of 2 (a
 * multi-pool: two sub-pools of 1) and no purger unless a test needs one, so that idle workers stay put.
 */
class WorkerPoolContractTest {

    private static final String KINDS = "io.ants4j.pool.PoolKinds#kindsAndThreads";

    /** Options for {@code threads}: virtual workers from the default factory, platform ones from a user's. */
    private static PoolOptions.Builder options(Threads threads) {
        PoolOptions.Builder b = PoolOptions.builder().disablePurge(true);
        return threads == Threads.VIRTUAL ? b
                : b.threadFactory(Thread.ofPlatform().daemon(true).name("user-factory-", 1).factory());
    }

    /** A pool of {@code kind} with capacity 2 on {@code threads}. */
    private static Tested make(Kind kind, Threads threads) {
        return kind.make(2, options(threads).build());
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void namesItsThreadsAfterThePool(Kind kind, Threads threads) throws Exception {
        String name = "orders-" + kind + "-" + threads;
        Tested t = kind.make(2, options(threads).disablePurge(false).name(name).build());
        WorkerPool pool = t.pool();
        assertEquals(name, pool.name());
        assertTrue(pool.toString().startsWith(name + "["), pool.toString());
        List<Thread> workers = new CopyOnWriteArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < 2; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            t.submit().accept(() -> {
                workers.add(Thread.currentThread());
                ran.countDown();
                block(go);
            });
            await(ran);
        }
        go.countDown();
        List<String> backgroundNames = new ArrayList<>();
        for (Thread w : workers) {
            assertEquals(threads == Threads.VIRTUAL, w.isVirtual(), w.toString());
            String expected = threads == Threads.PLATFORM ? "user-factory-\\d+" // the user's factory names them
                    : kind.multi() ? name + "-[01]-worker-1" : name + "-worker-[12]";
            assertTrue(w.getName().matches(expected), w.getName() + " !~ " + expected);
        }
        List<PoolCore> cores = Probe.cores(pool);
        for (int i = 0; i < cores.size(); i++) {
            String part = kind.multi() ? name + "-" + i : name;
            backgroundNames.add(part + "-purger");
            backgroundNames.add(part + "-ticker");
        }
        List<String> seen = new ArrayList<>();
        for (PoolCore c : cores) {
            for (Thread b : c.backgroundThreads()) {
                seen.add(b.getName());
                assertEquals(threads == Threads.VIRTUAL, b.isVirtual(), b + ": purger and ticker follow the workers");
                assertTrue(threads == Threads.VIRTUAL || b.isDaemon(), b + " must not keep the JVM alive");
            }
        }
        assertEquals(backgroundNames, seen);
        pool.releaseTimeout(WAIT);

        Tested unnamed = make(kind, threads);
        Tested other = make(kind, threads);
        assertTrue(unnamed.pool().name().matches("ants4j-pool-\\d+"), unnamed.pool().name());
        assertNotEquals(unnamed.pool().name(), other.pool().name());
        unnamed.pool().releaseTimeout(WAIT);
        other.pool().releaseTimeout(WAIT);
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void countsRunningIdleFreeWaitingAndCapacity(Kind kind, Threads threads) throws Exception {
        Tested t = make(kind, threads);
        WorkerPool pool = t.pool();
        assertEquals(2, pool.cap());
        assertEquals(2, pool.free());
        assertEquals(0, pool.running());
        assertEquals(0, pool.idle());
        CountDownLatch go = occupy(t.submit(), 2);
        assertEquals(2, pool.running());
        assertEquals(0, pool.idle(), "both workers are busy");
        assertEquals(0, pool.free());
        Thread submitter = Thread.ofPlatform().start(() -> t.submit().accept(() -> { }));
        eventually("a submitter waits", () -> pool.waiting() == 1, pool::toString);
        go.countDown();
        assertTrue(submitter.join(WAIT));
        eventually("both workers idle", () -> pool.idle() == 2 && pool.waiting() == 0, pool::toString);
        assertEquals(2, pool.running(), "idle workers stay alive without a purger");
        pool.tune(3);
        assertEquals(kind.multi() ? 6 : 3, pool.cap(), "a multi-pool tunes each sub-pool");
        assertEquals(kind.multi() ? 4 : 1, pool.free());
        pool.releaseTimeout(WAIT);
        assertEquals(0, pool.running());
        assertEquals(0, pool.idle());
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void statsCountEverySubmissionAndEveryWait(Kind kind, Threads threads) throws Exception {
        long start = System.nanoTime();
        Tested t = kind.make(2, options(threads).panicHandler(x -> { }).build());
        WorkerPool pool = t.pool();
        CountDownLatch go = occupy(t.submit(), 2);
        assertFalse(t.trySubmit().test(() -> { }, Duration.ZERO), "no worker is free");
        CountDownLatch ranAfterWait = new CountDownLatch(1);
        Thread submitter = Thread.ofPlatform().start(() -> t.submit().accept(ranAfterWait::countDown));
        eventually("a submitter waits", () -> pool.waiting() == 1, pool::toString);
        go.countDown();
        await(ranAfterWait);
        submitter.join(WAIT);
        assertEquals(1, pool.stats().blockedSubmits(), "only the submitter that parked waited");
        // idle() counts a worker on its way from the fast lane to the idle queue: a submission may still wait
        // for it briefly, so the one below may count as blocked too
        eventually("both workers idle", () -> pool.idle() == 2, pool::toString);
        CountDownLatch failed = new CountDownLatch(1);
        t.submit().accept(() -> {
            failed.countDown();
            throw new IllegalStateException("task failure");
        });
        await(failed);
        eventually("every task counted", () -> pool.stats().completed() + pool.stats().failed() == 4,
                pool::toString);
        pool.releaseTimeout(WAIT);
        assertThrows(PoolClosedException.class, () -> t.submit().accept(() -> { }));
        PoolStats s = pool.stats();
        assertEquals(tasks(4, 3, 1, 2), tasks(s), "2 blockers, the waiter, the failure; a timeout and a closed pool");
        assertTrue(s.blockedSubmits() >= 1, s.toString());
        assertTrue(s.blockedTime().toNanos() > 0 && s.blockedTime().toNanos() <= System.nanoTime() - start,
                s.toString());
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void timedSubmissionWaitsAtMostItsTimeout(Kind kind, Threads threads) throws Exception {
        Tested t = make(kind, threads);
        WorkerPool pool = t.pool();
        CountDownLatch go = occupy(t.submit(), 2);
        long start = System.nanoTime();
        assertFalse(t.trySubmit().test(() -> { }, Duration.ofMillis(50)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "gave up before the timeout");
        assertFalse(t.trySubmit().test(() -> { }, Duration.ofDays(-1)), "a negative timeout counts as zero");
        go.countDown();
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(t.trySubmit().test(ran::countDown, WAIT));
        await(ran);
        assertThrows(NullPointerException.class, () -> t.trySubmit().test(() -> { }, null));
        pool.release();
        assertThrows(PoolClosedException.class, () -> t.trySubmit().test(() -> { }, WAIT));
        assertEquals(3, pool.stats().rejected());
        assertTrue(pool.awaitTermination(WAIT.toNanos(), TimeUnit.NANOSECONDS));
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void lifeCycle(Kind kind, Threads threads) throws Exception {
        Tested t = kind.make(2, options(threads).disablePurge(false).build());
        WorkerPool pool = t.pool();
        assertFalse(pool.isClosed());
        assertFalse(pool.isTerminated());
        assertFalse(pool.awaitTermination(0, TimeUnit.SECONDS), "an open pool never terminates");
        CountDownLatch go = occupy(t.submit(), 1);
        pool.release();
        assertTrue(pool.isClosed());
        assertFalse(pool.isTerminated(), "a task still runs");
        assertThrows(TimeoutException.class, () -> pool.releaseTimeout(Duration.ofMillis(10)));
        assertThrows(PoolClosedException.class, () -> t.submit().accept(() -> { }));
        go.countDown();
        assertTrue(pool.awaitTermination(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(pool.isTerminated());
        pool.release(); // harmless on a closed pool
        assertTrue(pool.isTerminated(), "stays terminated");
        pool.reboot();
        assertFalse(pool.isClosed());
        assertFalse(pool.isTerminated());
        CountDownLatch ran = new CountDownLatch(1);
        t.submit().accept(ran::countDown);
        await(ran);
        pool.releaseTimeout(WAIT);
        assertTrue(pool.isTerminated());
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void closeInTryWithResourcesWaitsForTheTasks(Kind kind, Threads threads) throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        Tested t = make(kind, threads);
        try (WorkerPool pool = t.pool()) {
            CountDownLatch go = occupy(t.submit(), 1);
            t.submit().accept(() -> { });
            Thread.ofPlatform().start(() -> { // opens the latch once close has begun to wait
                eventually("close called", pool::isClosed);
                done.set(true);
                go.countDown();
            });
        }
        assertTrue(done.get(), "close returned before the task it waits for could end");
        assertTrue(t.pool().isTerminated());
        assertTrue(t.pool().awaitTermination(0, TimeUnit.SECONDS), "close waits for the threads too");
        t.pool().close(); // again: returns at once
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void closeFromATaskWaitsForTheOthersOnly(Kind kind, Threads threads) throws Exception {
        Tested t = make(kind, threads);
        CountDownLatch go = occupy(t.submit(), 1);
        WorkerPool pool = t.pool();
        CountDownLatch closed = new CountDownLatch(1);
        AtomicBoolean otherDone = new AtomicBoolean();
        t.submit().accept(() -> {
            Thread.ofPlatform().start(() -> {
                eventually("close called", pool::isClosed);
                otherDone.set(true);
                go.countDown();
            });
            pool.close();
            closed.countDown();
        });
        await(closed);
        assertTrue(otherDone.get(), "close from a task waits for every other task");
        assertTrue(pool.awaitTermination(WAIT.toNanos(), TimeUnit.NANOSECONDS), "terminates after the caller");
    }

    @ParameterizedTest
    @MethodSource(KINDS)
    void interruptedCloseInterruptsTheTasksAndKeepsTheStatus(Kind kind, Threads threads) throws Exception {
        Tested t = make(kind, threads);
        WorkerPool pool = t.pool();
        CountDownLatch never = new CountDownLatch(1);
        AtomicReference<Boolean> taskInterrupted = new AtomicReference<>();
        CountDownLatch running = new CountDownLatch(1);
        t.submit().accept(() -> {
            running.countDown();
            try {
                taskInterrupted.set(!never.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                taskInterrupted.set(true);
            }
        });
        await(running);
        AtomicBoolean statusKept = new AtomicBoolean();
        Thread closer = Thread.ofPlatform().start(() -> {
            Thread.currentThread().interrupt();
            pool.close();
            statusKept.set(Thread.currentThread().isInterrupted());
        });
        assertTrue(closer.join(WAIT), "close did not stop the task");
        assertTrue(statusKept.get(), "close must return with the interrupt status set");
        assertEquals(Boolean.TRUE, taskInterrupted.get(), "close interrupted: the task is interrupted");
        assertTrue(pool.isTerminated());
    }
}
