package io.ants4j.pool;

import org.junit.jupiter.api.Test;

/**
 * The first pool of a JVM made on an exhausted heap: the initialization of its fast lane's class may then run out
 * of memory, which the JVM records for good (every later pool would throw {@code NoClassDefFoundError}). What the
 * lane does there beyond the lookup of its {@code VarHandle} (running its call sites once, so that they are linked
 * before any worker spins) must not make it unusable, nor keep a token of the JVM's lane budget.
 */
class LaneInitializationOutOfMemoryTest {

    @Test
    void aLaneWhoseInitializationRanOutOfMemoryCanBeMadeOnceMemoryIsBack() throws Exception {
        LifecycleOutOfMemoryTest.runProbe(LaneInitializationOutOfMemoryProbe.class, "lane");
    }
}
