package io.ants4j.primitives;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * Run in a JVM of its own with a small heap ({@link LockTests#runOutOfMemoryProbe}): a thread
 * fills the heap, then makes a call that must allocate (waits for a held lock, and fails to
 * allocate its node). Prints {@code OK} if the OutOfMemoryError came out of that call and left
 * the primitive consistent.
 * <ul>
 *   <li>{@code mutex}: a held {@link Mutex} with a waiter parked; the failing thread spins first,
 *       taking WOKEN. The waiter must still get the lock when the holder unlocks (a WOKEN left
 *       behind would make unlock() wake nobody).
 *   <li>{@code reader}: an {@link RWMutex} write-locked; the failing reader has counted itself
 *       in. No reader may be left counted.
 *   <li>{@code writer}: an {@link RWMutex} read-locked; the failing writer has announced itself.
 *       It must leave the writers' lock and the reader count as they were.
 *   <li>{@code waitgroup}: {@link WaitGroup#go(java.util.concurrent.Executor, Runnable)} fails to
 *       allocate what it hands the executor. The count must be as it was: a later await returns.
 *   <li>{@code waitgroup-await}, {@code waitgroup-await-timed}: {@link WaitGroup#await()} and
 *       {@link WaitGroup#await(long, TimeUnit)} of a group counting one task fail to allocate the
 *       waiter's node. The group must not count a waiter that has no node: {@code waiters=0}.
 * </ul>
 */
final class OutOfMemoryProbe {
    private static volatile Object[] hog;
    private static volatile Throwable thrown;

    private OutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "mutex" -> mutex();
            case "reader" -> reader();
            case "writer" -> writer();
            case "waitgroup" -> waitGroup();
            case "waitgroup-await" -> waitGroupAwait(false);
            case "waitgroup-await-timed" -> waitGroupAwait(true);
            default -> "unknown probe " + args[0];
        };
        System.out.println(result);
        System.exit(0);
    }

    private static String mutex() throws Exception {
        Mutex other = new Mutex();
        warmUp(other, other);
        Mutex lock = new Mutex();
        lock.lock();
        Thread waiter = Thread.ofPlatform().start(() -> {
            lock.lock();
            lock.unlock();
        });
        while (!lock.toString().endsWith("waiters=1]")) {
            Thread.onSpinWait();
        }
        String failed = failToAllocateIn(lock::lock);
        if (failed != null) {
            return failed;
        }
        String state = lock.toString();
        lock.unlock();
        boolean woken = waiter.join(Duration.ofSeconds(20));
        boolean free = lock.tryLock(1, TimeUnit.SECONDS);
        return state.endsWith("[locked, waiters=1]") && woken && free ? "OK"
                : "FAILED: state after the error " + state + ", waiter woken " + woken + ", lock free at the end " + free;
    }

    private static String reader() {
        RWMutex other = new RWMutex();
        warmUp(other.writeLock(), other.readLock());
        RWMutex rw = new RWMutex();
        rw.writeLock().lock();
        String failed = failToAllocateIn(rw.readLock()::lock);
        if (failed != null) {
            return failed;
        }
        int readers = rw.readers();
        rw.writeLock().unlock();
        boolean writable = rw.writeLock().tryLock();
        return readers == 0 && writable ? "OK" : "FAILED: readers after the error " + readers + ", " + rw;
    }

    private static String writer() {
        RWMutex other = new RWMutex();
        warmUp(other.readLock(), other.writeLock());
        RWMutex rw = new RWMutex();
        rw.readLock().lock();
        String failed = failToAllocateIn(rw.writeLock()::lock);
        if (failed != null) {
            return failed;
        }
        boolean readable = rw.readLock().tryLock(); // no writer pending any more
        int readers = rw.readers();
        rw.readLock().unlock();
        rw.readLock().unlock();
        boolean writable = rw.writeLock().tryLock(); // the writers' lock was released
        return readable && readers == 2 && writable ? "OK"
                : "FAILED: readable " + readable + ", readers " + readers + ", writable " + writable + ", " + rw;
    }

    private static String waitGroup() throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        Executor inline = Runnable::run;
        Runnable task = () -> { };
        wg.go(inline, task); // with memory to spare first, so that the error strikes in go() itself
        String failed = failToAllocateIn(() -> wg.go(inline, task));
        if (failed != null) {
            return failed;
        }
        int count = wg.count();
        boolean awaited = wg.await(1, TimeUnit.SECONDS);
        return count == 0 && awaited ? "OK" : "FAILED: count after the error " + count + ", await returned " + awaited;
    }

    private static String waitGroupAwait(boolean timed) throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        if (wg.await(1, TimeUnit.MILLISECONDS)) { // with memory to spare first: registers, parks and leaves
            return "FAILED: the first await returned true with the count at 1";
        }
        String failed = failToAllocateIn(() -> {
            try {
                if (timed) {
                    wg.await(1, TimeUnit.HOURS);
                } else {
                    wg.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (failed != null) {
            return failed;
        }
        String state = wg.toString();
        wg.done();
        boolean awaited = wg.await(1, TimeUnit.SECONDS);
        return state.endsWith("[count=1, waiters=0]") && awaited ? "OK"
                : "FAILED: state after the error " + state + ", await after done() returned " + awaited;
    }

    /**
     * Runs the path under test once with memory to spare: {@code waiter} times out waiting while
     * {@code holder} is held. The first use of each VarHandle access mode links code and
     * allocates, so without this the error could strike there instead of at the node.
     */
    private static void warmUp(Lock holder, Lock waiter) {
        holder.lock();
        try {
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    waiter.tryLock(1, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            holder.unlock();
        }
    }

    /**
     * Runs {@code lockCall} on a new thread once that thread has filled the heap; returns
     * {@code null} if it threw OutOfMemoryError, else what went wrong.
     */
    private static String failToAllocateIn(Runnable lockCall) {
        Thread victim = Thread.ofPlatform().start(() -> {
            fillHeap();
            try {
                lockCall.run();
            } catch (OutOfMemoryError e) {
                hog = null;
                thrown = e;
            }
        });
        try {
            if (!victim.join(Duration.ofSeconds(60))) {
                return "the lock call hung";
            }
        } catch (InterruptedException e) {
            return "interrupted";
        }
        hog = null;
        return thrown instanceof OutOfMemoryError ? null : "the lock call did not throw OutOfMemoryError but " + thrown;
    }

    /** Allocates until the heap is full, keeping everything reachable through {@link #hog}. */
    static void fillHeap() {
        hog = HeapFill.fill(null);
    }

    /** Lets go of what {@link #fillHeap} keeps. */
    static void releaseHeap() {
        hog = null;
    }
}
