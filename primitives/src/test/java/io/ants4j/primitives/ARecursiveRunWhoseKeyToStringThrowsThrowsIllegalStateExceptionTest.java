package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * SingleFlight.run's javadoc: "@throws IllegalStateException if called from inside the function of the call in
 * flight for {@code key}, in the thread running it (it would wait for itself)", and the class javadoc, Misuse: "A
 * call of {@code run} for a key made from inside that key's function, in the thread running it, would wait for
 * itself (Go deadlocks): it throws {@link IllegalStateException}". Keys are only required to have {@code equals}
 * and {@code hashCode}; the detection builds its message with the key's {@code toString}, so a key whose
 * {@code toString} throws (or one that is expensive or recursive) makes the recursive run throw that instead of
 * the documented {@code IllegalStateException}.
 */
class ARecursiveRunWhoseKeyToStringThrowsThrowsIllegalStateExceptionTest {
    /** A key with value semantics whose toString fails, as a key holding a lazily loaded or closed resource may. */
    record Key(String id) {
        @Override
        public String toString() {
            throw new UnsupportedOperationException("no string form");
        }
    }

    @Test
    void aRecursiveRunThrowsIllegalStateExceptionWhateverTheKeysToStringDoes() throws Exception {
        SingleFlight<Key, String> flight = new SingleFlight<>();
        AtomicReference<Throwable> inner = new AtomicReference<>();
        Result<String> outer = flight.run(new Key("k"), () -> {
            try {
                flight.run(new Key("k"), () -> "inner");
            } catch (Throwable t) {
                inner.set(t);
            }
            return "outer";
        });
        assertEquals("outer", outer.value());
        assertInstanceOf(IllegalStateException.class, inner.get(),
                "a recursive run threw " + inner.get() + " instead of IllegalStateException");
    }
}
