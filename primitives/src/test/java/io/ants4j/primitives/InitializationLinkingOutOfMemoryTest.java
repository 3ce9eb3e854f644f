package io.ants4j.primitives;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * README, "Failures": "A class first used on an exhausted heap may fail to initialize, as any class with a VarHandle
 * may, and the JVM then refuses it for good; ants4j adds nothing there that can fail (the linking of its call sites
 * is retried by the first constructor)". {@link ClassInitOutOfMemoryTest} holds it for the classes that link through
 * {@link CallSiteLinking}; {@link SpinLock} and {@link TaskGroup} still link in their class initialization, with
 * nothing to catch a failure: {@code SpinLock}'s locks and unlocks a throwaway lock, {@code TaskGroup}'s runs a
 * nested pair of tasks on a throwaway group and cancels it (and makes a virtual-thread factory and a lambda). On
 * an exhausted heap that initialization throws where the lookups alone would not, and the class is unusable for
 * good: every later {@code new SpinLock()} (and so every {@code WaitQueue}, behind every blocking primitive and
 * every pool) or {@code TaskGroup.create()} throws {@code NoClassDefFoundError}. Each case runs
 * {@link InitializationLinkingOutOfMemoryProbe} in a JVM of its own with a small heap.
 */
class InitializationLinkingOutOfMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"SpinLock", "TaskGroup"})
    void aPrimitiveWhoseInitializationRanOutOfMemoryCanBeUsedOnceMemoryIsBack(String primitive) throws Exception {
        LockTests.runOutOfMemoryProbe(InitializationLinkingOutOfMemoryProbe.class, primitive);
    }

    /**
     * The same with every class {@code TaskGroup} uses initialized before, with memory to spare: {@code TaskGroup}
     * has no {@code VarHandle} of its own, so its initialization looks nothing up; what runs out of memory is only
     * what it adds (the linking, the factory, the lambda).
     */
    @org.junit.jupiter.api.Test
    void aTaskGroupWhoseInitializationRanOutOfMemoryWithItsClassesReadyCanBeUsedOnceMemoryIsBack() throws Exception {
        LockTests.runOutOfMemoryProbe(InitializationLinkingOutOfMemoryProbe.class,
                "TaskGroup,SpinLock,WaitQueue,WaitQueue$Waiter,WaitGroup,TaskSlots,TaskRound,TaskMember");
    }

    /** Controls: classes whose initialization only looks their handles up. */
    @ParameterizedTest
    @ValueSource(strings = {"Mutex", "Sema"})
    void aPrimitiveThatOnlyLooksItsHandlesUpCanBeUsedOnceMemoryIsBack(String primitive) throws Exception {
        LockTests.runOutOfMemoryProbe(InitializationLinkingOutOfMemoryProbe.class, primitive);
    }
}
