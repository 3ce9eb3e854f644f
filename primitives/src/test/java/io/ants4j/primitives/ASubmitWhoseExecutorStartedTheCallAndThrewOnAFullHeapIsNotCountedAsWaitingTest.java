package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SingleFlight.submit(key, fn, executor) javadoc: "If {@code executor} throws, this method throws it, ... unless the
 * executor had already started the call's task, whose outcome then stands (this caller, given the executor's
 * throwable instead of the future, then counts as waiting for {@link Result#shared} if the call completed before
 * the executor threw)"; class javadoc: "shared: whether, when the call completed, more than one of its callers was
 * waiting for it". Review brief: an OutOfMemoryError at any allocation an operation makes.
 *
 * <p>When the executor started the task and then threw, submit marks its own future as no longer waiting with
 * {@code owner.cancel(false)}, which allocates (a CancellationException and its record) after the executor threw: on
 * a full heap (the executor's throwable an OutOfMemoryError, or any throwable while the heap is exhausted) the
 * cancel throws an OutOfMemoryError, which replaces the executor's throwable, and the future, which nobody holds, is
 * left pending: the completion, later, counts it as a caller waiting, and the one caller really waiting is told its
 * value was shared. The control (same path, heap not filled) passes.
 */
@Timeout(180)
class ASubmitWhoseExecutorStartedTheCallAndThrewOnAFullHeapIsNotCountedAsWaitingTest {
    private static final Class<?> PROBE =
            ASubmitWhoseExecutorStartedTheCallAndThrewOnAFullHeapIsNotCountedAsWaitingProbe.class;

    @Test
    void control() throws Exception {
        LockTests.runOutOfMemoryProbe(PROBE, "control");
    }

    @Test
    void aSubmitWhoseExecutorStartedTheCallAndThrewOnAFullHeapIsNotCountedAsWaiting() throws Exception {
        LockTests.runOutOfMemoryProbe(PROBE, "full-heap");
    }
}
