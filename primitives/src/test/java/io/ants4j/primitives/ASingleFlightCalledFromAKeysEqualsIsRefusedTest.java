package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Class javadoc, Misuse: a key's equals "must not call run, submit or forget of this SingleFlight ... Where such a
 * call would wait for the lock its own thread holds, it throws IllegalStateException instead". Keys of one hash
 * share the comparison's lock, so a call for such a key from inside the equals is that case: it throws, the outer
 * call throws it too, with nothing changed, and the SingleFlight goes on working.
 */
class ASingleFlightCalledFromAKeysEqualsIsRefusedTest {

    /** A key of hash 7 whose equals runs {@link #inEquals} once, if set. */
    private static final class Key {
        final String name;
        final AtomicReference<Runnable> inEquals = new AtomicReference<>();

        Key(String name) {
            this.name = name;
        }

        @Override
        public int hashCode() {
            return 7;
        }

        @Override
        public boolean equals(Object o) {
            Runnable action = inEquals.getAndSet(null);
            if (action != null) {
                action.run();
            }
            return o instanceof Key other && other.name.equals(name);
        }
    }

    private static void refusedFromEquals(Consumer<SingleFlight<Key, Object>> inner) throws Exception {
        SingleFlight<Key, Object> flight = new SingleFlight<>();
        AtomicReference<Runnable> held = new AtomicReference<>();
        CompletableFuture<Result<Object>> inFlight = flight.submit(new Key("held"), () -> "held", held::set);
        Key key = new Key("key");
        key.inEquals.set(() -> inner.accept(flight)); // called when run compares key with "held"
        AtomicBoolean called = new AtomicBoolean();
        assertThrows(IllegalStateException.class, () -> flight.run(key, () -> called.getAndSet(true)));
        assertFalse(called.get(), "the outer function ran though its registration threw");
        assertEquals(new Result<>("later", false), flight.run(key, () -> "later"), "the SingleFlight works on");
        held.get().run();
        assertEquals("held", get(inFlight).value());
        assertEquals("[keys in flight = 0]", flight.toString().substring(flight.toString().indexOf('[')));
    }

    @Test
    void aRunFromInsideAKeysEqualsIsRefused() throws Exception {
        refusedFromEquals(flight -> {
            try {
                flight.run(new Key("other"), () -> "other");
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aSubmitFromInsideAKeysEqualsIsRefused() throws Exception {
        refusedFromEquals(flight -> flight.submit(new Key("other"), () -> "other", Runnable::run));
    }

    @Test
    void aForgetFromInsideAKeysEqualsIsRefused() throws Exception {
        refusedFromEquals(flight -> flight.forget(new Key("other")));
    }
}
