package io.ants4j.systematic.sweep;

import static io.ants4j.systematic.sweep.Probe.check;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import io.ants4j.primitives.Cond;
import io.ants4j.primitives.Mutex;
import io.ants4j.primitives.RWMutex;
import io.ants4j.primitives.SpinLock;
import io.ants4j.primitives.TaskGroup;
import io.ants4j.primitives.WaitGroup;
import io.ants4j.primitives.WeightedSemaphore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * The sweep's scenarios for an interruptible wait entered with the interrupt status set, where it cannot get
 * in at once: it throws {@link InterruptedException}, which clears the status, as {@code Lock},
 * {@code Condition} and the primitives' javadoc say. Making that exception allocates: on an exhausted heap the
 * wait throws an {@link OutOfMemoryError} instead, and the caller must then find its interrupt status still set
 * (a status cleared before the exception is made would be lost with it). So too for an interrupt that comes while
 * the wait is parked, which the wait consumes before it makes its exception. Each target is blocked by the setup's
 * thread (a held lock, a count up, no permit left) and released by the check.
 */
final class InterruptedEntryScenarios {
    /** A timed wait's timeout: never reached, the interrupt comes first. */
    private static final long TIMEOUT_MILLIS = 10_000L;

    private InterruptedEntryScenarios() {
    }

    /** A wait that cannot get in at once, and what the check does to release its target. */
    @FunctionalInterface
    private interface Wait<T> {
        void run(T target) throws InterruptedException;
    }

    @FunctionalInterface
    private interface Release<T> {
        void release(T target);
    }

    @FunctionalInterface
    private interface Blocked<T> {
        T make();
    }

    /** The target, whether the wait threw {@code InterruptedException}, and the interrupt status it left. */
    static final class Entry<T> {
        final T target;
        volatile boolean threwInterruptedException;
        volatile boolean interruptedAfter;
        /** Interrupts the runner if the wait parks; null for an interrupt on entry. */
        Probe.Helper interrupter;

        Entry(T target) {
            this.target = target;
        }
    }

