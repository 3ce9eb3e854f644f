package io.ants4j.pool;

import org.junit.jupiter.api.Test;

/**
 * {@code invokeAny} whose worker runs out of memory as it records a completed task: the caller still gets the
 * result. Each case runs {@link InvokeAnyOutOfMemoryProbe} in a JVM of its own with a small heap, where the task
 * fills the heap before it returns.
 */
class InvokeAnyOutOfMemoryTest {

    @Test
    void poolInvokeAnyReturnsWhenRecordingTheCompletionFindsTheHeapFull() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(InvokeAnyOutOfMemoryProbe.class, "Pool");
    }

    @Test
    void multiPoolInvokeAnyReturnsWhenRecordingTheCompletionFindsTheHeapFull() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(InvokeAnyOutOfMemoryProbe.class, "MultiPool");
    }
}
