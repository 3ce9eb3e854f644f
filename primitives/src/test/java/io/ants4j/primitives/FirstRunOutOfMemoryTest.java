package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The first run in a JVM of a path that changes a primitive's state links its {@code VarHandle} call sites,
 * which allocates: on an exhausted heap that first run must still complete its work or fail before changing
 * anything. Each case runs {@link FirstRunOutOfMemoryProbe} in a JVM of its own with a small heap and no
 * warm-up.
 */
class FirstRunOutOfMemoryTest {

    /** The first grant to a parked waiter, made on a full heap, reaches the waiter. */
    @ParameterizedTest
    @ValueSource(strings = {"mutex-unlock", "read-unlock", "semaphore-release", "waitgroup-done"})
    void firstGrantToAParkedWaiterOnAFullHeapWakesIt(String probe) throws Exception {
        LockTests.runOutOfMemoryProbe(FirstRunOutOfMemoryProbe.class, probe);
    }

    /** The first action of a {@link Once} that fills the heap is done: it neither runs again nor hangs. */
    @ParameterizedTest
    @ValueSource(strings = {"once-run", "once-func"})
    void firstOnceActionThatFillsTheHeapIsDone(String probe) throws Exception {
        LockTests.runOutOfMemoryProbe(FirstRunOutOfMemoryProbe.class, probe);
    }

    /** The first task of a {@link TaskGroup}, started on a full heap, does not stay counted: await returns. */
    @Test
    void firstTaskOfATaskGroupOnAFullHeapIsNotCountedForGood() throws Exception {
        LockTests.runOutOfMemoryProbe(FirstRunOutOfMemoryProbe.class, "task-run");
    }

    /** The first lock of an {@link RWMutex}, a write lock on a full heap, takes it or leaves it free. */
    @Test
    void firstWriteLockOnAFullHeapTakesTheLockOrLeavesItFree() throws Exception {
        LockTests.runOutOfMemoryProbe(FirstRunOutOfMemoryProbe.class, "write-lock");
    }
}
