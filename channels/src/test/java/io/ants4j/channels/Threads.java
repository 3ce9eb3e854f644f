package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Test fixtures: threads started for a test, and waits for them bounded in time. */
final class Threads {
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    private Threads() {
    }

    /** An action of a test thread, which may throw anything. */
    interface Action {
        void run() throws Exception;
    }

    /** Starts a platform thread running {@code action}; what it throws is kept in {@link Failing#failure}. */
    static Failing start(Action action) {
        Failing f = new Failing();
        f.thread = Thread.ofPlatform().daemon().start(() -> {
            try {
                action.run();
            } catch (Throwable t) {
                f.failure = t;
            }
        });
        return f;
    }

    /**
     * Runs each action in a platform thread of its own, all released at once by a barrier, and joins them (bounded),
     * failing with what one threw.
     */
    static void race(Action... actions) throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(actions.length);
        Failing[] threads = new Failing[actions.length];
        for (int i = 0; i < actions.length; i++) {
            Action action = actions[i];
            threads[i] = start(() -> {
                start.await(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
                action.run();
            });
        }
        for (Failing t : threads) {
            t.join();
        }
    }

    /** A thread of a test and what it threw. */
    static final class Failing {
        Thread thread;
        volatile Throwable failure;

        /** Joins the thread (bounded) and fails the test with what it threw. */
        void join() throws InterruptedException {
            thread.join(TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NANOS));
            assertFalse(thread.isAlive(), () -> thread + " still running: " + stack(thread));
            if (failure != null) {
                throw new AssertionError("the thread threw", failure);
            }
        }
    }

    /** Waits until {@code t} is parked or waiting (blocked in a channel operation), at most TIMEOUT. */
    static void awaitBlocked(Thread t) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        for (;;) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                return;
            }
            if (s == Thread.State.TERMINATED) {
                fail(t + " ended instead of blocking");
            }
            if (System.nanoTime() - deadline > 0) {
                fail(t + " did not block: " + stack(t));
            }
            Thread.onSpinWait();
        }
    }

    /** Spins until {@code condition} holds; fails after {@link #TIMEOUT_NANOS}. */
    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline >= 0) {
                fail("timed out waiting until " + what);
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Waits until no timer of an earlier test is left in the timers' heap (one of a collected channel is purged only
     * when looked at, so this collects and looks until none is): the removal that empties the heap wakes the timer
     * thread into its idle time.
     */
    static void untilNoTimerPending() {
        until("no timer is left in the heap", () -> {
            System.gc();
            return Timers.queued() == 0;
        });
    }

    /**
     * Takes {@code c}'s lock, makes {@code c} (capacity 1, what {@link Chan#after} makes) the channel of a timer due in
     * {@code delayNanos} and waits until the timer thread holds its tick pending: returns the timer thread, with the
     * lock held (the caller lets it go in a {@code finally}). The lock comes first: a test thread preempted past the
     * deadline would otherwise find the tick sent.
     */
    static Thread lockedWithTickPending(Chan<Instant> c, long delayNanos) {
        c.lock.lock();
        try {
            Timers.Timer t = Timers.after(c, delayNanos);
            Thread timer = Timers.thread();
            if (timer == null) {
                fail("no timer thread after a schedule");
            }
            until("the tick is pending", () -> t.pendingTick != null);
            return timer;
        } catch (Throwable e) {
            c.lock.unlock();
            throw e;
        }
    }

    /** Waits {@code nanos} on a latch nobody counts down: a bounded pause, not a wait for another thread. */
    static void pause(long nanos) throws InterruptedException {
        new CountDownLatch(1).await(nanos, TimeUnit.NANOSECONDS);
    }

    /** {@code t}'s CPU time over a pause of {@code nanos}, as a share of a core (of the pause's wall time). */
    static double cpuShare(Thread t, long nanos) throws Exception {
        long cpu0 = cpuTime(t);
        long wall0 = System.nanoTime();
        pause(nanos);
        return (double) (cpuTime(t) - cpu0) / (System.nanoTime() - wall0);
    }

    /**
     * The thread's CPU time, from ThreadMXBean.getThreadCpuTime (by reflection: the module does not read
     * java.management, and core reflection needs no readability).
     */
    private static long cpuTime(Thread t) throws ReflectiveOperationException {
        Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
        Object mx = factory.getMethod("getThreadMXBean").invoke(null);
        Method m = Class.forName("java.lang.management.ThreadMXBean").getMethod("getThreadCpuTime", long.class);
        long ns = (Long) m.invoke(mx, t.threadId());
        if (ns < 0) {
            throw new IllegalStateException("no CPU time measured for " + t);
        }
        return ns;
    }

    /**
     * How many times a second the timer thread parked over a pause of {@code nanos}: its voluntary context switches,
     * from Linux's /proc (the JVM names the native thread after the first 15 characters of the Java thread's name).
     * Null where there is no /proc.
     */
    static Double timerThreadWakeUpsPerSecond(long nanos) throws Exception {
        Path task = timerThreadTask();
        if (task == null) {
            return null;
        }
        long switches0 = voluntarySwitches(task);
        long wall0 = System.nanoTime();
        pause(nanos);
        return (voluntarySwitches(task) - switches0) * 1e9 / (System.nanoTime() - wall0);
    }

    private static Path timerThreadTask() throws IOException {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return null;
        }
        Path found = null;
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (Path task : all) {
                String comm;
                try {
                    comm = Files.readString(task.resolve("comm")).strip();
                } catch (IOException ended) {
                    continue;
                }
                if (comm.equals("ants4j-channels")) {
                    if (found != null) {
                        fail("two native threads named like the timer thread: " + found + ", " + task);
                    }
                    found = task;
                }
            }
        }
        if (found == null) {
            fail("no native thread named like the timer thread in " + tasks);
        }
        return found;
    }

    private static long voluntarySwitches(Path task) throws IOException {
        for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        throw new IllegalStateException("no voluntary_ctxt_switches in " + task.resolve("status"));
    }

    /** Waits until no timer is pending and the idle timer thread has ended: the next timer call starts a thread. */
    static void untilNoTimerThread() {
        untilNoTimerPending();
        until("the idle timer thread has ended", () -> {
            Thread t = Timers.thread();
            return t == null || !t.isAlive();
        });
    }

    /**
     * A start of the timer thread ({@code Timers.starter}) that waits until {@link #release} is counted down (a
     * Thread.start that takes long), then starts the thread; it counts the starts and tells when the first began. A
     * subclass may fail a start instead, in {@link #startOrFail}.
     */
    static class SlowStart implements Consumer<Thread> {
        final CountDownLatch starting = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger starts = new AtomicInteger();

        @Override
        public void accept(Thread t) {
            int n = starts.incrementAndGet();
            starting.countDown();
            try {
                release.await(TIMEOUT_NANOS, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            startOrFail(t, n);
        }

        /** Starts {@code t}, the {@code n}th start. */
        void startOrFail(Thread t, int n) {
            t.start();
        }

        /** Waits (bounded) until a start began. */
        void awaitStarting() throws InterruptedException {
            if (!starting.await(TIMEOUT_NANOS, TimeUnit.NANOSECONDS)) {
                fail("the timer thread's start never began");
            }
        }
    }

    static String stack(Thread t) {
        StringBuilder b = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            b.append("\n\tat ").append(e);
        }
        return b.toString();
    }

    /** The ticker's timer, read under the timers' lock (where a reset writes it). */
    static Timers.Timer timerOf(Ticker ticker) {
        Timers.lock().lock();
        try {
            return ticker.timer;
        } finally {
            Timers.lock().unlock();
        }
    }

    /**
     * For the tests of the timer thread's start: each starts with no timer thread, and leaves {@link Timers#starter}
     * as it is by default (null: real starts).
     */
    static final class NoTimerThreadAndRealStarts implements BeforeEachCallback, AfterEachCallback {
        @Override
        public void beforeEach(ExtensionContext context) {
            untilNoTimerThread();
        }

        @Override
        public void afterEach(ExtensionContext context) {
            Timers.starter = null;
        }
    }
}
