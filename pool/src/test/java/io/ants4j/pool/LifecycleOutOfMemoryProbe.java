package io.ants4j.pool;

import java.time.Duration;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
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
 *       the pool completely, and the pool terminates.</li>
 * </ul>
 */
final class LifecycleOutOfMemoryProbe {
    private static final long WAIT_SECONDS = 20;
    private static final int GENERATIONS = 30;
    private static final ThreadFactory PLATFORM = r -> Thread.ofPlatform().daemon(true).unstarted(r);

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
                if (!warmUpHeld.tryAcquire(2, WAIT_SECONDS, TimeUnit.SECONDS)) {
                    return "the purger or ticker of the warm-up pool never ran";
                }
                other.release();
                other.reboot();
            }
            other.release();
            PoolCore core = heldPurgerPool(clock, new HoldingLogger(held, letGo));
            for (int g = 1; g <= GENERATIONS; g++) {
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

    /** A pool with an idle platform worker whose purger and ticker (of each generation) are held in {@code logger}. */
    private static PoolCore heldPurgerPool(NanoClock clock, System.Logger logger) {
        PoolCore core = new PoolCore("oom", 4, PoolOptions.builder().expiryDuration(Duration.ofMillis(5))
                .threadFactory(PLATFORM).logger(logger).build(), task -> ((Runnable) task).run(),
                new SpinningWorkers(), clock);
        if (!core.dispatch((Runnable) () -> { }, false, 0L)) { // the first worker starts purger and ticker
            throw new IllegalStateException("the first task was not accepted");
        }
        return core;
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
