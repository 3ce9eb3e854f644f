package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.eventually;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code invokeAny}'s javadoc: the tasks are handed over only while none has completed normally, and a task
 * whose hand-off was waiting for a worker when one completed normally never starts.
 */
class InvokeAnyHandOffTest {
    private static final int ROUNDS = 20;

    @ParameterizedTest(name = "timed={0}")
    @ValueSource(booleans = {false, true})
    void aTaskHandedOverAfterAnotherCompletedNormallyNeverStarts(boolean timed) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            try (Pool pool = Pool.newPool(1)) {
                CountDownLatch release = new CountDownLatch(1);
                AtomicBoolean secondStarted = new AtomicBoolean();
                List<Callable<String>> tasks = List.of(
                        () -> {
                            release.await(WAIT.toMillis(), MILLISECONDS);
                            return "first";
                        },
                        () -> {
                            secondStarted.set(true);
                            return "second";
                        });
                AtomicReference<Object> result = new AtomicReference<>();
                Thread caller = Thread.ofPlatform().start(() -> {
                    try {
                        result.set(timed ? pool.invokeAny(tasks, WAIT.toMillis(), MILLISECONDS)
                                : pool.invokeAny(tasks));
                    } catch (Throwable t) {
                        result.set(t);
                    }
                });
                eventually("invokeAny waits for a worker for the second task", () -> pool.waiting() == 1);
                release.countDown(); // the first completes normally while the second waits for a worker
                caller.join(WAIT.toMillis());
                assertFalse(caller.isAlive(), "invokeAny did not return");
                assertEquals("first", result.get());
                pool.release();
                assertEquals(true, pool.awaitTermination(WAIT.toMillis(), MILLISECONDS), "terminated");
                assertFalse(secondStarted.get(),
                        "round " + round + ": the second task started after the first had completed normally");
            }
        }
    }
}
