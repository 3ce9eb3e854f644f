package io.ants4j.pool;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Review 36. The timed bulk calls on a closed pool, with a timeout that has already elapsed (zero or negative).
 *
 * <p>Contract, {@code AbstractPoolExecutor.invokeAny(Collection, long, TimeUnit)} (AbstractPoolExecutor.java:219): "@throws RejectedExecutionException {@link PoolClosedException} if the
 * pool is closed", and {@code invokeAll(Collection, long, TimeUnit)} (line 171) the same. A
 * {@code ThreadPoolExecutor} that is shut down throws {@code RejectedExecutionException} from the timed
 * {@code invokeAny} whatever the timeout (its {@code doInvokeAny} submits the first task before it looks at the
 * clock).
 *
 * <p>What happens: {@code handOff} never asks the pool when the deadline has passed, so on a closed pool the timed
 * {@code invokeAny} throws {@code TimeoutException} ("no task completed before the timeout") and the timed
 * {@code invokeAll} returns cancelled futures, as if the pool were open and merely busy: the caller is told to
 * retry with a longer timeout, not that the pool is closed.
 */
class ATimedBulkCallOnAClosedPoolThrowsPoolClosedExceptionTest {

    static Stream<Supplier<ExecutorService>> pools() {
        return Stream.of(() -> Pool.newPool(2), () -> MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN));
    }

    @ParameterizedTest
    @MethodSource("pools")
    void timedInvokeAnyWithAnElapsedTimeoutOnAClosedPoolThrowsPoolClosedException(Supplier<ExecutorService> maker)
            throws Exception {
        ExecutorService pool = maker.get();
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS));
        List<Callable<String>> tasks = List.of(() -> "a");
        assertThrows(PoolClosedException.class, () -> pool.invokeAny(tasks, 0, MILLISECONDS),
                "invokeAny(tasks, 0 ms) on a closed pool");
        assertThrows(PoolClosedException.class, () -> pool.invokeAny(tasks, -1, MILLISECONDS),
                "invokeAny(tasks, -1 ms) on a closed pool");
    }

    @ParameterizedTest
    @MethodSource("pools")
    void timedInvokeAllWithAnElapsedTimeoutOnAClosedPoolThrowsPoolClosedException(Supplier<ExecutorService> maker)
            throws Exception {
        ExecutorService pool = maker.get();
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS));
        List<Callable<String>> tasks = List.of(() -> "a");
        assertThrows(PoolClosedException.class, () -> pool.invokeAll(tasks, 0, MILLISECONDS),
                "invokeAll(tasks, 0 ms) on a closed pool");
    }
}
