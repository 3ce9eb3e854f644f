package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Class javadoc: "The key's hashCode, and its equals with the keys in flight, run in the calling thread of run,
 * submit and forget; what they throw, the method throws, with nothing changed. Removing a completed call's key
 * calls no method of the key." And: "a SingleFlight keeps nothing, neither values nor failures"; toString: "the
 * number of keys with a call in flight".
 */
class SingleFlightThrowingKeyTest {

    /**
     * A key whose hash collides with every other; its hashCode throws while {@link #hashThrows} is set, its equals
     * while {@link #equalsThrows} is.
     */
    private static final class CollidingKey {
        final String name;
        final AtomicBoolean hashThrows = new AtomicBoolean();
        final AtomicBoolean equalsThrows = new AtomicBoolean();

        CollidingKey(String name) {
            this.name = name;
        }

        @Override
        public int hashCode() {
            if (hashThrows.get()) {
                throw new IllegalStateException("hashCode of a broken key");
            }
            return 42;
        }

        @Override
        public boolean equals(Object o) {
            if (equalsThrows.get()) {
                throw new IllegalStateException("equals of a broken key");
            }
            return o instanceof CollidingKey other && other.name.equals(name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static String counted(SingleFlight<?, ?> flight) {
        String shown = flight.toString();
        return shown.substring(shown.indexOf('['));
    }

    @Test
    void theCompletionCallsNoMethodOfTheKey() throws Exception {
        SingleFlight<CollidingKey, Object> flight = new SingleFlight<>();
        CollidingKey before = new CollidingKey("before");
        CollidingKey key = new CollidingKey("key");
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> earlier = flight.submit(before, () -> "other", held::set); // in the bin
        try {
            Result<Object> ran = flight.run(key, () -> {
                key.hashThrows.set(true); // from here on, any call of the key's equals or hashCode throws
                key.equalsThrows.set(true);
                return "value";
            });
            assertEquals(new Result<>("value", false), ran);
            assertEquals("[keys in flight = 1]", counted(flight), "only the held call for \"before\" is in flight");
            key.hashThrows.set(false);
            key.equalsThrows.set(false);
            assertEquals(new Result<>("again", false), flight.run(key, () -> "again"), "nothing was kept");
        } finally {
            held.get().run();
        }
        assertEquals(new Result<>("other", false), get(earlier));
        assertEquals("[keys in flight = 0]", counted(flight));
    }

    @Test
    void aRunOrSubmitWhoseKeyThrowsThrowsItWithNothingChanged() throws Exception {
        SingleFlight<CollidingKey, Object> flight = new SingleFlight<>();
        CollidingKey before = new CollidingKey("before");
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> earlier = flight.submit(before, () -> "other", held::set);
        try {
            CollidingKey key = new CollidingKey("key");
            key.hashThrows.set(true);
            AtomicBoolean called = new AtomicBoolean();
            IllegalStateException fromRun = assertThrows(IllegalStateException.class,
                    () -> flight.run(key, () -> called.getAndSet(true)));
            assertEquals("hashCode of a broken key", fromRun.getMessage());
            assertThrows(IllegalStateException.class, () -> flight.submit(key, () -> called.getAndSet(true), Runnable::run));
            assertFalse(called.get(), "a function was called for a key that could not be registered");
            assertEquals("[keys in flight = 1]", counted(flight));

            // equals, not hashCode: the key meets "before" in its bin
            CollidingKey equalsThrows = new CollidingKey("equalsThrows");
            equalsThrows.equalsThrows.set(true);
            IllegalStateException fromEquals = assertThrows(IllegalStateException.class,
                    () -> flight.run(equalsThrows, () -> called.getAndSet(true)));
            assertEquals("equals of a broken key", fromEquals.getMessage());
            assertThrows(IllegalStateException.class, () -> flight.forget(equalsThrows));
            assertFalse(called.get());
            assertEquals("[keys in flight = 1]", counted(flight), "the throw changed nothing: \"before\" is in flight");
            equalsThrows.equalsThrows.set(false);
            assertEquals(new Result<>("later", false), flight.run(equalsThrows, () -> "later"));
        } finally {
            held.get().run();
        }
        assertSame("other", get(earlier).value());
        assertEquals("[keys in flight = 0]", counted(flight));
    }
}
