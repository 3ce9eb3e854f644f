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
 * the thread nor shorten its sleep. A throwing action is logged and the loop goes on.
 */
final class PeriodicTask implements Runnable {
    private final long periodNanos;
    private final Runnable action;
    private final System.Logger logger;
    private final Thread thread;
    private volatile boolean stopped;

    private PeriodicTask(String name, boolean virtual, long periodNanos, Runnable action, System.Logger logger) {
        this.periodNanos = periodNanos;
        this.action = action;
        this.logger = logger;
        this.thread = (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true)).name(name).unstarted(this);
    }

    /** Starts a thread, virtual or platform, running {@code action} every {@code periodNanos}. */
    static PeriodicTask start(String name, boolean virtual, long periodNanos, Runnable action,
                              System.Logger logger) {
        PeriodicTask t = new PeriodicTask(name, virtual, periodNanos, action, logger);
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
                logger.log(System.Logger.Level.ERROR, "ants4j background task " + thread.getName() + " failed", t);
            }
        }
    }

    /** Asks the thread to end; does not wait. */
    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    /** The thread running the task, for the pool to join it once stopped. */
    Thread thread() {
        return thread;
    }
}
