package io.ants4j.systematic.sweep;

import static io.ants4j.systematic.sweep.Probe.check;
import static io.ants4j.systematic.sweep.Probe.noneOrOutOfMemory;
import static io.ants4j.systematic.sweep.Probe.until;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.Mutex;
import io.ants4j.primitives.Once;
import io.ants4j.primitives.RWMutex;
import io.ants4j.primitives.SpinLock;
import io.ants4j.primitives.TaskGroup;
import io.ants4j.primitives.WaitGroup;
import io.ants4j.primitives.WeightedSemaphore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/** The sweep's scenarios for the primitives: every public operation that may allocate, and its neighbours. */
final class PrimitiveScenarios {
    /** A wait that times out, inside an operation: short, since it runs once per allocation swept. */
    private static final long SHORT_MILLIS = 20L;
    /** What a failing task throws: made once, so that throwing it allocates nothing. */
    static final RuntimeException TASK_FAILURE = new IllegalStateException("the sweep's failing task");

    private PrimitiveScenarios() {
    }

    /** An operation that waits, on a {@code T}, as a value: the scenarios of each kind of wait are one loop. */
    @FunctionalInterface
    private interface Wait<T> {
        void run(T target) throws InterruptedException;
    }

    /** A wait and the name of its scenario. */
    private record Named<T>(String name, Wait<T> action) {
    }

    /** The acquisitions of a {@link Lock} that wait until it is free. */
    private static final List<Named<Lock>> LOCK_WAITS = List.of(new Named<Lock>("lock", Lock::lock),
            new Named<Lock>("lockInterruptibly", Lock::lockInterruptibly));

    static List<Scenario<?>> all() {
        List<Scenario<?>> l = new ArrayList<>();
        mutex(l);
        rwMutex(l);
        spinLock(l);
        cond(l);
        waitGroup(l);
        once(l);
        semaphore(l);
        taskGroup(l);
        return l;
    }

    // ------------------------------------------------------------------------------------------ locks

    /** A lock held by the setup's thread, a waiter parked on it, and a helper for the operation. */
    static final class Held<L> {
        final L lock;
        Probe.Helper waiter;
        Probe.Helper helper;
        volatile boolean result;

        Held(L lock) {
            this.lock = lock;
        }
    }

