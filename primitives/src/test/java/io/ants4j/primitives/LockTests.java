package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;

/** Checks and threads shared by the tests of the locks. */
final class LockTests {
    private LockTests() {
    }

    /**
     * {@code threads} threads of {@code builder} each increment a plain counter {@code rounds}
     * times under {@code lock}, yielding inside the critical section now and then so that others
     * pile up behind the holder; returns the count.
     */
    static int incrementConcurrently(Lock lock, Thread.Builder builder, int threads, int rounds)
            throws InterruptedException {
        int[] counter = new int[1]; // guarded by lock, deliberately plain
        runTogether(builder, threads, id -> {
            for (int i = 0; i < rounds; i++) {
                lock.lock();
                try {
                    int v = counter[0];
                    if ((i & 63) == 0) {
                        Thread.yield();
                    }
                    counter[0] = v + 1;
                } finally {
                    lock.unlock();
                }
            }
        });
        lock.lock(); // for the happens-before edge from the last increment
        try {
            return counter[0];
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts {@code threads} threads of {@code builder} that each run {@code body} with their index
     * once all have started, and joins them (bounded).
     */
    static void runTogether(Thread.Builder builder, int threads, IntConsumer body) throws InterruptedException {
        CountDownLatch startGate = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            started.add(builder.start(() -> {
                try {
                    startGate.await();
                } catch (InterruptedException e) {
                    return;
                }
                body.accept(id);
            }));
        }
        startGate.countDown();
        for (Thread t : started) {
            Threads.join(t);
        }
    }

    /**
     * Lock's tryLock() acquires the lock if it is free at the time of the call. Here {@code lock}
     * is contended by eight threads that call {@code tryLock} with timeouts of a few microseconds,
     * so that waiters time out, leave and are woken while the lock is free; between bursts of
     * holding the lock this thread calls {@code probe} (a form of tryLock on it) for up to
     * {@code budget}. Returns a description of the first false return while the lock was free,
     * or {@code null}.
     *
     * <p>Free: {@code held} read false before and after the call, and no other thread acquired
     * the lock meanwhile (each counts its acquisition before it unlocks). A failure that sees the
     * lock held (locked, or being handed to a waiter) at the time of the call is then not counted:
     * whoever held it acquired after the first read, and either still holds it at the second or
     * counted before unlocking.
     */
    static String tryLockFalseWhileFree(Lock lock, BooleanSupplier held, BooleanSupplier probe, Duration budget)
            throws InterruptedException {
        AtomicLong acquisitions = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiters.add(Thread.ofPlatform().daemon(true).start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    try {
                        if (lock.tryLock(random.nextInt(1, 50), TimeUnit.MICROSECONDS)) {
                            acquisitions.incrementAndGet();
                            lock.unlock();
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }));
        }
        long calls = 0L;
        try {
            for (long end = System.nanoTime() + budget.toNanos(); System.nanoTime() - end < 0L;) {
                lock.lock(); // a burst of holding, for waiters to queue behind
                try {
                    for (int i = 0; i < 200; i++) {
                        Thread.onSpinWait();
                    }
                } finally {
                    lock.unlock();
                }
                for (int i = 0; i < 1_000; i++, calls++) {
                    long before = acquisitions.get();
                    boolean freeBefore = !held.getAsBoolean();
                    if (probe.getAsBoolean()) {
                        lock.unlock();
                    } else if (freeBefore && !held.getAsBoolean() && acquisitions.get() == before) {
                        return "tryLock returned false while the lock was free, after " + calls + " calls";
                    }
                }
            }
            return null;
        } finally {
            stop.set(true);
            for (Thread t : waiters) {
                Threads.join(t);
            }
        }
    }

