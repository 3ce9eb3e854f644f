package io.ants4j.pool;

import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.NanoClock;

/**
 * Run in a JVM of its own with a small heap ({@link LifecycleOutOfMemoryTest}): a thread fills the heap, then
 * makes a life-cycle call of a pool that allocated after changing the pool's state. Prints {@code OK} if the
 * pool is consistent afterwards.
 * <ul>
 *   <li>{@code reboot}: a {@link PoolCore#reboot} that runs out of memory leaves the pool closed, and a second
 *       reboot starts purger and ticker.</li>
 *   <li>{@code release}: many released purgers and tickers are still alive (each held in the logger), so recording one
 *       more must not grow the list of exited threads; every {@link PoolCore#release} with a full heap closes
 *       the pool completely (its idle worker, parked on the idle queue, ends), and the pool terminates.</li>
 * </ul>
 * The first run of a path allocates (class loading, and the linking of each {@code VarHandle} call site: stopping
 * an idle worker links {@code Worker.hand}'s), so each path runs first with memory to spare, on another pool. The
 * path a release takes depends on where its worker is (parked on the idle queue, spinning in the fast lane, or not
 * yet past its first task), so every release, warm-up included, waits until its worker is parked on the queue:
 * else a warm-up that found its worker elsewhere would leave the path that stops an idle worker to its first run
 * on the full heap.
 */
final class LifecycleOutOfMemoryProbe {
    private static final long WAIT_SECONDS = 20;
    private static final int GENERATIONS = 30;
    /** Makes platform workers, recording the latest in {@link #lastWorker}. */
    private static final ThreadFactory PLATFORM = r -> {
        Thread t = Thread.ofPlatform().daemon(true).unstarted(r);
        lastWorker = t;
        return t;
    };

    /** The worker thread {@link #PLATFORM} made last. */
    private static volatile Thread lastWorker;

    private static volatile Object[] hog;

