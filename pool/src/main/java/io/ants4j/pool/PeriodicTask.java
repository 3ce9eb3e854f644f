package io.ants4j.pool;

import java.util.concurrent.locks.LockSupport;

/**
 * A pool's background thread that runs an action every period until stopped: the purger and the ticker
 * (ants' {@code purgeStaleWorkers} and {@code ticktock} goroutines with their cancel contexts).
 *
 * <p>Implementation notes. The thread is of the pool's kind, virtual or platform, so that it shows where the
 * pool's workers show (a thread dump lists platform threads only); a platform one is a daemon, so that a
 * forgotten pool never keeps the JVM alive. It sleeps with {@link LockSupport#parkNanos} until the next run is due; {@link #stop()} sets a volatile flag and
 * unparks it, so it ends within one run of the action. Interrupts are consumed and ignored: they neither end
 * the thread nor shorten its sleep. A throwing action is reported through the pool's {@link TaskFailures} (its
 * logger, else the thread's uncaught-exception handler if the logger throws too) with a message made up front,
 * so that neither a failing logger nor an exhausted heap can end the loop.
 */
final class PeriodicTask implements Runnable {
    private final long periodNanos;
    private final Runnable action;
    private final TaskFailures failures;
    /** Made with the task, so that reporting a failure needs no allocation of ours. */
    private final String failureMessage;
    private final Thread thread;
    private volatile boolean stopped;

    private PeriodicTask(String name, boolean virtual, long periodNanos, Runnable action, TaskFailures failures) {
        this.periodNanos = periodNanos;
        this.action = action;
        this.failures = failures;
        this.failureMessage = "ants4j background task " + name + " failed";
        this.thread = (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true)).name(name).unstarted(this);
    }

    /**
     * Starts a thread, virtual or platform, running {@code action} every {@code periodNanos}; its failures go to
     * {@code failures}.
     */
    static PeriodicTask start(String name, boolean virtual, long periodNanos, Runnable action,
                              TaskFailures failures) {
        PeriodicTask t = new PeriodicTask(name, virtual, periodNanos, action, failures);
        t.thread.start();
        return t;
    }

    @Override
    public void run() {
        long next = System.nanoTime() + periodNanos;
        while (!stopped) {
            long delay = next - System.nanoTime();
            if (delay > 0) {
                LockSupport.parkNanos(this, delay);
                // Only stop() ends the loop; an interrupt left set would make every later park return at once.
                Thread.interrupted();
                continue;
            }
            next = System.nanoTime() + periodNanos;
            try {
                action.run();
            } catch (Throwable t) {
                failures.reportBackground(t, failureMessage);
            }
        }
    }

    /** Asks the thread to end; does not wait. Throws nothing (a thread the JDK cannot unpark: {@link LostThreads}). */
    void stop() {
        stopped = true;
        LostThreads.unpark(thread);
    }

    /** The thread running the task, for the pool to join it once stopped. */
    Thread thread() {
        return thread;
    }
}
