package io.ants4j.pool;

import java.util.function.Consumer;

/**
 * Where the failures of one pool's tasks (and of its purger and ticker) go: the {@linkplain PoolOptions#panicHandler() panic handler}, else the
 * {@linkplain PoolOptions#logger() logger} at {@code ERROR}, else the worker thread's uncaught-exception
 * handler. Never throws, so a failure cannot end a worker.
 *
 * <p>Implementation notes. No throwable of a task, handler or logger is changed: they are the user's objects (one
 * instance may be thrown again and again, and would collect what was attached to it without bound). A handler that
 * throws is logged as the cause of a {@link HandlerFailure} of ours, with the task's throwable suppressed in it, or
 * alone if there is no memory for that (a handler that rethrew the task's throwable: that throwable, as it is); a
 * logger that throws hands the throwable it was given to the uncaught-exception handler, and its own failure is
 * dropped.
 */
final class TaskFailures {
    /**
     * The message of a panic handler's failure when there is no memory for the pool's. Read from a field: a string
     * literal is made when the code using it first runs, which may be on that exhausted heap.
     */
    private static final String HANDLER_THREW;
    /** Read here, when a pool is made: the first read of the enum initializes it, which allocates. */
    private static final System.Logger.Level ERROR = System.Logger.Level.ERROR;

    static {
        HANDLER_THREW = "a pool's panicHandler threw while handling a task failure";
    }

    private final String pool;
    private final PoolOptions options;

    /** The failures of the pool named {@code pool}, reported as {@code options} say. */
    TaskFailures(String pool, PoolOptions options) {
        this.pool = pool;
        this.options = options;
    }

    /** Hands a task's failure to the panic handler, or logs it; never throws. */
    void report(Throwable failure) {
        Consumer<? super Throwable> handler = options.panicHandler();
        if (handler == null) {
            log(failure, null);
            return;
        }
        try {
            handler.accept(failure);
        } catch (Throwable handlerFailure) {
            String message = handlerThrew();
            // a handler that rethrows the task's throwable reports it as it is
            log(handlerFailure == failure ? failure : handlerFailed(message, handlerFailure, failure), message);
        }
    }

    /** What a panic handler threw while handling a task's failure, suppressed in it; a report of ours. */
    static final class HandlerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandlerFailure(String message, Throwable handlerFailure, Throwable taskFailure) {
            super(message, handlerFailure, true, false); // the handler's own trace says where it failed
            addSuppressed(taskFailure);
        }
    }

    /** A {@link HandlerFailure}; the handler's throwable alone if there is no memory for one. */
    private static Throwable handlerFailed(String message, Throwable handlerFailure, Throwable taskFailure) {
        try {
            return new HandlerFailure(message, handlerFailure, taskFailure);
        } catch (Throwable noMemory) {
            return handlerFailure;
        }
    }

    /** The message of a panic handler's failure; {@link #HANDLER_THREW} if there is no memory to make it. */
    private String handlerThrew() {
        try {
            return "the panicHandler of " + pool + " threw while handling a task failure";
        } catch (Throwable noMemory) {
            return HANDLER_THREW;
        }
    }

    /**
     * Logs the failure of one of the pool's background tasks (purger, ticker) as {@code message} says, or hands
     * it to the thread's uncaught-exception handler if the logger throws; never throws, so the task goes on.
     */
    void reportBackground(Throwable failure, String message) {
        log(failure, message);
    }

    /**
     * Logs a failure met by a caller of the pool that goes on (an interrupt that threw in {@code shutdownNow});
     * never throws. If the logger throws, the failure is dropped: the caller's thread did not die of it, so its
     * uncaught-exception handler is no place for it.
     */
    void reportOnCaller(Throwable failure, String message) {
        try {
            options.logger().log(ERROR, message, failure);
        } catch (Throwable loggerFailure) {
            // nowhere else to report to
        }
    }

    /**
     * Logs {@code t} at {@code ERROR} ({@code message} null: a task failure); if the logger throws, hands
     * {@code t} to the worker thread's uncaught-exception handler instead, as if the thread had died of it.
     */
    private void log(Throwable t, String message) {
        try {
            if (message == null) {
                options.logger().log(ERROR,
                        () -> "task failed in " + pool + " worker " + Thread.currentThread().getName(), t);
            } else {
                options.logger().log(ERROR, message, t);
            }
        } catch (Throwable loggerFailure) {
            Thread self = Thread.currentThread();
            try {
                self.getUncaughtExceptionHandler().uncaughtException(self, t);
            } catch (Throwable lastResort) {
                // nowhere left to report to
            }
        }
    }

}
