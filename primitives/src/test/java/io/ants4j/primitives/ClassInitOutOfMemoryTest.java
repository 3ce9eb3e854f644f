package io.ants4j.primitives;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A primitive first used on an exhausted heap: its class initialization may then run out of memory, which the JVM
 * records for good (every later use throws {@code NoClassDefFoundError}). What a primitive does there beyond the
 * lookups of its {@code VarHandle}s (running its call sites once, so that they are linked before any object has
 * state) must not make it unusable: once memory is back, objects of the class can be made. Each case runs
 * {@link ClassInitOutOfMemoryProbe} in a JVM of its own with a small heap. ({@code WaitQueue}, behind every
 * blocking primitive, is initialized by theirs: its linking needs too little more than its lookups to be told
 * apart from them here.)
 */
class ClassInitOutOfMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"WaitGroup", "Once", "RWMutex", "SingleFlight"})
    void aPrimitiveWhoseInitializationRanOutOfMemoryCanBeUsedOnceMemoryIsBack(String primitive) throws Exception {
        LockTests.runOutOfMemoryProbe(ClassInitOutOfMemoryProbe.class, primitive);
    }
}
