package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ants4j.primitives.SingleFlightRegistrationFailureTest.CollidingKey;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code toString}: "the number of keys with a call in flight". A registration that fails after the map inserted
 * the key (its bin turned into a tree calls the keys' {@code compareTo}, which throws) leaves the count of the
 * calls still in flight right: ConcurrentHashMap's putIfAbsent throws before it counts the insertion, and the
 * failed call's removal is counted all the same.
 */
class SingleFlightKeyCountTest {

    /** The count part of {@code flight.toString()}. */
    private static String counted(SingleFlight<?, ?> flight) {
        String shown = flight.toString();
        return shown.substring(shown.indexOf('['));
    }

    private static String keysInFlight(int n) {
        return "[keys in flight = " + n + "]";
    }

    @Test
    void aFailedRegistrationLeavesTheCountOfTheCallsInFlight() {
        SingleFlight<CollidingKey, Object> flight = new SingleFlight<>();
        List<Runnable> held = new ArrayList<>();
        try {
            for (int i = 1; i <= 9; i++) {
                flight.submit(new CollidingKey(i), () -> "held", held::add);
            }
            assertEquals(keysInFlight(9), counted(flight), "setup");
            CollidingKey.failOnce();
            assertThrows(OutOfMemoryError.class, () -> flight.run(new CollidingKey(10), () -> "not called"),
                    "setup: the map's insertion of the 10th key treeifies the bin and throws");
            assertEquals(keysInFlight(9), counted(flight),
                    "the nine held calls are still in flight, and nothing else is");
        } finally {
            held.forEach(Runnable::run);
        }
        assertEquals(keysInFlight(0), counted(flight),
                "every call completed");
    }
}
