package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * {@link PoolOptions#name()}: a pool made without a name "gets a name of its own, {@code ants4j-pool-N}, {@code N}
 * counting up from 1 the pools of this JVM named so (a construction that throws may use a number up, so the numbers
 * need not follow one another)". The factories take the number before the constructor checks its arguments; review
 * 40 found the javadoc saying {@code N} "counts the pools made" (this test, first written to show the gap a failed
 * construction leaves), and the javadoc now says it: numbers count up, unique, with gaps allowed.
 */
class PoolNumbersCountUpAndAFailedConstructionMayUseOneTest {

    private static int number(WorkerPool p) {
        return Integer.parseInt(p.name().substring("ants4j-pool-".length()));
    }

    @Test
    void theNextPoolMadeHasAHigherNumberAlsoAfterFailedConstructions() throws Exception {
        PoolOptions preAlloc = PoolOptions.builder().preAlloc(true).build();
        int before;
        try (Pool first = Pool.newPool(1)) {
            before = number(first);
        }
        assertThrows(IllegalArgumentException.class, () -> Pool.newPool(0, preAlloc));
        assertThrows(IllegalArgumentException.class, () -> MultiPool.newMultiPool(0, 1, LoadBalancing.ROUND_ROBIN));
        assertThrows(NullPointerException.class, () -> PoolWithFunc.newPool(1, null));
        try (Pool next = Pool.newPool(1)) {
            assertTrue(number(next) > before, "the next pool made after ants4j-pool-" + before + " is " + next.name());
        }
    }
}
