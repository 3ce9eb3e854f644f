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
 *   <li>{@code release-unwarmed}, {@code hand-off-unwarmed}, {@code release-waiter-unwarmed}: the first release
 *       that stops an idle worker, hand-off to an idle worker, or release that answers a waiting submitter in the
 *       JVM, on a full heap, still stops the worker, runs the task (or throws and leaves the worker usable) and
 *       answers the submitter; the pool terminates. No warm-up here: the pool must link those paths itself.</li>
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
    /** What {@link #withFullHeapBut} leaves free. */
    private static volatile byte[] reserve;

    private LifecycleOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "reboot" -> reboot();
            case "release" -> release();
            case "release-unwarmed" -> releaseUnwarmed();
            case "hand-off-unwarmed" -> handOffUnwarmed();
            case "release-waiter-unwarmed" -> releaseWaiterUnwarmed();
            case "first-spin-unwarmed" -> firstSpinUnwarmed(false);
            case "first-spin-loop-unwarmed" -> firstSpinUnwarmed(true);
            case "first-withdrawal-unwarmed" -> firstWithdrawalUnwarmed();
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
     * The first idle worker this JVM stops is stopped by a release on a full heap: no path that hands a worker
     * something ({@code Worker.hand}) has run before, so that release is the first to link it.
     */
    private static String releaseUnwarmed() throws Exception {
        PoolCore core = unwarmedPool();
        Thread worker = idleWorker(core);
        if (worker == null) {
            return "the worker never parked on the idle queue";
        }
        Throwable thrown = withFullHeap(core::release);
        boolean ended = PoolCore.join(worker, PoolCore.deadline(TimeUnit.SECONDS.toNanos(5)));
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5));
        return ended && terminated ? "OK"
                : "FAILED: release() on a full heap, the first stop of an idle worker in this JVM, threw "
                + where(thrown) + "; the idle worker ended: " + ended + ", terminated within 5 s: " + terminated
                + ", a second release() closed the pool: " + core.release() + ", " + core;
    }

    /**
     * The first task this JVM hands to an idle worker is submitted on a full heap: no path that hands a worker
     * something ({@code Worker.hand}) has run before, so that submission is the first to link it.
     */
    private static String handOffUnwarmed() throws Exception {
        PoolCore core = unwarmedPool();
        Thread worker = idleWorker(core);
        if (worker == null) {
            return "the worker never parked on the idle queue";
        }
        Semaphore ran = new Semaphore(0);
        Runnable task = ran::release;
        Throwable thrown = withFullHeap(() -> core.dispatch(task, false, 0L));
        boolean first = ran.tryAcquire(thrown == null ? 1 : 0, 5, TimeUnit.SECONDS) && ran.availablePermits() == 0;
        boolean second = core.dispatch(task, true, TimeUnit.SECONDS.toNanos(5))
                && ran.tryAcquire(5, TimeUnit.SECONDS);
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5));
        return first && second && terminated ? "OK"
                : "FAILED: a hand-off to an idle worker on a full heap, the first in this JVM, threw " + where(thrown)
                + "; the task ran as it should (once if handed over, else never): " + first
                + "; a second task ran: " + second + "; terminated within 5 s: " + terminated + ", " + core;
    }

    /**
     * The first submitter this JVM grants an outcome waits in a full pool that a release closes on a full heap:
     * no path that grants a waiter something has run before, so that release is the first to link it.
     */
    private static String releaseWaiterUnwarmed() throws Exception {
        PoolCore core = unwarmedPool();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        core.dispatch((Runnable) () -> {
            running.countDown();
            try {
                letGo.await(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, false, 0L);
        Throwable[] rejected = new Throwable[1];
        Thread submitter = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                core.dispatch((Runnable) () -> { }, false, 0L);
            } catch (Throwable t) {
                rejected[0] = t;
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (core.waiting() != 1 || running.getCount() != 0) {
            if (System.nanoTime() - deadline > 0L) {
                letGo.countDown();
                return "the submitter never waited: " + core;
            }
            Thread.yield();
        }
        Throwable thrown = withFullHeap(core::release);
        letGo.countDown();
        boolean answered = PoolCore.join(submitter, PoolCore.deadline(TimeUnit.SECONDS.toNanos(5)));
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5));
        return answered && terminated ? "OK"
                : "FAILED: release() on a full heap, the first grant to a waiting submitter in this JVM, threw "
                + where(thrown) + "; the waiting submitter was answered: " + answered + " (" + rejected[0]
                + "), terminated within 5 s: " + terminated + ", " + core;
    }

    /**
     * The first task of the JVM fills the heap (on its worker) and returns: the worker's first spin in the fast
     * lane, the first in this JVM, runs on a full heap. Whatever it throws, the lane must be left usable: no
     * token of the JVM-wide budget kept by a worker that is not in a lane, no task handed to a worker that is not
     * there. Then the heap is freed; tasks submitted afterwards must run and the pool must terminate. With
     * {@code entryWarmed}, a spin that withdrew at once (its pool had a waiter) ran before, so the lane's entry is
     * linked and the first read of the slot in the spin loop is what links on the full heap.
     */
    private static String firstSpinUnwarmed(boolean entryWarmed) throws Exception {
        if (entryWarmed) { // a first spin that found its pool's waiter at once: entered and withdrew, no slot read
            SpinningWorkers scratch = new SpinningWorkers();
            if (scratch.spin(SpinningWorkers.NONE, () -> true) != SpinningWorkers.WITHDRAWING) {
                return "the warm-up spin did not withdraw";
            }
            scratch.withdrawn();
        }
        PoolCore core = unwarmedPool();
        lastWorker = null;
        core.dispatch((Runnable) LifecycleOutOfMemoryProbe::fillHeap, false, 0L);
        Thread worker = lastWorker;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (worker.isAlive() && !(worker.getState() == Thread.State.WAITING
                && LockSupport.getBlocker(worker) instanceof Worker)) {
            if (System.nanoTime() - deadline > 0L) {
                break;
            }
            Thread.onSpinWait();
        }
        freeHeap();
        System.gc();
        boolean parked = worker.isAlive();
        Semaphore ran = new Semaphore(0);
        boolean accepted = true;
        for (int i = 0; i < 3; i++) {
            accepted &= core.dispatch((Runnable) ran::release, true, TimeUnit.SECONDS.toNanos(5));
        }
        boolean allRan = ran.tryAcquire(3, 5, TimeUnit.SECONDS);
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5));
        int inLanes = SpinningWorkers.inLanes();
        return allRan && terminated && inLanes == 0 ? "OK"
                : "FAILED: the worker's first spin ran on a full heap (the worker " + (parked ? "parked" : "died")
                + "); then 3 tasks accepted: " + accepted + ", all ran: " + allRan + "; terminated within 5 s: " + terminated + "; workers in a lane by the JVM-wide budget"
                + " with no pool open: " + inLanes + " of " + SpinningWorkers.MAX_IN_LANES + ", " + core;
    }

    /**
     * The spin itself linked (a lane of no pool: a worker entered, read the slot once, and withdrew, as one of a
     * pool that got a waiter at its second read would), but no withdrawing worker has reached its pool yet: the
     * first task then fills the heap, its worker spins in vain, withdraws and, in its revert, is the first to
     * take a worker out of the lane in this JVM, on the full heap.
     */
    private static String firstWithdrawalUnwarmed() throws Exception {
        SpinningWorkers scratch = new SpinningWorkers();
        int[] reads = {0};
        if (scratch.spin(SpinningWorkers.NONE, () -> reads[0]++ > 0) != SpinningWorkers.WITHDRAWING) {
            return "the warm-up spin did not withdraw";
        }
        return firstSpinUnwarmed(false);
    }

    /** A pool of one platform worker, without purger and ticker. */
    private static PoolCore unwarmedPool() {
        return new PoolCore("unwarmed", 1, PoolOptions.builder().disablePurge(true).threadFactory(PLATFORM).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
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
        return withFullHeapBut(0, call);
    }

    /** As {@link #withFullHeap}, with about {@code margin} bytes left free. */
    static Throwable withFullHeapBut(int margin, Runnable call) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread victim = Thread.ofPlatform().start(() -> {
            reserve = new byte[margin];
            fillHeap();
            reserve = null;
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
        hog = HeapFill.fill(null);
    }

    /** Lets the collector take back what {@link #fillHeap()} took. */
    static void freeHeap() {
        hog = null;
    }
}
