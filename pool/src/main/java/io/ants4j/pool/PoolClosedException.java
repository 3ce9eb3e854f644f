package io.ants4j.pool;

import java.io.Serial;
import java.util.concurrent.RejectedExecutionException;

/**
 * Thrown when a task is submitted to a closed pool, or to a blocked submitter when the pool it waits on is
 * closed (ants' {@code ErrPoolClosed}).
 */
public class PoolClosedException extends RejectedExecutionException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Creates an exception with the default message. */
    public PoolClosedException() {
        super("this pool has been closed");
    }

    /**
     * Creates an exception with the given message.
     *
     * @param message the detail message
     */
    public PoolClosedException(String message) {
        super(message);
    }
}
