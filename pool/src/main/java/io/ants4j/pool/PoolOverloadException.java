package io.ants4j.pool;

import java.io.Serial;
import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when a task is submitted while no worker is free and the submitter may not block: the pool is
 * {@linkplain PoolOptions#nonblocking() non-blocking}, or {@linkplain PoolOptions#maxBlockingTasks()
 * maxBlockingTasks} submitters already wait (ants' {@code ErrPoolOverload}).
 */
public class PoolOverloadException extends RejectedExecutionException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Creates an exception with the default message. */
    public PoolOverloadException() {
        super("too many goroutines blocked on submit or Nonblocking is set");
    }

    /**
     * Creates an exception with the given message.
     *
     * @param message the detail message
     */
    public PoolOverloadException(String message) {
        super(message);
    }
}
