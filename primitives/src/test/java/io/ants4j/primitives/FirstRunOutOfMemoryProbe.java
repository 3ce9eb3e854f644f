package io.ants4j.primitives;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Run in a JVM of its own with a small heap ({@link FirstRunOutOfMemoryTest}): the first call in the JVM of a
 * path that changes a primitive's state and then runs code that has never run before, made on a full heap. The
 * first run of a {@code VarHandle} call site links it, which allocates; the primitive must link those paths
 * itself, before it has any state. Prints {@code OK} if the call completed its work or failed before changing
 * anything.
 * <ul>
 *   <li>{@code mutex-unlock}, {@code read-unlock}, {@code semaphore-release}, {@code waitgroup-done}: the first
 *       grant to a parked waiter in the JVM ({@link Mutex#unlock}, the last reader's {@link RWMutex} read unlock
 *       before a waiting writer, {@link WeightedSemaphore#release}, the {@link WaitGroup#done} that ends a round)
 *       is made on a full heap; the waiter must get what it waits for.</li>
 *   <li>{@code once-run}, {@code once-func}: the first action of a {@link Once} (a {@link Once#func}) in the
 *       JVM fills the heap before it returns; it must be done: a second call neither runs it again nor hangs.</li>
 *   <li>{@code task-run}: the first task of a {@link TaskGroup} in the JVM starts on a full heap (its executor
 *       fills the heap before it runs the task); the group must not stay counting it: {@code await} returns.</li>
 *   <li>{@code write-lock}: the first {@link RWMutex} lock in the JVM is a write lock, on a full heap (a
 *       {@link Mutex} has been used before); it must take the lock or leave it free.</li>
 * </ul>
 * No warm-up: nothing runs before the call under test but what the waiter itself runs.
 */
final class FirstRunOutOfMemoryProbe {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private FirstRunOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "mutex-unlock" -> mutexUnlock();
            case "read-unlock" -> readUnlock();
            case "semaphore-release" -> semaphoreRelease();
            case "waitgroup-done" -> waitGroupDone();
            case "once-run" -> onceRun();
            case "once-func" -> onceFunc();
            case "task-run" -> taskRun();
            case "write-lock" -> writeLock();
            default -> "unknown probe " + args[0];
        };
        System.out.println(result);
        System.exit(0);
    }

    private static String mutexUnlock() throws Exception {
        Mutex lock = new Mutex();
        Thread waiter = waiterOnHeldMutex(lock);
        if (waiter == null) {
            return "the waiter never parked: " + lock;
        }
        Throwable thrown = withFullHeap(lock::unlock);
        boolean woken = waiter.join(WAIT);
        return woken ? "OK" : "FAILED: unlock() on a full heap, the first grant in this JVM, threw " + where(thrown)
                + "; the waiter got the lock: " + woken + ", " + lock;
    }

    private static String readUnlock() throws Exception {
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        Thread writer = parkedWaiter(() -> {
            rw.writeLock().lock();
            rw.writeLock().unlock();
        });
        if (writer == null) {
            return "the writer never parked: " + rw;
        }
        Throwable thrown = withFullHeap(rw.readLock()::unlock);
        boolean woken = writer.join(WAIT);
        return woken ? "OK" : "FAILED: the last read unlock on a full heap, the first grant in this JVM, threw "
                + where(thrown) + "; the waiting writer got the lock: " + woken + ", " + rw;
    }

    private static String semaphoreRelease() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        sem.acquire(1);
        Thread waiter = parkedWaiter(() -> {
            try {
                sem.acquire(1);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            sem.release(1);
        });
        if (waiter == null) {
            return "the waiter never parked: " + sem;
        }
        Throwable thrown = withFullHeap(() -> sem.release(1));
        boolean woken = waiter.join(WAIT);
        return woken ? "OK" : "FAILED: release(1) on a full heap, the first grant in this JVM, threw " + where(thrown)
                + "; the waiter got its permit: " + woken + ", " + sem;
    }

    private static String waitGroupDone() throws Exception {
        WaitGroup wg = new WaitGroup();
        Thread waiter = waiterOnOpenRound(wg);
        if (waiter == null) {
            return "the waiter never parked: " + wg;
        }
        Throwable thrown = withFullHeap(wg::done);
        boolean woken = waiter.join(WAIT);
        return woken ? "OK" : "FAILED: the done() that ends the first round with a waiter in this JVM, on a full"
                + " heap, threw " + where(thrown) + "; the waiter returned: " + woken + ", " + wg;
    }

    private static String onceRun() throws Exception {
        Once once = new Once();
        AtomicInteger runs = new AtomicInteger();
        Runnable action = () -> {
            runs.incrementAndGet();
            OutOfMemoryProbe.fillHeap(); // the action leaves the heap full behind it
        };
        once.isDone(); // its fast path has run: an ordinary caller has asked before
        Throwable thrown = call(() -> once.run(action));
        Throwable again = call(() -> once.run(action));
        return runs.get() == 1 && again == null ? "OK"
                : "FAILED: the first Once.run in this JVM, whose action filled the heap, threw " + where(thrown)
                + "; a second run threw " + where(again) + ", the action ran " + runs.get() + " time(s)";
    }

    private static String onceFunc() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Runnable f = Once.func(() -> {
            runs.incrementAndGet();
            OutOfMemoryProbe.fillHeap(); // the function leaves the heap full behind it
        });
        Throwable thrown = call(f);
        Throwable again = call(f);
        return runs.get() == 1 && again == null ? "OK"
                : "FAILED: the first Once.func call in this JVM, whose function filled the heap, threw "
                + where(thrown) + "; a second call from another thread threw " + where(again)
                + ", the function ran " + runs.get() + " time(s)";
    }

    private static String taskRun() throws Exception {
        Throwable[] thrownByRun = new Throwable[1];
        Thread[] runner = new Thread[1];
        TaskGroup<Object> group = TaskGroup.create(-1, task -> runner[0] = Thread.ofPlatform().daemon(true).start(() -> {
            OutOfMemoryProbe.fillHeap();
            try {
                task.run();
            } catch (Throwable t) {
                OutOfMemoryProbe.releaseHeap();
                thrownByRun[0] = t;
            }
            OutOfMemoryProbe.releaseHeap();
        }));
        group.go(() -> "done");
        if (!runner[0].join(WAIT)) { // the heap is free again before await allocates
            return "the task's thread did not end: " + group;
        }
        Object[] results = new Object[1];
        Throwable thrown = call(() -> {
            try {
                results[0] = group.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                results[0] = e; // the task failed: the group is consistent all the same
            }
        });
        return thrown == null ? "OK"
                : "FAILED: the first task of a TaskGroup in this JVM, run on a full heap, threw " + where(thrownByRun[0])
                + "; await() threw " + where(thrown) + ", " + group;
    }

    private static String writeLock() throws Exception {
        Mutex used = new Mutex(); // the inner Mutex's class is in use: the write lock gets past it
        used.lock();
        used.unlock();
        RWMutex rw = new RWMutex();
        Throwable thrown = withFullHeap(rw.writeLock()::lock);
        if (thrown == null) {
            rw.writeLock().unlock();
        }
        Throwable[] again = new Throwable[1];
        boolean[] locked = new boolean[1];
        Throwable failed = call(() -> {
            try {
                locked[0] = rw.writeLock().tryLock(2, TimeUnit.SECONDS);
            } catch (Throwable t) {
                again[0] = t;
            }
        });
        return locked[0] ? "OK" : "FAILED: the first RWMutex lock in this JVM, a write lock on a full heap, threw "
                + where(thrown) + "; a later write lock got it: " + locked[0] + " (" + where(again[0]) + ", "
                + where(failed) + "), " + rw;
    }

    /**
     * Locks {@code lock} and parks a waiter on it (see {@link #parkedWaiter}) that, once granted the lock, unlocks
     * it; returns the waiter, or null if it did not park.
     */
    static Thread waiterOnHeldMutex(Mutex lock) {
        lock.lock();
        return parkedWaiter(() -> {
            lock.lock();
            lock.unlock();
        });
    }

    /**
     * Counts one task in {@code wg} and parks a waiter in its {@code await} (see {@link #parkedWaiter}); returns
     * the waiter, or null if it did not park.
     */
    static Thread waiterOnOpenRound(WaitGroup wg) {
        wg.add(1);
        return parkedWaiter(() -> {
            try {
                wg.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Starts {@code waiting} on a platform thread and waits until it parks on a primitive's waiter node;
     * returns the thread, or null if it did not park within {@link #WAIT}.
     */
    private static Thread parkedWaiter(Runnable waiting) {
        Thread t = Thread.ofPlatform().daemon(true).start(waiting);
        return until(() -> t.getState() == Thread.State.WAITING
                && LockSupport.getBlocker(t) instanceof WaitQueue.Waiter) ? t : null;
    }

    private static boolean until(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0L) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    /** Runs {@code call} on a new thread once that thread has filled the heap; returns what it threw, or null. */
    private static Throwable withFullHeap(Runnable call) throws InterruptedException {
        return call(() -> {
            OutOfMemoryProbe.fillHeap();
            call.run();
        });
    }

    /**
     * Runs {@code call} on a new thread, then lets go of any heap it filled; returns what it threw, null if
     * nothing, or an {@code IllegalStateException} if it did not end within {@link #WAIT}.
     */
    private static Throwable call(Runnable call) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread t = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                call.run();
            } catch (Throwable e) {
                OutOfMemoryProbe.releaseHeap();
                thrown[0] = e;
            }
        });
        boolean ended = t.join(WAIT);
        OutOfMemoryProbe.releaseHeap();
        return ended ? thrown[0] : new IllegalStateException("the call did not end within " + WAIT);
    }

    /** {@code t} and the frames of ants4j code it passed through, or "nothing". */
    static String where(Throwable t) {
        if (t == null) {
            return "nothing";
        }
        StringBuilder b = new StringBuilder(t.toString());
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith("io.ants4j.")) {
                b.append(" at ").append(e);
            }
        }
        return b.toString();
    }
}