    static List<Scenario<?>> all() {
        List<Scenario<?>> l = new ArrayList<>();
        for (boolean timed : new boolean[] {false, true}) {
            String how = timed ? "tryLock(timeout)" : "lockInterruptibly";
            Wait<Lock> lockWait = timed ? lock -> lock.tryLock(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                    : Lock::lockInterruptibly;
            add(l, "Mutex." + how, InterruptedEntryScenarios::heldMutex, lockWait, Lock::unlock);
            add(l, "SpinLock." + how, InterruptedEntryScenarios::heldSpinLock, lockWait, Lock::unlock);
            add(l, "RWMutex.readLock." + how, () -> {
                RWMutex rw = new RWMutex();
                rw.writeLock().lock();
                return rw;
            }, rw -> lockWait.run(rw.readLock()), rw -> rw.writeLock().unlock());
            add(l, "RWMutex.writeLock." + how, () -> {
                RWMutex rw = new RWMutex();
                rw.readLock().lock();
                return rw;
            }, rw -> lockWait.run(rw.writeLock()), rw -> rw.readLock().unlock());
        }
        add(l, "Cond.await", InterruptedEntryScenarios::condOfAHeldLock, c -> c.cond.await(), c -> c.lock.unlock());
        add(l, "Cond.await(timeout)", InterruptedEntryScenarios::condOfAHeldLock,
                c -> c.cond.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), c -> c.lock.unlock());
        add(l, "WaitGroup.await", InterruptedEntryScenarios::groupOfOne, WaitGroup::await, WaitGroup::done);
        add(l, "WaitGroup.await(timeout)", InterruptedEntryScenarios::groupOfOne,
                g -> g.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), WaitGroup::done);
        add(l, "WeightedSemaphore.acquire", InterruptedEntryScenarios::emptySemaphore, s -> s.acquire(1),
                s -> s.release(1));
        add(l, "WeightedSemaphore.tryAcquire(timeout)", InterruptedEntryScenarios::emptySemaphore,
                s -> s.tryAcquire(1, TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), s -> s.release(1));
        add(l, "TaskGroup.Future.get", InterruptedEntryScenarios::runningTask, t -> {
            try {
                t.future.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new AssertionError("the task failed", e);
            }
        }, RunningTask::finish);
        // the channels make their InterruptedException in a class of their own (channels' Interrupts): a receive
        // and a select with nothing to take, no release needed; each checks that it left no waiter queued
        add(l, "Chan.receive", Chan<Integer>::new, Chan::receive,
                c -> check(!c.offer(1), "an interrupted receive was left queued on " + c));
        add(l, "Select.select", TwoChannels::new, t -> Select.select(t.cases), TwoChannels::checkNoneQueued);
        return l;
    }

    /** A select's two receive cases, made before the operation: what fails is the select's own allocation. */
    private static final class TwoChannels {
        final Chan<Integer> a = new Chan<>();
        final Chan<Integer> b = new Chan<>();
        final Select.Case[] cases = {a.onReceive(v -> { }), b.onReceive(v -> { })};

        void checkNoneQueued() {
            check(!a.offer(1) && !b.offer(1), "an interrupted select left a waiter queued");
        }
    }

    /** A group whose one task runs until {@link #finish} lets it return. */
    private record RunningTask(TaskGroup<Void> group, CountDownLatch release, Future<Void> future) {
        void finish() {
            release.countDown();
            try {
                group.close();
            } catch (Exception e) {
                throw new AssertionError("the group did not close", e);
            }
        }
    }

    private static RunningTask runningTask() {
        TaskGroup<Void> group = TaskGroup.create();
        CountDownLatch release = new CountDownLatch(1);
        Future<Void> future = group.go(() -> {
            check(release.await(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "the task was never let go");
            return null;
        });
        return new RunningTask(group, release, future);
    }

    private static <T> void add(List<Scenario<?>> l, String name, Blocked<T> blocked, Wait<T> wait,
                                Release<T> release) {
        add(l, name, blocked, wait, release, false);
        if (!name.startsWith("SpinLock.")) { // a SpinLock waiter spins: it never parks for the interrupter to see
            add(l, name, blocked, wait, release, true);
        }
    }

    /**
     * A scenario of {@code wait} on what {@code blocked} makes, interrupted on entry or, {@code whileWaiting}, by a
     * helper once it parks: then the wait consumes the interrupt status and must make its exception.
     */
    private static <T> void add(List<Scenario<?>> l, String name, Blocked<T> blocked, Wait<T> wait,
                                Release<T> release, boolean whileWaiting) {
        String label = whileWaiting ? "interrupted while waiting" : "interrupted on entry";
        l.add(Scenario.of(name + " (" + label + ")", () -> {
            Entry<T> e = new Entry<>(blocked.make());
            if (whileWaiting) {
                Thread runner = SweepRunner.current().thread();
                e.interrupter = Probe.onlyIfOperationParks("interrupter", runner::interrupt);
            }
            return e;
        }, e -> {
            if (whileWaiting) {
                Thread.interrupted(); // an interrupter of an earlier run may have come late: this run's comes at its park
            } else {
                Thread.currentThread().interrupt();
            }
            try {
                wait.run(e.target);
            } catch (InterruptedException expected) {
                e.threwInterruptedException = true; // the outcome of a run with memory enough
            } finally {
                e.interruptedAfter = Thread.interrupted(); // allocates nothing; the runner's waits stay calm
            }
        }, (e, thrown) -> {
            if (e.interrupter != null) {
                e.interrupter.join();
            }
            release.release(e.target);
            // an interrupter does not act when the wait fails before it parks (its node, say): no interrupt then
            boolean interruptSent = e.interrupter == null || e.interrupter.acted();
            if (thrown instanceof OutOfMemoryError) {
                check(e.interruptedAfter || !interruptSent, name + " (" + label + ") threw " + thrown
                        + " and the interrupt status was lost with it");
            } else {
                check(thrown == null && e.threwInterruptedException, name + " (" + label
                        + ") did not throw InterruptedException (threw " + thrown + ")");
                check(!e.interruptedAfter, name + " (" + label
                        + ") threw InterruptedException and left the interrupt status set");
            }
        }).failingAnAllocation());
    }

    private static Mutex heldMutex() {
        Mutex m = new Mutex();
        m.lock();
        return m;
    }

    private static SpinLock heldSpinLock() {
        SpinLock s = new SpinLock();
        s.lock();
        return s;
    }

    /** A condition and its lock. */
    private record Condition(SpinLock lock, Cond cond) {
    }

    private static Condition condOfAHeldLock() {
        SpinLock lock = new SpinLock();
        lock.lock(); // the runner awaits "holding" it: a SpinLock is not owned
        return new Condition(lock, new Cond(lock));
    }

    private static WaitGroup groupOfOne() {
        WaitGroup g = new WaitGroup();
        g.add(1);
        return g;
    }

    private static WeightedSemaphore emptySemaphore() {
        WeightedSemaphore s = new WeightedSemaphore(1);
        check(s.tryAcquire(1), "the setup cannot take the only permit of " + s);
        return s;
    }
}
