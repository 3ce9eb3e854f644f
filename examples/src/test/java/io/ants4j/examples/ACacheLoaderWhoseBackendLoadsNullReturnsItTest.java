package io.ants4j.examples;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review 57. The contract (examples/src/main/java/io/ants4j/examples/CacheLoader.java:47-49, 81-88):
 * {@code backend} "loads the value of a key (a database query, a remote call); may throw", and {@code get}
 * "Returns the value of {@code key}: from the cache, or loaded by the backend", throwing
 * {@code ExecutionException} only "if the backend failed". {@code SingleFlight}, which the example shows off, says
 * "{@code null} is a value" (SingleFlight.java:44), and a {@code java.util.function.Function} may return null.
 *
 * <p>A backend that loads {@code null} did not fail, yet {@code get} throws {@code ExecutionException} caused by
 * the {@code NullPointerException} of {@code ConcurrentHashMap.put(key, null)} inside the load: the backend's
 * answer is lost for every request that waited for it, and the backend is asked again by the next miss.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ACacheLoaderWhoseBackendLoadsNullReturnsItTest {

    @Test
    void aBackendThatLoadsNullIsNotAFailure() {
        AtomicInteger queries = new AtomicInteger();
        CacheLoader<String, String> users = new CacheLoader<>(id -> {
            queries.incrementAndGet();
            return null; // "no such user": an answer, not a failure
        });
        String got = assertDoesNotThrow(() -> users.get("404"),
                "the backend answered null (it did not fail), but get threw");
        assertNull(got);
        assertEquals(1, queries.get());
    }
}
