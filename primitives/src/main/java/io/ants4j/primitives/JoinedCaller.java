package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ExecutionException;

/** A caller that joined a call of a {@link SingleFlight}: a waiting thread, or the future of a submit. */
final class JoinedCaller {
    /** States of a waiting thread's node. */
    static final int WAITING = 0;
    static final int LEFT = 1;
    static final int CLAIMED = 2;
    static final int GIVEN = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(JoinedCaller.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The waiting thread, or the future of a submit. */
    final Object waiter;
    /** Of a waiting thread: WAITING, then LEFT, or CLAIMED and GIVEN (see the implementation notes). */
    @SuppressWarnings("unused") // accessed through STATE
    volatile int state;
    /** The node pushed before; written by the join, read by the completion that took the stack, each under the lock. */
    JoinedCaller next;
    /**
     * Of a waiting thread: the outcome, written by the hand-over before it sets the state GIVEN, read by
     * the thread after it sees GIVEN: the result every caller is given (null if there was no memory for it),
     * the value and whether it was shared (to make its own then), or the function's throwable.
     */
    SingleFlight.Result<?> result;
    Object value;
    Throwable failure;
    boolean shared;

    JoinedCaller(Object waiter) {
        this.waiter = waiter;
    }

    /** Moves the node's state from {@code from} to {@code to}; returns whether this caller did. */
    boolean move(int from, int to) {
        return STATE.compareAndSet(this, from, to);
    }

    /** The outcome given to this waiting thread: its result, or {@link ExecutionException}. */
    @SuppressWarnings("unchecked")
    <V> SingleFlight.Result<V> outcome() throws ExecutionException {
        if (failure != null) {
            throw new ExecutionException(failure);
        }
        return result != null ? (SingleFlight.Result<V>) result : new SingleFlight.Result<>((V) value, shared);
    }
}
