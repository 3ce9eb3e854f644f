package io.ants4j.systematic;

import java.util.concurrent.ThreadFactory;

/**
 * A platform thread whose {@code interrupt()} sets the interrupt status and then throws, as closing the
 * interruptible channel the thread is blocked on can make {@code Thread.interrupt()} throw.
 */
final class InterruptThrows extends Thread {
    /** The message of what {@code interrupt()} throws. */
    static final String INJECTED = "injected: interrupting the task's thread threw";

    /** Daemon threads of this kind, for a pool's {@code threadFactory}: every interrupt throws. */
    static final ThreadFactory DAEMONS = task -> daemon(new InterruptThrows(task, true));

    /**
     * Daemon threads whose {@code interrupt()} throws only when another thread calls it (a {@code shutdownNow}),
     * not when the thread interrupts itself.
     */
    static final ThreadFactory DAEMONS_THROWING_FOR_OTHERS = task -> daemon(new InterruptThrows(task, false));

    private final boolean alsoOnItself;

    /** A thread that runs {@code task} and whose every {@code interrupt()} throws. */
    InterruptThrows(Runnable task) {
        this(task, true);
    }

    private InterruptThrows(Runnable task, boolean alsoOnItself) {
        super(task);
        this.alsoOnItself = alsoOnItself;
    }

    private static Thread daemon(Thread t) {
        t.setDaemon(true);
        return t;
    }

    @Override
    public void interrupt() {
        super.interrupt();
        if (alsoOnItself || Thread.currentThread() != this) {
            throw new IllegalStateException(INJECTED);
        }
    }
}
