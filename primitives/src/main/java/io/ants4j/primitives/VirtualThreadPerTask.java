package io.ants4j.primitives;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * Runs each task in a virtual thread of its own, named {@code prefix + n}: the default executor of
 * {@link TaskGroup} and {@link SingleFlight#submit(Object, java.util.concurrent.Callable)}.
 *
 * <p>Its thread factory is made by the first task, not when the class using it initializes, which must not fail
 * for it (see {@link CallSiteLinking}); nor is it a lambda, whose first creation allocates far more than an object
 * does.
 */
final class VirtualThreadPerTask implements Executor {
    private final String prefix;
    private volatile ThreadFactory threads;

    VirtualThreadPerTask(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void execute(Runnable task) {
        ThreadFactory t = threads;
        (t != null ? t : threads()).newThread(task).start();
    }

    private synchronized ThreadFactory threads() {
        if (threads == null) {
            threads = Thread.ofVirtual().name(prefix, 0).factory();
        }
        return threads;
    }
}
