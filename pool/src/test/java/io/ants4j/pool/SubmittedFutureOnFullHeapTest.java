package io.ants4j.pool;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The pool's {@code submit} (ExecutorService: "Returns a Future representing pending completion of the task"; a
 * getter waits "if necessary for the computation to complete") returns a {@code FutureTask}, whose completion wakes
 * its getters through a {@code VarHandle} call site that only a completion with a getter waiting runs. Run first by
 * a pool's worker after a task that left the heap full, it throws after the future is done, and the getter is never
 * woken. The JDK's own executors share this; the pool links its own call sites (PoolCore.linkStateChanges) but not
 * those of the future it returns. Runs {@link SubmittedFutureOnFullHeapProbe} in a JVM of its own with a small heap.
 */
class SubmittedFutureOnFullHeapTest {

    @Disabled("a documented JDK hazard (docs/testing.md, FutureCompletionLinkTest: 'a JDK hazard, not a pool defect');"
            + " shown here through the pool's own submit, which does not link the path")
    @Test
    void aGetterOfTheJvmsFirstCompletedSubmitIsWokenOnAFullHeap() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(SubmittedFutureOnFullHeapProbe.class, "submit-get");
    }

    /** The control: a FutureTask with a waiting getter completed first, with memory to spare; passes. */
    @Test
    void theSameWithAGetterWokenBeforeReturns() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(SubmittedFutureOnFullHeapProbe.class, "submit-get-linked");
    }
}
