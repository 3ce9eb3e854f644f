package io.ants4j.primitives;

import org.junit.jupiter.api.Test;

/**
 * TaskGroup.tryGo: "@return the task's Future, or empty if it would have had to wait"; class javadoc: a submission
 * that threw leaves a task that "is not part of the group: it never runs", unless the executor had already started it
 * when execute threw. tryGo allocates its {@code Optional} after the executor took the task; with the heap full then,
 * the call throws {@code OutOfMemoryError} for a task that runs and counts. Runs {@link TryGoOutOfMemoryProbe} in a
 * JVM of its own with a small heap.
 */
class TryGoOutOfMemoryTest {

    @Test
    void tryGoThatThrowsOutOfMemoryErrorLeftNoTaskRunningInTheGroup() throws Exception {
        LockTests.runOutOfMemoryProbe(TryGoOutOfMemoryProbe.class, "try-go");
    }
}
