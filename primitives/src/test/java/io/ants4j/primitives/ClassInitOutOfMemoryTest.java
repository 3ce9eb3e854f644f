package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * README, "Failures": "A class first used on an exhausted heap may fail to initialize, as any class with a VarHandle
 * may, and the JVM then refuses it for good; ants4j adds nothing there that can fail (the linking of its call sites
 * is retried by the first constructor)". What a primitive's initialization does beyond the lookups of its
 * {@code VarHandle}s (running its call sites once, so that they are linked before any object has state; making
 * its default executor) must not leave the class unusable: once memory is back, objects of the class can be made.
 * Each case runs {@link ClassInitOutOfMemoryProbe} in a JVM of its own with a small heap.
 */
class ClassInitOutOfMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"WaitGroup", "Once", "RWMutex", "SingleFlight", "SpinLock", "TaskGroup"})
    void aPrimitiveWhoseInitializationRanOutOfMemoryCanBeUsedOnceMemoryIsBack(String primitive) throws Exception {
        LockTests.runOutOfMemoryProbe(ClassInitOutOfMemoryProbe.class, primitive);
    }

    /**
     * The same with every class {@code TaskGroup} uses initialized before, with memory to spare: {@code TaskGroup}
     * has no {@code VarHandle} of its own, so its initialization looks nothing up; what runs out of memory is only
     * what it adds.
     */
    @Test
    void aTaskGroupWhoseInitializationRanOutOfMemoryWithItsClassesReadyCanBeUsedOnceMemoryIsBack() throws Exception {
        LockTests.runOutOfMemoryProbe(ClassInitOutOfMemoryProbe.class,
                "TaskGroup,SpinLock,WaitQueue,WaitQueue$Waiter,WaitGroup,TaskSlots,TaskRound,TaskMember");
    }

    /** Controls: classes whose initialization only looks their handles up hold the probe's bound too. */
    @ParameterizedTest
    @ValueSource(strings = {"Mutex", "Sema"})
    void aPrimitiveThatOnlyLooksItsHandlesUpCanBeUsedOnceMemoryIsBack(String primitive) throws Exception {
        LockTests.runOutOfMemoryProbe(ClassInitOutOfMemoryProbe.class, primitive);
    }
}
