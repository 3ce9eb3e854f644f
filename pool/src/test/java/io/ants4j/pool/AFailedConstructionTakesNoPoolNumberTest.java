package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Contract (PoolOptions, class javadoc table, {@code name()} row): "{@code ants4j-pool-N} ... {@code N} counts the
 * pools made in this JVM"; and {@link PoolOptions#name()}: "each pool made with these options then gets a name of
 * its own, {@code ants4j-pool-N}, {@code N} counting from 1 the pools of this JVM named so".
 *
 * <p>A construction that throws (preAlloc with an unlimited capacity; a multi-pool with no sub-pools) makes no
 * pool, yet {@code Pool.newPool} and {@code MultiPool.newMultiPool} (and the func variants) take the next number
 * ({@code options.nameOfNewPool()}) before the constructor checks its arguments: the next pool made skips one
 * number per failed construction (here 2 -> 4; {@code PoolWithFunc.newPool(1, null)} checks {@code fn} first and
 * takes none). Review 40. Another test making a pool in parallel would disturb the count; surefire here runs
 * test classes one at a time (no parallel configuration).
 */
class AFailedConstructionTakesNoPoolNumberTest {

    private static int number(WorkerPool p) {
        return Integer.parseInt(p.name().substring("ants4j-pool-".length()));
    }

    @Test
    void aPoolThatCannotBeMadeTakesNoNumber() throws Exception {
        PoolOptions preAlloc = PoolOptions.builder().preAlloc(true).build();
        int before;
        try (Pool first = Pool.newPool(1)) {
            before = number(first);
        }
        assertThrows(IllegalArgumentException.class, () -> Pool.newPool(0, preAlloc));
        assertThrows(IllegalArgumentException.class, () -> MultiPool.newMultiPool(0, 1, LoadBalancing.ROUND_ROBIN));
        assertThrows(NullPointerException.class, () -> PoolWithFunc.newPool(1, null));
        try (Pool next = Pool.newPool(1)) {
            assertEquals(before + 1, number(next),
                    "the next pool made is ants4j-pool-" + (before + 1) + ", but failed constructions took numbers: "
                            + next.name());
        }
    }
}
