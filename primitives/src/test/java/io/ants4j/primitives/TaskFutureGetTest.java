package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task's {@code Future} whose computation is complete answers {@code get} with its result, as
 * {@code FutureTask} does, even if the thread that completed it has not yet woken the getters
 * ({@link TaskFutureGetProbe}, in a JVM of its own).
 */
@Timeout(120)
class TaskFutureGetTest {

    /**
     * Future.get(timeout): "Waits if necessary for at most the given time for the computation to complete, and then
     * retrieves its result". The computation completed (isDone() true) well before the time was up.
     */
    @Test
    void aTimedGetWhoseTaskCompletedBeforeTheTimeoutReturnsTheResult() throws Exception {
        UnparkFailureTest.runProbe(TaskFutureGetProbe.class, "timed-get-after-completion");
    }

    /**
     * Future.get(): "Waits if necessary for the computation to complete, and then retrieves its result". Once
     * isDone() has returned true no wait is necessary: an interrupt that comes after it must not turn get() into an
     * InterruptedException (FutureTask returns the result: "We may have already promised (via isDone) that we are
     * done so never return empty-handed or throw InterruptedException").
     */
    @Test
    void aGetInterruptedAfterTheTaskCompletedReturnsTheResult() throws Exception {
        UnparkFailureTest.runProbe(TaskFutureGetProbe.class, "interrupted-get-after-completion");
    }
}
