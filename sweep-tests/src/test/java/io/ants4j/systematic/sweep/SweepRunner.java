package io.ants4j.systematic.sweep;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The platform thread that runs the operation under test, one run at a time, handed over without allocating:
 * the heap is exhausted while it runs. It measures the bytes the operation allocated on it (so an
 * {@link OutOfMemoryError} is placed in the {@link AllocationMap}), and for a held scenario keeps polling the
 * settled predicate before it reports back. One runner serves every run of a scenario, so its one-time
 * allocations (a thread's first submission to the virtual-thread scheduler makes it a queue) happen in the
 * warm-up; a runner stuck in an operation that never returned is abandoned.
 */
final class SweepRunner implements Runnable {
    /** How long a held scenario keeps the heap exhausted at most, waiting for its settled predicate. */
    static final long SETTLE_MILLIS = 300L;

    private static volatile SweepRunner current;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final Thread thread;
    private volatile Thread waiter;
    private volatile Scenario.Operation<Object> operation;
    private volatile Object state;
    private volatile Predicate<Object> settled;
    private volatile boolean go;
    private volatile boolean inOperation;
    private volatile boolean done;
    private volatile Throwable thrown;
    private volatile long allocated;
    /** Runs started and runs over: a helper made in a setup waits for the run that follows it. */
    private volatile long started;
    private volatile long finished;

    SweepRunner(int generation) {
        thread = Thread.ofPlatform().daemon(true).name("sweep-runner-" + generation).unstarted(this);
        thread.start();
        current = this;
    }

    /** The runner of the scenario being swept. */
    static SweepRunner current() {
        return current;
    }

    Thread thread() {
        return thread;
    }

    /**
     * Starts {@code op} on {@code s}; {@link #awaitDone} waits for it. Allocates nothing (the fields are written,
     * the thread unparked).
     */
    @SuppressWarnings("unchecked")
    void start(Scenario<?> scenario, Object s) {
        operation = (Scenario.Operation<Object>) scenario.operation();
        settled = (Predicate<Object>) scenario.settled();
        state = s;
        thrown = null;
        done = false;
        waiter = Thread.currentThread();
        started++;
        go = true;
        LockSupport.unpark(thread);
    }

    /** Waits (without allocating) until the run is over or {@code millis} have passed; whether it is over. */
    boolean awaitDone(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!done) {
            long left = deadline - System.nanoTime();
            if (left <= 0L) {
                return false;
            }
            LockSupport.parkNanos(this, left);
        }
        return true;
    }

    /**
     * Drops the last run's state and throwable. Called before the heap is filled for the next run: what start()
     * overwrites would otherwise turn into garbage that the operation's first failing allocation reclaims.
     */
    void forget() {
        state = null;
        thrown = null;
    }

    Throwable thrown() {
        return thrown;
    }

    /** Bytes the last operation allocated on this thread before it returned or threw. */
    long allocated() {
        return allocated;
    }

    /** The number the next run will have. */
    long nextRun() {
        return started + 1;
    }

    /** Whether the operation of run {@code run} has returned (or thrown). */
    boolean returned(long run) {
        return finished >= run;
    }

    /**
     * For a {@link Probe.Helper}: waits, without allocating, until the operation parks (waiting or timed waiting
     * inside it) or has returned, or the helper is cancelled.
     */
    void awaitParkedOrReturned(Probe.Helper helper, long run) {
        long deadline = System.nanoTime() + Probe.TIMEOUT.toNanos();
        for (;;) {
            if (helper.cancelled() || finished >= run || System.nanoTime() - deadline > 0L) {
                return;
            }
            if (inOperation && started == run) {
                Thread.State s = thread.getState();
                if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                    return;
                }
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
    }

    @Override
    public void run() {
        for (;;) {
            while (!go) {
                LockSupport.park(this);
            }
            go = false;
            Object s = state;
            long before = threads.getCurrentThreadAllocatedBytes();
            Throwable t = null;
            inOperation = true;
            try {
                operation.run(s);
            } catch (Throwable e) {
                t = e;
            }
            inOperation = false;
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
            Predicate<Object> p = settled;
            if (p != null) {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
                try {
                    while (!p.test(s) && System.nanoTime() - deadline < 0L) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                } catch (Throwable e) {
                    if (t == null) {
                        t = e;
                    }
                }
            }
            thrown = t;
            finished++;
            done = true;
            LockSupport.unpark(waiter);
        }
    }
}