    /**
     * Calls {@code probe} (a form of tryLock) for up to {@code budget}, unlocking with
     * {@code unlocker} after each success, while another thread flips {@code bit} of {@code lock}'s
     * int state word, a bit that does not make the lock held (WOKEN): the word changes between
     * tryLock's read and its CAS as it does when waiters leave or are woken, only far more often.
     * Returns a description of the first false return (nobody else ever takes the lock), or
     * {@code null}.
     */
    static String tryLockFalseWhileTheWordChanges(Mutex lock, int bit, BooleanSupplier probe, Lock unlocker,
            Duration budget) throws Exception {
        VarHandle state = MethodHandles.privateLookupIn(Mutex.class, MethodHandles.lookup())
                .findVarHandle(Mutex.class, "state", int.class);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch flipping = new CountDownLatch(1);
        Thread flipper = Thread.ofPlatform().daemon(true).start(() -> {
            flipping.countDown();
            while (!stop.get()) {
                int s = (int) state.getVolatile(lock);
                state.compareAndSet(lock, s, s ^ bit);
            }
        });
        try {
            assertTrue(flipping.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            long calls = 0L;
            for (long end = System.nanoTime() + budget.toNanos(); System.nanoTime() - end < 0L;) {
                for (int i = 0; i < 1_000; i++, calls++) {
                    if (!probe.getAsBoolean()) {
                        return "tryLock returned false while the lock was free, after " + calls + " calls";
                    }
                    unlocker.unlock();
                }
            }
            return null;
        } finally {
            stop.set(true);
            Threads.join(flipper);
            int s = (int) state.getVolatile(lock);
            state.compareAndSet(lock, s, s & ~bit);
        }
    }

    /**
     * Runs {@link OutOfMemoryProbe} with {@code probe} in a JVM of its own with a 24 MB heap and
     * asserts that it printed {@code OK} last.
     */
    static void runOutOfMemoryProbe(String probe) throws Exception {
        runOutOfMemoryProbe(OutOfMemoryProbe.class, probe);
    }

    /**
     * Runs the main class {@code probeClass} (a test class, such as {@link OutOfMemoryProbe}) with
     * {@code probe} in a JVM of its own with a 24 MB heap and asserts that it printed {@code OK} last.
     */
    static void runOutOfMemoryProbe(Class<?> probeClass, String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Mutex.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(probeClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=2",
                "-cp", classPath, probeClass.getName(), probe)
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(Threads.TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }

    /** Starts a thread that locks {@code lock} (and keeps it) and returns "acquired". */
    static Threads.Task<String> startLocker(Lock lock) {
        return start(() -> {
            lock.lock();
            return "acquired";
        });
    }

    /** Starts a thread that locks {@code lock} interruptibly (and keeps it) and returns "acquired". */
    static Threads.Task<String> startInterruptibleLocker(Lock lock) {
        return start(() -> {
            lock.lockInterruptibly();
            return "acquired";
        });
    }

    /**
     * Waits until {@code task}'s thread is parked, or has finished already (a timed wait that
     * expired before this thread looked, on a slow machine).
     */
    static void untilParkedOrDone(Threads.Task<?> task) {
        Threads.until(task.thread() + " parks or ends", () -> {
            Thread.State s = task.thread().getState();
            return task.result().isDone() || s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        });
    }

    /**
     * An interrupted caller gets {@code InterruptedException} from {@code lockInterruptibly} and the
     * timed {@code tryLock} although {@code lock} is free, without taking it; the status is cleared.
     */
    static void interruptedCallerFailsFastEvenWhenFree(Lock lock, BooleanSupplier held) {
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
        assertFalse(held.getAsBoolean());
        assertFalse(Thread.interrupted());
    }

    /** A thread other than the one that locked {@code lock} unlocks it. */
    static void anyThreadMayUnlock(Lock lock) {
        lock.lock();
        get(start(() -> {
            lock.unlock();
            return null;
        }));
        assertTrue(lock.tryLock());
    }

    /**
     * A condition of {@code lock}: a waiter wakes when signalled, holding the lock again
     * ({@code held} says whether the lock is held), and a timed await times out holding it.
     */
    static void conditionAwaitsAndSignals(Lock lock, BooleanSupplier held) {
        Condition ready = lock.newCondition();
        boolean[] flag = new boolean[1];
        var waiter = start(() -> {
            lock.lock();
            try {
                while (!flag[0]) {
                    ready.await();
                }
                return held.getAsBoolean();
            } finally {
                lock.unlock();
            }
        });
        Threads.untilParked(waiter.thread());
        lock.lock();
        try {
            flag[0] = true;
            ready.signal();
        } finally {
            lock.unlock();
        }
        assertTrue(get(waiter.result()));

        lock.lock();
        try {
            assertTrue(ready.awaitNanos(TimeUnit.MILLISECONDS.toNanos(10)) <= 0L);
            assertFalse(ready.await(1, TimeUnit.MILLISECONDS));
            assertTrue(held.getAsBoolean(), "a timed-out await re-acquires the lock");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            lock.unlock();
        }
    }
}
