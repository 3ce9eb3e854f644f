package io.ants4j.pool;

import org.junit.jupiter.api.Test;

/**
 * README "Failures": "Whatever a task throws, Errors included, goes to PoolOptions.panicHandler, or is logged ...;
 * the worker survives ... A handler that throws is logged once". On a full heap, a handler that throws ends the
 * worker instead, and its failure is never logged: {@code TaskFailures.report} builds the log message outside the
 * {@code try} that guards the logging. Runs {@link ThrowingHandlerOnFullHeapProbe} in a JVM of its own with a
 * small heap.
 */
class ThrowingHandlerOnFullHeapTest {

    @Test
    void aHandlerThatThrowsOnAFullHeapIsLoggedAndTheWorkerSurvives() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(ThrowingHandlerOnFullHeapProbe.class, "handler-throws");
    }

    /** The control: a handler that returns, on the same full heap; the worker survives (passes). */
    @Test
    void aHandlerThatReturnsOnAFullHeapLeavesTheWorkerAlive() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(ThrowingHandlerOnFullHeapProbe.class, "handler-returns");
    }
}
