package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * A call of a {@link SingleFlight} started by submit: the fields only it needs are kept out of a call of run, which
 * the uncontended path allocates.
 */
final class SubmittedCall<V> extends FlightCall<V> {
    /** Stages of a submitted call. */
    static final int PENDING = 0;
    static final int STARTED = 1;
    static final int REFUSED = 2;
    /** Started, then its executor threw: submit threw, and its future is nobody's. */
    static final int ABANDONED = 3;

    private static final VarHandle STAGE;

    static {
        try {
            STAGE = MethodHandles.lookup().findVarHandle(SubmittedCall.class, "stage", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The future of the submit that started the call. */
    final CompletableFuture<SingleFlight.Result<V>> owner;
    /**
     * PENDING until its task starts it (STARTED) or its executor refuses it (REFUSED); ABANDONED if the executor
     * threw after the task started it.
     */
    @SuppressWarnings("unused") // accessed through STAGE
    volatile int stage;

    SubmittedCall(Object key, int hash, CompletableFuture<SingleFlight.Result<V>> owner) {
        super(key, hash, null);
        this.owner = owner;
    }

    @Override
    CompletableFuture<SingleFlight.Result<V>> owner() {
        return owner;
    }

    @Override
    boolean ownerWaits() {
        return !owner.isDone() && (int) STAGE.getVolatile(this) != ABANDONED;
    }

    /** Moves the call's stage from {@code from} to {@code to}; returns whether this caller did. */
    boolean moveStage(int from, int to) {
        return STAGE.compareAndSet(this, from, to);
    }
}
