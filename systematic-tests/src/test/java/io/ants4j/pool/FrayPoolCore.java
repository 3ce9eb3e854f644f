package io.ants4j.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.NanoClock;

/**
 * For the Fray tests of {@code io.ants4j.systematic}: the machinery of a {@link Pool} ({@link PoolCore}) on a
 * clock that the test moves by hand, with no purger or ticker thread: the test purges when it chooses
 * ({@link #advanceAndPurge}), as the purger would once the idle workers' expiry has passed, so Fray neither
 * waits for time to pass nor schedules a background thread that wakes up every few virtual milliseconds. In
 * this package because that seam is package-private ({@code ExpiryTest} uses it the same way).
 */
public final class FrayPoolCore {
    /** A clock moved only by the test. */
    private static final class HandClock implements NanoClock {
        volatile long now = TimeUnit.SECONDS.toNanos(1);

        @Override
        public long nanoTime() {
            return now;
        }
    }

    private final HandClock time = new HandClock();
    private final long expiryNanos;
    private final PoolCore core;

    private FrayPoolCore(int capacity, Duration expiry, ThreadFactory threads, boolean preAlloc,
                         SpinningWorkers lane) {
        this.expiryNanos = expiry.toNanos();
        PoolOptions options = PoolOptions.builder().expiryDuration(expiry).disablePurge(true)
                .threadFactory(threads).preAlloc(preAlloc).build();
        this.core = new PoolCore("fray", capacity, options, task -> ((Runnable) task).run(), lane, time);
    }

    /**
     * A pool of {@code capacity} workers made by {@code threads}, whose idle workers expire after
     * {@code expiry} on the hand-driven clock.
     */
    public static FrayPoolCore open(int capacity, Duration expiry, ThreadFactory threads) {
        return new FrayPoolCore(capacity, expiry, threads, false, new SpinningWorkers());
    }

    /**
     * As {@link #open}, with its idle workers in a ring allocated up front ({@link PoolOptions#preAlloc}).
     */
    public static FrayPoolCore openPreAlloc(int capacity, Duration expiry, ThreadFactory threads) {
        return new FrayPoolCore(capacity, expiry, threads, true, new SpinningWorkers());
    }

    /**
     * As {@link #open}, with a fast lane whose spinning worker reads the slot only {@code workerSpins} times
     * before it withdraws: a submitter's hand-off then often meets the worker leaving the lane, a race that
     * the default thousand spins hide from Fray.
     */
    public static FrayPoolCore openWithShortSpins(int capacity, int workerSpins, ThreadFactory threads) {
        return new FrayPoolCore(capacity, Duration.ofSeconds(1), threads, false, new SpinningWorkers(workerSpins));
    }

    /** Submits {@code task} as {@link Pool#execute} does: blocks while every worker is busy. */
    /**
     * Two pools of {@code capacity} sharing one fast lane, as the sub-pools of a {@code MultiPool} do (each with its
     * own withdrawing mark), on the default spin budget; each closes on its own.
     */
    public static FrayPoolCore[] twoSharingALane(int capacity, ThreadFactory threads) {
        SpinningWorkers lane = new SpinningWorkers();
        return new FrayPoolCore[] {new FrayPoolCore(capacity, Duration.ofSeconds(1), threads, false, lane),
                new FrayPoolCore(capacity, Duration.ofSeconds(1), threads, false, lane)};
    }

    public void execute(Runnable task) {
        if (!core.dispatch(task, false, 0L)) {
            throw new AssertionError("an untimed dispatch returned false");
        }
    }

    /**
     * Moves the clock on by the expiry, then runs the purger once: every worker idle since before this call
     * (stamped by the previous move at the latest) may be retired.
     */
    public void advanceAndPurge() {
        time.now += expiryNanos;
        core.purgeStaleWorkers(new ArrayList<>());
    }

    /** Live workers, busy or idle. */
    public int running() {
        return core.running();
    }

    /** Blocked submitters. */
    public int waiting() {
        return core.waiting();
    }

    /** Workers idle on the queue (not the one spinning in the fast lane). */
    public int queued() {
        return core.queued();
    }

    /** Idle workers: on the queue, or in the fast lane (spinning or withdrawing to the queue). */
    public int idle() {
        return core.idle();
    }

    /** Changes the capacity ({@link Pool#tune}): returns the old and the new one, as {@code PoolCore.tune}. */
    public long tune(int size) {
        return core.tune(size);
    }

    /** Closes the pool. */
    public void release() {
        core.release();
    }

    /** {@link Pool#releaseTimeout}: from a task, waits for the other tasks but those closing the pool. */
    public void releaseTimeout(Duration timeout) throws TimeoutException {
        core.release();
        core.awaitReleased(timeout);
    }

    /** The wait of {@link #releaseTimeout} without its release: from a task, for the other tasks but the closers. */
    public void awaitReleased(Duration timeout) throws TimeoutException {
        core.awaitReleased(timeout);
    }

    /** Whether the pool is closed (released, not yet rebooted). */
    public boolean isClosed() {
        return core.isClosed();
    }

    /** Opens the released pool again ({@link Pool#reboot}). */
    public void reboot() {
        core.reboot();
    }

    /** Whether the pool terminated within {@code seconds} (virtual, under Fray). */
    public boolean awaitTermination(long seconds) throws InterruptedException {
        return core.awaitTermination(TimeUnit.SECONDS.toNanos(seconds));
    }

    /**
     * {@code PoolCore.onlyClosersRunInEvery} over the cores of {@code pools}, in the order given: the look at all
     * sub-pools at once that ends the wait of a task closing its multi-pool.
     */
    public static boolean onlyClosersRunInEvery(FrayPoolCore... pools) {
        PoolCore[] cores = new PoolCore[pools.length];
        for (int i = 0; i < pools.length; i++) {
            cores[i] = pools[i].core;
        }
        return PoolCore.onlyClosersRunInEvery(cores);
    }

    /**
     * Runs {@code whileHeld} holding the pool's lock, as its own critical sections do: a thread that needs the lock
     * meanwhile (a submitter, a worker going idle, a look at the pool's counts) waits for it.
     */
    public void holdingTheLock(Runnable whileHeld) {
        java.util.concurrent.locks.Lock lock;
        try {
            java.lang.reflect.Field f = PoolCore.class.getDeclaredField("lock"); // private: no seam for it
            f.setAccessible(true);
            lock = (java.util.concurrent.locks.Lock) f.get(core);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        lock.lock();
        try {
            whileHeld.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return core.toString();
    }
}