    private LifecycleOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "reboot" -> reboot();
            case "release" -> release();
            default -> "unknown probe " + args[0];
        };
        System.out.println(result);
        System.exit(0);
    }

    private static String reboot() throws Exception {
        PoolCore core = new PoolCore("oom", 4, PoolOptions.builder().expiryDuration(Duration.ofSeconds(10)).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
        core.release();
        // the first run of a path links code and allocates: once with memory to spare, on another pool
        PoolCore other = new PoolCore("warm-up", 4, PoolOptions.builder().expiryDuration(Duration.ofSeconds(10))
                .build(), task -> ((Runnable) task).run(), new SpinningWorkers());
        other.release();
        other.reboot();
        other.release();
        Throwable thrown = withFullHeap(core::reboot);
        if (!(thrown instanceof OutOfMemoryError)) {
            return "the reboot did not run out of memory but threw " + thrown;
        }
        boolean closed = core.isTerminated();
        core.reboot();
        int background = core.backgroundThreads().size();
        return closed && background == 2 ? "OK"
                : "FAILED: after a reboot that ran out of memory the pool was " + (closed ? "closed" : "open")
                + "; after a second reboot, " + background + " background thread(s) (purger and ticker: 2), " + core;
    }

    private static String release() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        Semaphore held = new Semaphore(0);
        // purger and ticker fail on their first run and stay in the logger: stopped, but alive (none ends, so
        // no memory is freed when the pool forgets the threads that have ended)
        NanoClock clock = () -> {
            String thread = Thread.currentThread().getName();
            if (thread.endsWith("-purger") || thread.endsWith("-ticker")) {
                throw new IllegalStateException("injected: hold the background thread");
            }
            return System.nanoTime();
        };
        try {
            // the first run of a path links code and allocates: once with memory to spare, on another pool
            Semaphore warmUpHeld = new Semaphore(0);
            PoolCore other = heldPurgerPool(clock, new HoldingLogger(warmUpHeld, letGo));
            for (int g = 0; g < 2; g++) {
                if (idleWorker(other) == null) {
                    return "the worker of the warm-up pool never parked on the idle queue";
                }
                if (!warmUpHeld.tryAcquire(2, WAIT_SECONDS, TimeUnit.SECONDS)) {
                    return "the purger or ticker of the warm-up pool never ran";
                }
                other.release();
                other.reboot();
            }
            other.release();
            PoolCore core = heldPurgerPool(clock, new HoldingLogger(held, letGo));
            for (int g = 1; g <= GENERATIONS; g++) {
                Thread worker = idleWorker(core);
                if (worker == null) {
                    return "the worker of generation " + g + " never parked on the idle queue";
                }
                if (!held.tryAcquire(2, WAIT_SECONDS, TimeUnit.SECONDS)) {
                    return "the purger or ticker of generation " + g + " never ran";
                }
                Throwable thrown = withFullHeap(core::release);
                if (thrown != null) {
                    boolean again = core.release();
                    int background = core.backgroundThreads().size();
                    letGo.countDown();
                    boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(2));
                    return "FAILED: release() of generation " + g + " threw " + thrown + "; a second release() "
                            + (again ? "closed the pool" : "did nothing") + ", " + background
                            + " background thread(s) left running, terminated within 2 s: " + terminated
                            + ", " + core;
                }
                if (!PoolCore.join(worker, PoolCore.deadline(TimeUnit.SECONDS.toNanos(WAIT_SECONDS)))) {
                    return "FAILED: the idle worker of generation " + g + " was not stopped by release(), " + core;
                }
                core.reboot();
            }
            core.release();
            letGo.countDown();
            return core.awaitTermination(TimeUnit.SECONDS.toNanos(WAIT_SECONDS)) ? "OK"
                    : "FAILED: not terminated with every purger and ticker let go, " + core;
        } finally {
            letGo.countDown();
        }
    }

    /**
     * A pool of platform workers whose purger and ticker (of each generation) are held in {@code logger}; the
     * first generation's start with its first worker.
     */
    private static PoolCore heldPurgerPool(NanoClock clock, System.Logger logger) {
        return new PoolCore("oom", 4, PoolOptions.builder().expiryDuration(Duration.ofMillis(5))
                .threadFactory(PLATFORM).logger(logger).build(), task -> ((Runnable) task).run(),
                new SpinningWorkers(), clock);
    }

    /**
     * Starts a worker in {@code core}, which has no worker (and whose purger never retires one), with an
     * empty task, and waits until it is parked on the idle queue: in {@code Worker.take}, as a worker is only
     * after its revert queued it. Returns its thread, or null if it did not park within {@link #WAIT_SECONDS}.
     */
    private static Thread idleWorker(PoolCore core) {
        if (core.running() != 0) {
            throw new IllegalStateException("the pool has a worker already: " + core);
        }
        lastWorker = null;
        if (!core.dispatch((Runnable) () -> { }, false, 0L)) {
            throw new IllegalStateException("the task was not accepted: " + core);
        }
        Thread worker = lastWorker; // made by the factory in dispatch, on this thread
        if (worker == null) {
            throw new IllegalStateException("the task did not start a new worker: " + core);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!(worker.getState() == Thread.State.WAITING && LockSupport.getBlocker(worker) instanceof Worker)) {
            if (System.nanoTime() - deadline > 0L) {
                return null;
            }
            Thread.yield(); // two CPUs at most: let the worker get there
        }
        return worker;
    }

    /** Holds every thread that logs until {@code letGo}, counting it in {@code held}. */
    private static final class HoldingLogger implements System.Logger {
        private final Semaphore held;
        private final CountDownLatch letGo;

        HoldingLogger(Semaphore held, CountDownLatch letGo) {
            this.held = held;
            this.letGo = letGo;
        }

        @Override
        public String getName() {
            return "holding";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            held.release();
            try {
                letGo.await(WAIT_SECONDS * 3, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            log(level, bundle, format, (Throwable) null);
        }
    }

    /** Runs {@code call} on a new thread once that thread has filled the heap; returns what it threw, or null. */
    private static Throwable withFullHeap(Runnable call) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread victim = Thread.ofPlatform().start(() -> {
            fillHeap();
            try {
                call.run();
            } catch (Throwable t) {
                hog = null;
                thrown[0] = t;
            }
            hog = null;
        });
        if (!victim.join(Duration.ofSeconds(WAIT_SECONDS))) {
            throw new IllegalStateException("the call with a full heap hung");
        }
        return thrown[0];
    }

    /**
     * Allocates until the heap is full, keeping everything reachable through {@link #hog}, down to the smallest
     * array: no allocation of an object with a field or two succeeds until {@link #freeHeap()}.
     */
    static void fillHeap() {
        Object[] head = null;
        for (int size = 1 << 16; size > 0; size >>= 1) {
            try {
                for (;;) {
                    Object[] next = new Object[size];
                    next[0] = head;
                    head = next;
                }
            } catch (OutOfMemoryError e) {
                hog = head; // keep it; try smaller pieces
            }
        }
        hog = head;
    }

    /** Lets the collector take back what {@link #fillHeap()} took. */
    static void freeHeap() {
        hog = null;
    }
}