    /** The lock works for other threads: a thread takes and releases it, then it is free. */
    static void lockWorks(Lock lock) throws Exception {
        Probe.Helper other = Probe.start("other", () -> {
            check(lock.tryLock(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "another thread cannot take " + lock);
            lock.unlock();
        });
        other.join();
        check(lock.tryLock(), "the lock is not free at the end: " + lock);
        lock.unlock();
    }

    private static Held<Mutex> mutexWithWaiter() {
        Held<Mutex> h = new Held<>(new Mutex());
        h.lock.lock();
        h.waiter = Probe.start("waiter", () -> {
            h.lock.lock();
            h.lock.unlock();
        });
        until("the waiter is queued on " + h.lock, () -> h.lock.toString().endsWith("waiters=1]"));
        return h;
    }

    private static void mutex(List<Scenario<?>> l) {
        for (Named<Lock> acquire : LOCK_WAITS) {
            l.add(Scenario.of("Mutex." + acquire.name(), () -> {
                Held<Mutex> h = mutexWithWaiter();
                h.helper = Probe.whenOperationParks("unlocker", h.lock::unlock);
                return h;
            }, h -> {
                acquire.action().run(h.lock);
                h.lock.unlock();
            }, PrimitiveScenarios::mutexReleasedByHelper));
        }
        l.add(Scenario.of("Mutex.tryLock(timeout)", PrimitiveScenarios::mutexWithWaiter, h -> {
            h.result = h.lock.tryLock(SHORT_MILLIS, TimeUnit.MILLISECONDS);
        }, (h, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(!h.result, "tryLock took a held lock");
            check(h.lock.toString().endsWith("[locked, waiters=1]"), "after the call: " + h.lock + " (expected locked, 1 waiter)");
            h.lock.unlock();
            h.waiter.join();
            lockWorks(h.lock);
        }));
        l.add(Scenario.of("Mutex.unlock", PrimitiveScenarios::mutexWithWaiter, h -> h.lock.unlock(), (h, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (thrown != null && h.lock.isLocked()) {
                h.lock.unlock();
            }
            h.waiter.join();
            lockWorks(h.lock);
        }));
        l.add(Scenario.of("Mutex.newCondition", () -> new Held<>(new Mutex()), h -> h.lock.newCondition(),
                (h, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    lockWorks(h.lock);
                }));
    }

    private static void mutexReleasedByHelper(Held<Mutex> h, Throwable thrown) throws Exception {
        noneOrOutOfMemory(thrown);
        h.helper.join();
        h.waiter.join();
        lockWorks(h.lock);
        check(h.lock.toString().endsWith("[unlocked, waiters=0]"), "at the end: " + h.lock);
    }

    private static Held<RWMutex> writeLocked() {
        Held<RWMutex> h = new Held<>(new RWMutex());
        h.lock.writeLock().lock();
        return h;
    }

    private static Held<RWMutex> readLocked() {
        Held<RWMutex> h = new Held<>(new RWMutex());
        h.lock.readLock().lock();
        return h;
    }

    /** Both views work for other threads and the mutex is free at the end. */
    private static void rwWorks(RWMutex rw) throws Exception {
        lockWorks(rw.writeLock());
        lockWorks(rw.readLock());
        check(rw.readers() == 0, "readers left at the end: " + rw);
        check(rw.writeLock().tryLock(), "the write lock is not free at the end: " + rw);
        rw.writeLock().unlock();
    }

    private static void rwReleasedByHelper(Held<RWMutex> h, Throwable thrown) throws Exception {
        noneOrOutOfMemory(thrown);
        h.helper.join();
        rwWorks(h.lock);
    }

    private static void rwMutex(List<Scenario<?>> l) {
        for (Named<Lock> acquire : LOCK_WAITS) {
            l.add(Scenario.of("RWMutex.readLock." + acquire.name(), () -> {
                Held<RWMutex> h = writeLocked();
                h.helper = Probe.whenOperationParks("unlocker", h.lock.writeLock()::unlock);
                return h;
            }, h -> {
                acquire.action().run(h.lock.readLock());
                h.lock.readLock().unlock();
            }, PrimitiveScenarios::rwReleasedByHelper));
            l.add(Scenario.of("RWMutex.writeLock." + acquire.name(), () -> {
                Held<RWMutex> h = readLocked();
                h.helper = Probe.whenOperationParks("unlocker", h.lock.readLock()::unlock);
                return h;
            }, h -> {
                acquire.action().run(h.lock.writeLock());
                h.lock.writeLock().unlock();
            }, PrimitiveScenarios::rwReleasedByHelper));
        }
        l.add(Scenario.of("RWMutex.readLock.tryLock(timeout)", PrimitiveScenarios::writeLocked, h -> {
            h.result = h.lock.readLock().tryLock(SHORT_MILLIS, TimeUnit.MILLISECONDS);
        }, (h, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(!h.result, "a reader got in past the writer");
            check(h.lock.readers() == 0, "a reader is left counted: " + h.lock);
            h.lock.writeLock().unlock();
            rwWorks(h.lock);
        }));
        l.add(Scenario.of("RWMutex.writeLock.tryLock(timeout)", PrimitiveScenarios::readLocked, h -> {
            h.result = h.lock.writeLock().tryLock(SHORT_MILLIS, TimeUnit.MILLISECONDS);
        }, (h, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(!h.result, "a writer got in past a reader");
            check(h.lock.readLock().tryLock(), "a new reader is held back by a writer that gave up: " + h.lock);
            h.lock.readLock().unlock();
            check(h.lock.readers() == 1, "readers after the call: " + h.lock);
            h.lock.readLock().unlock();
            rwWorks(h.lock);
        }));
        l.add(Scenario.of("RWMutex.writeLock.unlock", () -> {
            Held<RWMutex> h = writeLocked();
            h.waiter = Probe.start("reader", () -> {
                h.lock.readLock().lock();
                h.lock.readLock().unlock();
            });
            until("the reader waits", () -> h.waiter.thread().getState() == Thread.State.WAITING);
            return h;
        }, h -> h.lock.writeLock().unlock(), (h, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (thrown != null && !h.lock.writeLock().toString().endsWith("[unlocked]")) {
                h.lock.writeLock().unlock();
            }
            h.waiter.join();
            rwWorks(h.lock);
        }));
    }

    private static void spinLock(List<Scenario<?>> l) {
        for (Named<Lock> acquire : LOCK_WAITS) {
            l.add(Scenario.of("SpinLock." + acquire.name(), () -> new Held<>(new SpinLock()), h -> {
                acquire.action().run(h.lock);
                h.lock.unlock();
            }, (h, thrown) -> {
                noneOrOutOfMemory(thrown);
                lockWorks(h.lock);
            }));
        }
        l.add(Scenario.of("SpinLock.tryLock(timeout)", () -> {
            Held<SpinLock> h = new Held<>(new SpinLock());
            h.lock.lock();
            return h;
        }, h -> h.result = h.lock.tryLock(SHORT_MILLIS, TimeUnit.MILLISECONDS), (h, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(!h.result && h.lock.isLocked(), "tryLock took a held lock: " + h.lock);
            h.lock.unlock();
            lockWorks(h.lock);
        }));
    }

    // ------------------------------------------------------------------------------------------ Cond

    /** A condition over a {@link Mutex}, and threads around it. */
    static final class CondState {
        final Mutex lock = new Mutex();
        final Cond cond = new Cond(lock);
        final List<Probe.Helper> waiters = new ArrayList<>();
        final AtomicInteger woken = new AtomicInteger();
        Probe.Helper helper;
        volatile boolean result;

        /** Starts a thread that waits on the condition (bounded) and counts itself woken if signalled. */
        void addWaiter() {
            CountDownLatch locked = new CountDownLatch(1);
            waiters.add(Probe.start("waiter", () -> {
                lock.lock();
                try {
                    locked.countDown();
                    if (cond.await(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        woken.incrementAndGet();
                    }
                } finally {
                    lock.unlock();
                }
            }));
            until("a waiter waits on the condition", () -> locked.getCount() == 0 && !lock.isLocked());
        }
    }

    /** The lock is free and the condition wakes a new waiter. */
    private static void condWorks(CondState c) throws Exception {
        lockWorks(c.lock);
        c.waiters.clear();
        c.woken.set(0);
        c.addWaiter();
        c.lock.lock();
        c.cond.signal();
        c.lock.unlock();
        c.waiters.get(0).join();
        check(c.woken.get() == 1, "a waiter was not woken by signal: " + c.cond);
    }

    /** {@code wait} on the condition with the lock held, until a helper signals it once the operation parks. */
    private static void signalledWait(List<Scenario<?>> l, String name, Scenario.Operation<CondState> wait) {
        l.add(Scenario.of(name, () -> {
            CondState c = new CondState();
            c.helper = Probe.whenOperationParks("signaller", () -> {
                c.lock.lock();
                c.cond.signal();
                c.lock.unlock();
            });
            return c;
        }, c -> {
            c.lock.lock();
            try {
                wait.run(c);
            } finally {
                c.lock.unlock();
            }
        }, (c, thrown) -> {
            noneOrOutOfMemory(thrown);
            c.helper.join();
            condWorks(c);
        }));
    }

    private static void cond(List<Scenario<?>> l) {
        l.add(Scenario.of("Cond.await(timeout)", CondState::new, c -> {
            c.lock.lock();
            try {
                c.result = c.cond.await(SHORT_MILLIS, TimeUnit.MILLISECONDS);
            } finally {
                c.lock.unlock();
            }
        }, (c, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(!c.result, "await returned true unsignalled");
            condWorks(c);
        }));
        signalledWait(l, "Cond.await", c -> c.cond.await());
        signalledWait(l, "Cond.awaitUninterruptibly", c -> c.cond.awaitUninterruptibly());
        l.add(Scenario.of("Cond.signal", () -> {
            CondState c = new CondState();
            c.addWaiter();
            return c;
        }, c -> c.cond.signal(), (c, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (thrown != null) {
                c.cond.signal();
            }
            c.waiters.get(0).join();
            check(c.woken.get() == 1, "the waiter was not woken");
            condWorks(c);
        }));
        l.add(Scenario.of("Cond.broadcast", () -> {
            CondState c = new CondState();
            c.addWaiter();
            c.addWaiter();
            return c;
        }, c -> c.cond.broadcast(), (c, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (thrown != null) {
                c.cond.broadcast();
            }
            for (Probe.Helper w : c.waiters) {
                w.join();
            }
            check(c.woken.get() == 2, c.woken.get() + " of 2 waiters woken");
            condWorks(c);
        }));
    }

    // ------------------------------------------------------------------------------------------ WaitGroup

    /** A group, a latch its tasks count down, and threads around it. */
    static final class GroupState {
        final WaitGroup group = new WaitGroup();
        final AtomicInteger ran = new AtomicInteger();
        final Runnable task = ran::incrementAndGet;
        Probe.Helper helper;
        volatile boolean result;
    }

    private static final Executor PLATFORM_THREAD_PER_TASK = r -> Thread.ofPlatform().daemon(true).start(r);

    /** The counter is {@code count}, nobody waits, and the group still counts, waits and releases. */
    private static void groupWorks(WaitGroup wg) throws Exception {
        check(wg.toString().endsWith("[count=0, waiters=0]"), "at the end: " + wg);
        wg.add(1);
        Probe.Helper waiter = Probe.start("waiter", () ->
                check(wg.await(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "await did not return after done"));
        wg.done();
        waiter.join();
        check(wg.await(0, TimeUnit.SECONDS), "await with the count at zero did not return true: " + wg);
    }

    private static void goChecked(GroupState g, Throwable thrown) throws Exception {
        noneOrOutOfMemory(thrown);
        Probe.Helper waiter = Probe.start("waiter", () -> g.result = g.group.await(Probe.TIMEOUT.toMillis(),
                TimeUnit.MILLISECONDS));
        waiter.join();
        check(g.result, "await() does not return: " + g.group + (thrown == null ? "" : " after go threw " + thrown));
        check(g.ran.get() == (thrown == null ? 1 : 0) || thrown != null && g.ran.get() == 1,
                "the task ran " + g.ran.get() + " times");
        groupWorks(g.group);
    }

    private static void waitGroup(List<Scenario<?>> l) {
        l.add(Scenario.of("WaitGroup.add", GroupState::new, g -> g.group.add(1), (g, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(g.group.count() == (thrown == null ? 1 : g.group.count()), "count " + g.group.count());
            if (g.group.count() == 1) {
                g.group.done();
            }
            groupWorks(g.group);
        }));
        l.add(Scenario.of("WaitGroup.done", () -> {
            GroupState g = new GroupState();
            g.group.add(1);
            g.helper = Probe.start("waiter", () -> g.result = g.group.await(Probe.TIMEOUT.toMillis(),
                    TimeUnit.MILLISECONDS));
            until("the waiter waits", () -> g.group.toString().endsWith("waiters=1]"));
            return g;
        }, g -> g.group.done(), (g, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (thrown != null && g.group.count() == 1) {
                g.group.done();
            }
            g.helper.join();
            check(g.result, "the waiter was not released: " + g.group);
            groupWorks(g.group);
        }));
        for (Named<WaitGroup> await : List.of(new Named<WaitGroup>("await", WaitGroup::await),
                new Named<WaitGroup>("awaitUninterruptibly", WaitGroup::awaitUninterruptibly))) {
            l.add(Scenario.of("WaitGroup." + await.name(), () -> {
                GroupState g = new GroupState();
                g.group.add(1);
                g.helper = Probe.onlyIfOperationParks("done", g.group::done);
                return g;
            }, g -> await.action().run(g.group), (g, thrown) -> {
                noneOrOutOfMemory(thrown);
                g.helper.join();
                if (!g.helper.acted()) { // it threw before it waited: the round's end has not hidden a leftover
                    check(g.group.toString().endsWith("[count=1, waiters=0]"), "after the call: " + g.group);
                    g.group.done();
                }
                groupWorks(g.group);
            }));
        }
        l.add(Scenario.of("WaitGroup.await(timeout)", () -> {
            GroupState g = new GroupState();
            g.group.add(1);
            return g;
        }, g -> g.result = g.group.await(SHORT_MILLIS, TimeUnit.MILLISECONDS), (g, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(!g.result, "await returned true with the count at 1");
            check(g.group.toString().endsWith("[count=1, waiters=0]"), "after the call: " + g.group);
            g.group.done();
            groupWorks(g.group);
        }));
        l.add(Scenario.of("WaitGroup.go", GroupState::new, g -> g.group.go(g.task), PrimitiveScenarios::goChecked));
        l.add(Scenario.of("WaitGroup.go(executor)", GroupState::new, g -> g.group.go(PLATFORM_THREAD_PER_TASK, g.task),
                PrimitiveScenarios::goChecked));
    }

    // ------------------------------------------------------------------------------------------ Once

    /** A {@code Once} or a once-function, and how often its action ran. */
    static final class OnceState {
        final Once once = new Once();
        final AtomicInteger ran = new AtomicInteger();
        final Runnable action = ran::incrementAndGet;
        final Object value = new Object();
        final Supplier<Object> supplier = () -> {
            ran.incrementAndGet();
            return value;
        };
        volatile Runnable func;
        volatile Supplier<Object> lazy;
    }

    private static void once(List<Scenario<?>> l) {
        l.add(Scenario.of("Once.run", OnceState::new, o -> o.once.run(o.action), (o, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(o.once.isDone() == (o.ran.get() == 1), "done " + o.once.isDone() + " but the action ran " + o.ran.get() + " times");
            o.once.run(o.action);
            o.once.run(o.action);
            check(o.ran.get() == 1 && o.once.isDone(), "the action ran " + o.ran.get() + " times: " + o.once);
        }));
        l.add(Scenario.of("Once.func", OnceState::new, o -> {
            o.func = Once.func(o.action);
            o.func.run();
        }, (o, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (o.func == null) {
                o.func = Once.func(o.action);
            }
            o.func.run(); // must not throw: the action never failed
            o.func.run();
            check(o.ran.get() == 1, "the action ran " + o.ran.get() + " times");
        }));
        l.add(Scenario.of("Once.value", OnceState::new, o -> {
            o.lazy = Once.value(o.supplier);
            o.lazy.get();
        }, (o, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (o.lazy == null) {
                o.lazy = Once.value(o.supplier);
            }
            check(o.lazy.get() == o.value && o.lazy.get() == o.value, "the value is not the supplier's");
            check(o.ran.get() == 1, "the supplier ran " + o.ran.get() + " times");
        }));
    }

    // ------------------------------------------------------------------------------------------ WeightedSemaphore

    /** A semaphore of 2 permits. */
    static final class SemState {
        final WeightedSemaphore sem = new WeightedSemaphore(2);
        Probe.Helper helper;
        volatile boolean result;
    }

    private static SemState exhausted() throws InterruptedException {
        SemState s = new SemState();
        s.sem.acquire(2);
        return s;
    }

    /** All permits are free, nobody waits, and the permits can be taken and given back by another thread. */
    private static void semWorks(WeightedSemaphore sem) throws Exception {
        check(sem.toString().endsWith("[size=2, available=2, waiting=0]"), "at the end: " + sem);
        Probe.Helper other = Probe.start("other", () -> {
            check(sem.tryAcquire(2, Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "cannot acquire: " + sem);
            sem.release(2);
        });
        other.join();
        check(sem.available() == 2, "available at the end: " + sem);
    }

    private static void semaphore(List<Scenario<?>> l) {
        l.add(Scenario.of("WeightedSemaphore.acquire", () -> {
            SemState s = exhausted();
            s.helper = Probe.whenOperationParks("releaser", () -> s.sem.release(2));
            return s;
        }, s -> {
            s.sem.acquire(1);
            s.sem.release(1);
        }, (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            s.helper.join();
            semWorks(s.sem);
        }));
        l.add(Scenario.of("WeightedSemaphore.tryAcquire", SemState::new, s -> s.result = s.sem.tryAcquire(1),
                (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    check(s.sem.available() == (s.result ? 1 : 2), "available " + s.sem.available() + " after tryAcquire " + s.result);
                    if (s.result) {
                        s.sem.release(1);
                    }
                    semWorks(s.sem);
                }));
        l.add(Scenario.of("WeightedSemaphore.tryAcquire(timeout)", PrimitiveScenarios::exhausted,
                s -> s.result = s.sem.tryAcquire(1, SHORT_MILLIS, TimeUnit.MILLISECONDS), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    check(!s.result, "acquired permits that were held");
                    check(s.sem.toString().endsWith("[size=2, available=0, waiting=0]"), "after the call: " + s.sem);
                    s.sem.release(2);
                    semWorks(s.sem);
                }));
        l.add(Scenario.of("WeightedSemaphore.release", () -> {
            SemState s = exhausted();
            s.helper = Probe.start("waiter", () -> {
                s.sem.acquire(1);
                s.sem.release(1);
            });
            until("the waiter waits", () -> s.sem.toString().endsWith("waiting=1]"));
            return s;
        }, s -> s.sem.release(2), (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (thrown != null && s.sem.available() == 0 && s.sem.toString().endsWith("waiting=1]")) {
                s.sem.release(2);
            }
            s.helper.join();
            semWorks(s.sem);
        }));
    }

    // ------------------------------------------------------------------------------------------ TaskGroup

    /** A group, the futures of its tasks, and a task that runs until interrupted (or the timeout). */
    static final class TaskState {
        final TaskGroup<Object> group;
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch never = new CountDownLatch(1);
        final AtomicReference<Thread> runningThread = new AtomicReference<>();
        /** Whether the running task's wait ended by an interrupt (its cancellation). */
        volatile boolean interrupted;
        final Object result = new Object();
        volatile Future<Object> running;
        volatile Future<Object> future;
        volatile Optional<Future<Object>> tried;
        volatile List<Object> results;
        /** A thread blocked in {@code go}; see {@link #withBlockedSubmitter}. */
        Probe.Helper submitter;
        /** What the blocked submitter's {@code go} threw once let in: it may run on the exhausted heap. */
        volatile OutOfMemoryError submitterFailed;
        /** Tasks after the first run in the caller's thread (the failing task); see {@link #inlineAfterFirst}. */
        final AtomicInteger executed = new AtomicInteger();

        TaskState(int limit, boolean platform, boolean inlineAfterFirst) {
            Executor e = !platform ? null : r -> {
                if (inlineAfterFirst && executed.getAndIncrement() > 0) {
                    r.run();
                } else {
                    Thread.ofPlatform().daemon(true).start(r);
                }
            };
            group = e == null ? TaskGroup.create(limit) : TaskGroup.create(limit, e);
        }

        /** Starts the task that runs until the group cancels it. */
        TaskState withRunningTask() {
            running = group.go(() -> {
                runningThread.set(Thread.currentThread());
                started.countDown();
                awaitNeverOrInterrupt();
                return result;
            });
            until("the long task runs", () -> started.getCount() == 0);
            return this;
        }

        /**
         * Waits until {@link #never} opens ({@link #openNever}) or the thread is interrupted, then throws
         * {@link InterruptedException}, for at most {@link Probe#TIMEOUT}. It notes the interrupt in
         * {@link #interrupted} before anything allocates: an interrupt may wake it while the heap is still
         * exhausted, where a latch's own {@code new InterruptedException()} would fail and the interrupt would be
         * lost with it. One park for the whole wait, as the latch's, since a virtual thread unparked on an exhausted
         * heap may never run again (docs/testing.md).
         */
        private void awaitNeverOrInterrupt() throws InterruptedException {
            long deadline = System.nanoTime() + Probe.TIMEOUT.toNanos();
            for (long rem; never.getCount() > 0 && (rem = deadline - System.nanoTime()) > 0L;) {
                if (Thread.currentThread().isInterrupted()) {
                    interrupted = true;
                    throw new InterruptedException();
                }
                java.util.concurrent.locks.LockSupport.parkNanos(rem);
            }
        }

        /** Lets the running task end: opens {@link #never} and unparks the task's thread. */
        void openNever() {
            never.countDown();
            java.util.concurrent.locks.LockSupport.unpark(runningThread.get());
        }

        /**
         * Starts a thread whose {@code go} blocks (the limit is zero) and keeps its Future in {@link #future}, or
         * the {@link OutOfMemoryError} its {@code go} threw in {@link #submitterFailed}.
         */
        TaskState withBlockedSubmitter() {
            Callable<Object> task = this::quick;
            submitter = Probe.start("submitter", () -> {
                try {
                    future = group.go(task);
                } catch (OutOfMemoryError e) {
                    submitterFailed = e;
                }
            });
            until("the submitter waits", () -> submitter.thread().getState() == Thread.State.WAITING);
            return this;
        }

        /** A task that returns at once. */
        Object quick() {
            return result;
        }
    }

    /** Runs {@code group.close()} on a helper thread: it must return (bounded). */
    private static void closes(TaskGroup<?> group) throws Exception {
        Probe.start("closer", group::close).join();
    }

    /** The group is not cancelled, takes a new task and returns its result from await; then closes. */
    private static void groupWorks(TaskState t) throws Exception {
        check(!t.group.isCancelled(), "the group is cancelled: " + t.group);
        Future<Object> f = t.group.go(t::quick);
        AtomicReference<List<Object>> results = new AtomicReference<>();
        Probe.start("awaiter", () -> results.set(t.group.await())).join();
        check(f.isDone() && results.get().contains(t.result), "await returned " + results.get());
        closes(t.group);
    }

    /** The group is cancelled, its running task was interrupted, and close returns. */
    private static void cancelled(TaskState t, Throwable thrown) throws Exception {
        noneOrOutOfMemory(thrown);
        check(t.group.isCancelled() || thrown != null, "the group is not cancelled: " + t.group);
        if (!t.group.isCancelled()) {
            t.group.cancel(); // the operation failed before it cancelled anything: the group must be as before
        }
        until(() -> "the running task is cancelled and ends (" + t.group + ")", () -> t.running.isDone()
                && (t.runningThread.get() == null || !t.runningThread.get().isAlive()));
        check(t.running.isCancelled(), "the running task was not cancelled");
        closes(t.group);
    }

    /**
     * After {@code setLimit(1)} let a blocked submitter in: its task ran, or its {@code go} ran out of memory and
     * left no slot taken; either way the group works.
     */
    private static void submitterLetIn(TaskState t, Throwable thrown) throws Exception {
        noneOrOutOfMemory(thrown);
        if (thrown != null && t.submitter.thread().isAlive()) {
            t.group.setLimit(-1); // a negative limit may be set while a task is active
        }
        t.submitter.join();
        if (t.submitterFailed != null) {
            check(t.future == null, "go threw and returned a Future");
        } else {
            until(() -> "the submitter's task is done (" + t.group + ")", () -> t.future.isDone());
            check(t.future.get() == t.result, "the submitter's task: " + t.future);
        }
        // a done Future holds no slot; a go that threw took none (else the next go would wait for good)
        until(() -> "no slot is taken" + (t.submitterFailed == null ? "" : " after go threw "
                + t.submitterFailed) + ": " + t.group, () -> t.group.toString().endsWith("running=0, cancelled=false]"));
        groupWorks(t);
    }

    private static void taskGroup(List<Scenario<?>> l) {
        for (boolean platform : new boolean[] {false, true}) {
            String on = platform ? " (platform executor)" : "";
            l.add(Scenario.of("TaskGroup.go" + on, () -> new TaskState(2, platform, false),
                    t -> t.future = t.group.go(t::quick), (t, thrown) -> {
                        noneOrOutOfMemory(thrown);
                        groupWorks(t);
                        if (t.future != null) {
                            check(t.future.isDone() && t.future.get() == t.result, "the task's future: " + t.future);
                        }
                    }));
            l.add(Scenario.of("TaskGroup.tryGo" + on, () -> new TaskState(2, platform, false),
                    t -> t.tried = t.group.tryGo(t::quick), (t, thrown) -> {
                        noneOrOutOfMemory(thrown);
                        check(thrown != null || t.tried.isPresent(), "tryGo refused with a free slot");
                        groupWorks(t);
                    }));
            l.add(Scenario.of("TaskGroup.await" + on, () -> {
                TaskState t = new TaskState(2, platform, false);
                t.future = t.group.go(t::quick);
                until("the task is done", t.future::isDone);
                return t;
            }, t -> t.results = t.group.await(), (t, thrown) -> {
                noneOrOutOfMemory(thrown);
                if (thrown != null) {
                    AtomicReference<List<Object>> again = new AtomicReference<>();
                    Probe.start("awaiter", () -> again.set(t.group.await())).join();
                    t.results = again.get();
                }
                check(t.results.equals(List.of(t.result)), "await returned " + t.results);
                groupWorks(t);
            }));
            // held: the submitter let in goes on (registers its task, starts it) while the heap is still exhausted
            l.add(Scenario.held("TaskGroup.setLimit" + on, () -> new TaskState(0, platform, false)
                    .withBlockedSubmitter(), t -> t.group.setLimit(1), t -> !t.submitter.thread().isAlive(),
                    PrimitiveScenarios::submitterLetIn));
            l.add(Scenario.of("TaskGroup.cancel" + on, () -> new TaskState(-1, platform, false).withRunningTask(),
                    t -> t.group.cancel(), PrimitiveScenarios::cancelled));
            // a running task's Future cancelled: the slot comes back, await reports null in its place, and the
            // group (limit 1: a slot not given back would refuse the next task) goes on
            l.add(Scenario.of("TaskGroup Future.cancel(true)" + on,
                    () -> new TaskState(1, platform, false).withRunningTask(), t -> t.running.cancel(true),
                    (t, thrown) -> {
                        noneOrOutOfMemory(thrown);
                        if (!t.running.isDone()) {
                            t.running.cancel(true); // the cancel failed before it changed anything: again
                        }
                        check(t.running.isCancelled(), "the running task's Future is not cancelled");
                        until(() -> "the cancelled task ends and its slot comes back: " + t.group,
                                () -> !t.runningThread.get().isAlive()
                                        && t.group.toString().endsWith("running=0, cancelled=false]"));
                        check(t.interrupted, "the cancelled task was not interrupted: it waited out its bound");
                        AtomicReference<List<Object>> results = new AtomicReference<>();
                        Probe.start("awaiter", () -> results.set(t.group.await())).join();
                        check(java.util.Collections.singletonList(null).equals(results.get()),
                                "await returned " + results.get() + " for the cancelled task");
                        groupWorks(t);
                    }));
            l.add(Scenario.of("TaskGroup.close" + on, () -> new TaskState(-1, platform, false).withRunningTask(),
                    t -> t.group.close(), PrimitiveScenarios::cancelled));
        }
        l.add(Scenario.of("TaskGroup failing task", () -> new TaskState(-1, true, true).withRunningTask(), t -> {
            t.future = t.group.go(() -> {
                throw TASK_FAILURE;
            });
        }, (t, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (t.future == null) { // go itself failed: the group must be as before
                check(!t.group.isCancelled(), "go failed, yet the group is cancelled");
                t.openNever();
                until("the running task ends", t.running::isDone);
                groupWorks(t);
                return;
            }
            cancelled(t, null);
            check(t.future.isDone(), "the failing task's future is not done");
            try {
                t.future.get();
                throw new AssertionError("the failing task's future has a result");
            } catch (ExecutionException e) {
                check(e.getCause() == TASK_FAILURE, "the failing task's future reports " + e.getCause()
                        + " instead of its own exception");
            } catch (CancellationException e) {
                throw new AssertionError("the failing task's future is cancelled");
            }
            AtomicReference<Throwable> awaited = new AtomicReference<>();
            Probe.start("awaiter", () -> {
                try {
                    t.group.await();
                } catch (ExecutionException | CancellationException e) {
                    awaited.set(e);
                }
            }).join();
            check(awaited.get() instanceof ExecutionException ee && ee.getCause() == TASK_FAILURE,
                    "await reports " + awaited.get() + " instead of the task's failure");
        }));
    }
}
