package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A key registration that throws after {@code ConcurrentHashMap} inserted the key (turning a bin into a tree, a
 * resize, a counter cell: each allocates, and the tree calls the keys' {@code compareTo}) fails its call and
 * removes the key: nothing outlives the call, and a later caller for the key starts a new one.
 */
class SingleFlightRegistrationFailureTest {

    /** Bounded wait for an outcome that should come at once (the function returns immediately). */
    private static <T> T within5s(CompletableFuture<T> future, String what) throws Exception {
        try {
            return future.get(5, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return fail(what + ": no outcome within 5 s");
        } catch (ExecutionException e) {
            return fail(what + ": " + e.getCause(), e.getCause());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // "Nothing outlives its call"; "the key is removed when the call completes, success or failure";
    // implementation notes: "Every allocation of a caller comes before the state it changes: the Call,
    // the Node and the submit task before the key is registered". ConcurrentHashMap.putIfAbsent runs
    // code AFTER it has inserted the mapping: treeifyBin (new TreeNodes, new TreeBin, which calls the
    // keys' compareTo), addCount (new CounterCell under contention, the resize's ForwardingNode and split
    // Nodes). If that throws (an OutOfMemoryError on an exhausted heap, or the key's compareTo), the
    // key is registered, putIfAbsent throws, and run/submit propagate it without removing their Call:
    // the call is "in flight" for ever, every later caller for the key joins it and waits for ever.
    // The test makes the post-insertion step throw deterministically with a key whose compareTo throws
    // (ConcurrentHashMap calls it only when it turns a bin of >= 8 colliding keys into a tree).
    // ---------------------------------------------------------------------------------------------

    /**
     * Distinct keys with one hash; the next comparison after {@link #failOnce} fails, as an allocation in
     * it (or in the map's treeifyBin) would on a heap exhausted for a moment.
     */
    record CollidingKey(int id) implements Comparable<CollidingKey> {
        static final AtomicBoolean FAIL = new AtomicBoolean();

        static void failOnce() {
            FAIL.set(true);
        }

        @Override
        public int hashCode() {
            return 42;
        }

        @Override
        public int compareTo(CollidingKey other) {
            if (FAIL.compareAndSet(true, false)) {
                throw new OutOfMemoryError("compareTo could not allocate");
            }
            return Integer.compare(id, other.id);
        }
    }

    /** Fills one bin with 9 colliding keys in flight (the table grows to 128 meanwhile): the 10th treeifies it. */
    private static List<Runnable> nineCallsInFlight(SingleFlight<CollidingKey, Object> flight) {
        List<Runnable> held = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            flight.submit(new CollidingKey(i), () -> "held", held::add);
        }
        return held;
    }

    @Test
    void aRunWhoseKeyRegistrationThrowsAfterInsertingLeavesNoCallInFlight() throws Exception {
        SingleFlight<CollidingKey, Object> flight = new SingleFlight<>();
        List<Runnable> held = nineCallsInFlight(flight);
        CollidingKey key = new CollidingKey(10);
        CollidingKey.failOnce();
        assertThrows(OutOfMemoryError.class, () -> flight.run(key, () -> "first"),
                "setup: the map's insertion of the 10th key treeifies the bin and throws");
        // The first run failed before its function ran: nothing is in flight for the key, a new run is a new call.
        Threads.Task<Result<Object>> later = start(() -> flight.run(key, () -> "later"));
        try {
            assertEquals(new Result<>("later", false), within5s(later.result(), "a later run for the key"),
                    flight.toString());
        } finally {
            later.thread().interrupt();
            held.forEach(Runnable::run);
        }
    }

    @Test
    void aSubmitWhoseKeyRegistrationThrowsAfterInsertingLeavesNoCallInFlight() throws Exception {
        SingleFlight<CollidingKey, Object> flight = new SingleFlight<>();
        List<Runnable> held = nineCallsInFlight(flight);
        CollidingKey key = new CollidingKey(10);
        CollidingKey.failOnce();
        assertThrows(OutOfMemoryError.class, () -> flight.submit(key, () -> "first", Runnable::run),
                "setup: the map's insertion of the 10th key treeifies the bin and throws");
        try {
            assertEquals(new Result<>("later", false),
                    within5s(flight.submit(key, () -> "later", Runnable::run), "a later submit for the key"),
                    flight.toString());
        } finally {
            held.forEach(Runnable::run);
        }
    }
}
