package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.TaskGroup;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A {@link TaskGroup} on a bounded {@link Pool}: the pool's blocking submit composes with the group's limit. */
class TaskGroupOnPoolTest {

    @ParameterizedTest(name = "limit {0}, pool capacity {1}")
    @CsvSource({"8, 2", "2, 8", "4, 4"})
    void theGroupsLimitAndThePoolsCapacityBothHold(int limit, int capacity) throws Exception {
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        try (Pool pool = Pool.newPool(capacity); TaskGroup<Integer> group = TaskGroup.create(limit, pool)) {
            for (int i = 0; i < 500; i++) {
                int id = i;
                group.go(() -> {
                    most.accumulateAndGet(now.incrementAndGet(), Math::max);
                    Thread.yield();
                    now.decrementAndGet();
                    return id;
                });
            }
            assertEquals(IntStream.range(0, 500).boxed().toList(), group.await());
            assertTrue(most.get() <= Math.min(limit, capacity), most.get() + " ran at once");
        }
    }

    @ParameterizedTest(name = "limit {0}, pool capacity {1}")
    @CsvSource({"8, 2", "2, 8"})
    void aFailureOnThePoolCancelsTheGroupAndThePoolGoesOn(int limit, int capacity) throws Exception {
        try (Pool pool = Pool.newPool(capacity)) {
            TaskGroup<Integer> group = TaskGroup.create(limit, pool);
            for (int i = 0; i < 100; i++) {
                int id = i;
                group.go(() -> {
                    if (id == 50) {
                        throw new IllegalStateException("task 50");
                    }
                    return id;
                });
            }
            ExecutionException e = assertThrows(ExecutionException.class, group::await);
            assertEquals("task 50", e.getCause().getMessage());
            assertEquals(7, pool.submit(() -> 7).get(10, TimeUnit.SECONDS), "the pool runs other work afterwards");
        }
    }
}
