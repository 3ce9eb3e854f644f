package io.ants4j.pool;

import java.util.ArrayList;
import java.util.List;

/**
 * The purger and ticker of a pool's current generation (ants' {@code purgeStaleWorkers} and {@code ticktock}
 * goroutines): both run, or neither. Not thread-safe: every method is called with the pool's lock held.
 *
 * <p>Implementation notes. {@link #start} reserves room in the pool's {@link ExitedThreads} before it starts
 * anything, so that {@link #stop}, which records the stopped threads there for the pool's termination to join,
 * allocates nothing: a close cannot run out of memory once it has closed the pool. If the ticker cannot start,
 * the purger is stopped again before the failure propagates.
 */
final class BackgroundThreads {
    private final String poolName;
    private final TaskFailures failures;
    private final ExitedThreads exited;
    private PeriodicTask purger;
    private PeriodicTask ticker;

    BackgroundThreads(String poolName, TaskFailures failures, ExitedThreads exited) {
        this.poolName = poolName;
        this.failures = failures;
        this.exited = exited;
    }

    /**
     * Starts {@code <pool>-purger}, running {@code purge} every {@code purgeNanos}, and {@code <pool>-ticker},
     * running {@code tick} every {@code tickNanos}, as virtual or platform threads. Throws what a start threw,
     * with neither running.
     */
    void start(boolean virtual, long purgeNanos, Runnable purge, long tickNanos, Runnable tick) {
        exited.reserve(2);
        purger = PeriodicTask.start(poolName + "-purger", virtual, purgeNanos, purge, failures);
        try {
            ticker = PeriodicTask.start(poolName + "-ticker", virtual, tickNanos, tick, failures);
        } catch (Throwable t) {
            stop();
            throw t;
        }
    }

    /** Stops the purger and ticker, if they run, and records their threads as exited; allocates nothing. */
    void stop() {
        stop(purger);
        stop(ticker);
        purger = null;
        ticker = null;
    }

    private void stop(PeriodicTask task) {
        if (task != null) {
            task.stop();
            exited.add(task.thread());
        }
    }

    /** Whether {@code t} is the thread of the purger or the ticker running now. */
    boolean runsOn(Thread t) {
        return purger != null && purger.thread() == t || ticker != null && ticker.thread() == t;
    }

    /** The threads of the purger and ticker running now. */
    List<Thread> threads() {
        List<Thread> threads = new ArrayList<>(2);
        if (purger != null) {
            threads.add(purger.thread());
        }
        if (ticker != null) {
            threads.add(ticker.thread());
        }
        return threads;
    }
}
