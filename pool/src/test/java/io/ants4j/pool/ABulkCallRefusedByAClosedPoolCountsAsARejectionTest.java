package io.ants4j.pool;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Review 38. A timed {@code invokeAll}/{@code invokeAny} refused by a closed pool, counted in {@code stats()}.
 *
 * <p>Contract, {@code PoolStats} (PoolStats.java:12): "{@code rejected} submissions refused: closed pool,
 * overload, interrupted or timed-out waits, ..."; {@code AbstractWorkerPool}'s notes (AbstractWorkerPool.java:14):
 * "Every submission of every pool goes through submitPayload or trySubmitPayload, so submissions and rejections
 * are counted in this one place"; the JFR event {@code ants4j.SubmitRejected} (PoolEvents.java:25): "a
 * submission was refused; reason is closed, ...". The timed bulk calls throw {@link PoolClosedException} on a
 * closed pool (their {@code @throws}, AbstractPoolExecutor.java:171 and :219).
 *
 * <p>What happens: with a positive timeout the refusal goes through {@code trySubmitPayload}, and
 * {@code stats().rejected()} counts it (and JFR records it); with a timeout that has already elapsed (zero, or
 * negative), {@code handOff} throws the {@code PoolClosedException} itself (AbstractPoolExecutor.java:334), past
 * the one place that counts: the same call, refused by the same closed pool with the same exception, counts one
 * rejection or none depending on its timeout, and records no {@code SubmitRejected} event.
 */
class ABulkCallRefusedByAClosedPoolCountsAsARejectionTest {

    static Stream<Supplier<AbstractPoolExecutor>> pools() {
        return Stream.of(() -> Pool.newPool(2), () -> MultiPool.newMultiPool(2, 2, LoadBalancing.ROUND_ROBIN));
    }

    @ParameterizedTest
    @MethodSource("pools")
    void aTimedBulkCallThatAClosedPoolRefusesCountsOneRejectionWhateverItsTimeout(
            Supplier<AbstractPoolExecutor> maker) throws Exception {
        AbstractPoolExecutor pool = maker.get();
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        List<Callable<String>> tasks = List.of(() -> "a");

        long before = pool.stats().rejected();
        assertThrows(PoolClosedException.class, () -> pool.invokeAll(tasks, 1, MILLISECONDS));
        long afterPositive = pool.stats().rejected();
        assertThrows(PoolClosedException.class, () -> pool.invokeAll(tasks, 0, MILLISECONDS));
        long afterZeroAll = pool.stats().rejected();
        assertThrows(PoolClosedException.class, () -> pool.invokeAny(tasks, 0, MILLISECONDS));
        long afterZeroAny = pool.stats().rejected();

        assertAll(
                () -> assertEquals(before + 1, afterPositive,
                        "invokeAll(tasks, 1 ms) refused by the closed pool: one rejection"),
                () -> assertEquals(afterPositive + 1, afterZeroAll,
                        "invokeAll(tasks, 0 ms) refused by the closed pool with the same PoolClosedException:"
                                + " one rejection as well"),
                () -> assertEquals(afterZeroAll + 1, afterZeroAny,
                        "invokeAny(tasks, 0 ms) refused by the closed pool: one rejection as well"));
    }
}
