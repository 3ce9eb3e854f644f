package io.ants4j.primitives;

import org.junit.jupiter.api.Test;

/**
 * RWMutex.java:336 (sleep): "One that stops waiting leaves as {@link #leave} says; an {@link Error} (no memory for
 * the node or to park) passes on whatever was given to it, then propagates" (as Mutex's class javadoc promises:
 * "An Error thrown while a thread waits (no memory to park a virtual thread, for instance) passes on whatever was
 * given to it the same way"). A virtual reader behind a writer that cannot allocate its node leaves with no node;
 * when the writer's unlock has already counted it in, {@code leave} waits for the grant with {@code Thread.yield()}
 * (RWMutex.java ~416), which on a virtual thread on a full heap throws {@code OutOfMemoryError} (seen with
 * {@code -Xlog:exceptions=info}: thrown in Thread.yield, then leave). The reader's {@code lock()} throws, still
 * counted as a reader; the writer's grant becomes a stored permit: a read hold nobody has, and the write lock is
 * never free again. Runs {@link RWMutexLeaveYieldOnFullHeapProbe} in a JVM of its own with a small heap (it retries
 * the race for the queue lock that a round the writer wins ends cleanly; the reader wins it in a few rounds).
 */
class AVirtualReaderThatCannotQueueOnAFullHeapLeavesNoReadHoldTest {

    @Test
    void aVirtualReaderThatThrowsWhileLeavingOnAFullHeapLeavesTheWriteLockFree() throws Exception {
        LockTests.runOutOfMemoryProbe(RWMutexLeaveYieldOnFullHeapProbe.class, "virtual");
    }
}
