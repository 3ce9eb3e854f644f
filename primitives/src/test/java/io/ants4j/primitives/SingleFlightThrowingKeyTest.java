package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Class javadoc: "Then the key is removed ... a SingleFlight keeps nothing, neither values nor failures";
 * toString: "the number of keys with a call in flight". A key whose {@code equals} throws once, when the
 * completion's {@code remove(key, call)} compares it with a colliding key, leaves the completed call (and its
 * value) in the map, counted as in flight, until the next caller for that key comes, if one ever does.
 */
class SingleFlightThrowingKeyTest {

    /** A key whose hash collides with every other; its equals throws once after {@link #throwOnce}. */
    private static final class CollidingKey {
        final String name;
        final AtomicBoolean throwNext = new AtomicBoolean();

        CollidingKey(String name) {
            this.name = name;
        }

        void throwOnce() {
            throwNext.set(true);
        }

        @Override
        public int hashCode() {
            return 42;
        }

        @Override
        public boolean equals(Object o) {
            if (throwNext.compareAndSet(true, false)) {
                throw new IllegalStateException("equals could not compare (e.g. no memory for a moment)");
            }
            return o instanceof CollidingKey other && other.name.equals(name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @Test
    void aCompletedCallIsNoLongerInFlightThoughTheKeysEqualsThrewInItsRemoval() throws Exception {
        SingleFlight<CollidingKey, Object> flight = new SingleFlight<>();
        CollidingKey before = new CollidingKey("before");
        CollidingKey key = new CollidingKey("key");
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> earlier = flight.submit(before, () -> "other", held::set); // first in the bin
        try {
            Result<Object> ran = flight.run(key, () -> {
                key.throwOnce(); // the completion's remove(key, call) compares key with "before" first
                return "value";
            });
            assertEquals(new Result<>("value", false), ran);
            assertEquals("[keys in flight = 1]", flight.toString().substring(flight.toString().indexOf('[')),
                    "only the held call for \"before\" is in flight; the completed call for \"key\" is kept");
        } finally {
            held.get().run();
        }
        assertEquals(new Result<>("other", false), get(earlier));
    }
}
