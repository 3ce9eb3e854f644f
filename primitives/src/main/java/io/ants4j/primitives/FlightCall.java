package io.ants4j.primitives;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;

/**
 * A call of a {@link SingleFlight} in flight or completed (of run; a submitted call is a {@link SubmittedCall}), and
 * its entry in the table of the calls in flight; see the implementation notes of {@link SingleFlight}.
 */
class FlightCall<V> extends CallTable.Entry {
    /** The thread running the function: set before it runs; read to detect a recursive run. */
    Thread runner;
    /** The stack of the callers that joined the call; read and written under the lock of its stripe. */
    JoinedCaller joined;
    /** Whether, at the completion, more than one caller waited for the outcome: for the caller of run. */
    boolean shared;
    /**
     * Whether the completing thread's interrupt status was set before or during the hand-over; written and
     * read by that thread only.
     */
    boolean interruptedDuringHandOver;

    FlightCall(Object key, int hash, Thread runner) {
        super(key, hash);
        this.runner = runner;
    }

    /** The future of the submit that started the call; null for a call of run. */
    CompletableFuture<SingleFlight.Result<V>> owner() {
        return null;
    }

    /** Whether the caller that started the call waits for its outcome: the caller of run always does. */
    boolean ownerWaits() {
        return true;
    }

    /** Pushes {@code node} onto the stack of the callers that joined; under the lock of the call's stripe. */
    void join(JoinedCaller node) {
        node.next = joined;
        joined = node;
    }

    /**
     * Hands the outcome, {@code value} or {@code failure}, to the callers on {@code joined} and to the
     * owner's future: counts those still waiting (the waiting threads claimed, so that they can no longer
     * leave), makes the result, then gives it to the threads and wakes them, then completes the futures.
     * Returns the result (null after a failure, or if there was no memory for it). What one step throws
     * does not stop the others, and is not rethrown: it concerns the caller it failed to reach.
     */
    SingleFlight.Result<V> handOver(JoinedCaller joined, V value, Throwable failure) {
        CompletableFuture<SingleFlight.Result<V>> owner = owner();
        int waiting = ownerWaits() ? 1 : 0;
        for (JoinedCaller node = joined; node != null; node = node.next) {
            if (node.waiter instanceof Thread ? node.move(JoinedCaller.WAITING, JoinedCaller.CLAIMED)
                    : !((CompletableFuture<?>) node.waiter).isDone()) {
                waiting++;
            }
        }
        shared = waiting > 1;
        SingleFlight.Result<V> result = null;
        Throwable noResult = null;
        if (failure == null) {
            try {
                result = new SingleFlight.Result<>(value, shared);
            } catch (Throwable t) {
                noResult = t; // the waiting threads make their own; the futures are failed with it
            }
        }
        for (JoinedCaller node = joined; node != null; node = node.next) {
            if (node.waiter instanceof Thread thread && node.state == JoinedCaller.CLAIMED) {
                node.result = result;
                node.value = value;
                node.failure = failure;
                node.shared = shared;
                node.state = JoinedCaller.GIVEN;
                try {
                    LockSupport.unpark(thread);
                } catch (Throwable lost) {
                    // the JDK could not schedule that (virtual) thread: it is lost, the others are not
                }
            }
        }
        Throwable futureFailure = null; // made for the first future, given to every one
        for (JoinedCaller node = joined; node != null; node = node.next) {
            if (node.waiter instanceof CompletableFuture<?> future) {
                futureFailure = completeQuietly(future, result, failure, noResult, futureFailure);
            }
        }
        if (owner != null) {
            completeQuietly(owner, result, failure, noResult, futureFailure);
        }
        return result;
    }

    /**
     * Completes {@code future} with the outcome: {@code result}, or {@code failure} (with {@code noResult},
     * the error that kept the result from being made, if it was). Completing may fail on a heap the function
     * exhausted; the future is then failed with that if it can be. Returns {@code futureFailure}, the
     * function's throwable as futures are failed with it, made by the first call that needs it (see
     * {@link #futureFailure}).
     */
    private Throwable completeQuietly(CompletableFuture<?> future, SingleFlight.Result<V> result, Throwable failure,
            Throwable noResult, Throwable futureFailure) {
        @SuppressWarnings("unchecked")
        CompletableFuture<SingleFlight.Result<V>> taker = (CompletableFuture<SingleFlight.Result<V>>) future;
        if (Thread.interrupted()) { // kept from the next caller's dependents, set again after the hand-over
            interruptedDuringHandOver = true;
        }
        try {
            if (failure != null) {
                if (futureFailure == null) {
                    futureFailure = futureFailure(failure);
                }
                taker.completeExceptionally(futureFailure);
            } else if (result != null) {
                taker.complete(result);
            } else {
                taker.completeExceptionally(noResult);
            }
        } catch (Throwable t) {
            try {
                taker.completeExceptionally(t);
            } catch (Throwable ignored) {
                // no memory even for that: this future stays incomplete (see the implementation notes)
            }
        }
        return futureFailure;
    }

    /**
     * What a future is failed with: the function's throwable in a {@link CompletionException}, made once
     * per completion,
     * so that {@code get} reports that throwable itself as the cause of its {@code ExecutionException},
     * whatever it is (a {@code CancellationException} alone would read as a cancelled wait, and a
     * {@code CompletionException} alone would be unwrapped); the throwable itself if there is no memory
     * for the wrapper.
     */
    private static Throwable futureFailure(Throwable failure) {
        try {
            return new CompletionException(failure);
        } catch (Throwable noMemory) {
            return failure;
        }
    }

    /**
     * Waits until the completion gives {@code node} the outcome, then returns it; leaves on an
     * interrupt unless the completion claimed it first.
     */
    SingleFlight.Result<V> awaitOutcome(JoinedCaller node) throws ExecutionException, InterruptedException {
        Thread self = Thread.currentThread();
        for (int state; (state = node.state) != JoinedCaller.GIVEN; ) {
            if (state == JoinedCaller.WAITING && self.isInterrupted()
                    && node.move(JoinedCaller.WAITING, JoinedCaller.LEFT)) {
                InterruptedException interrupted = new InterruptedException();
                Thread.interrupted();
                throw interrupted;
            }
            LockSupport.park(this);
        }
        return node.outcome();
    }
}
