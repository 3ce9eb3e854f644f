package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ants4j.primitives.SingleFlight.Result;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * SingleFlight's class javadoc (SingleFlight.java:42-44): "The key's hashCode, and its equals with the keys in flight,
 * run in the calling thread of run, submit and forget; what they throw, the method throws, with nothing changed."
 * toString (SingleFlight.java:393-397): "Returns a string identifying this SingleFlight and the number of keys with
 * a call in flight ... calls that start or complete meanwhile may or may not be counted" (a snapshot that never
 * waits for anyone). Nothing restricts what a key's equals may call.
 *
 * <p>Since the calls in flight live in CallTable, a key's equals runs while its thread holds its stripe's
 * {@link SpinLock}, which is not reentrant. An equals that reads the SingleFlight (its toString, e.g. to log it)
 * makes {@code count()} lock every stripe, its own included: the caller spins for ever on a lock it holds itself,
 * and so does every later call, completion and toString that needs that stripe. (The ConcurrentHashMap this
 * replaced ran equals under a bin's monitor, which is reentrant, and counted without locking: the same key worked.)
 * The same happens to an equals that calls run, submit or forget for any key of its stripe.
 */
class AKeysEqualsThatReadsItsSingleFlightDoesNotHangTest {

    /** A key with a fixed hash, equal only to itself. */
    private record PlainKey(int hash) {
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return this == o;
        }
    }

    /** A key whose equals reads the SingleFlight it is used with (as a debug log line would), then says no. */
    private static final class LoggingKey {
        final int hash;
        final SingleFlight<Object, String> flight;
        final AtomicReference<String> logged = new AtomicReference<>();

        LoggingKey(int hash, SingleFlight<Object, String> flight) {
            this.hash = hash;
            this.flight = flight;
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            logged.set("comparing with a key in flight of " + flight);
            return this == o;
        }
    }

    @Test
    void aRunWhoseKeysEqualsCallsToStringOfItsSingleFlightReturns() throws Exception {
        SingleFlight<Object, String> flight = new SingleFlight<>();
        AtomicReference<Runnable> held = new AtomicReference<>();
        // a call in flight whose key has the same hash, so that the next key's equals is called with it
        CompletableFuture<Result<String>> inFlight = flight.submit(new PlainKey(7), () -> "held", held::set);
        LoggingKey key = new LoggingKey(7, flight);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                outcome.set(flight.run(key, () -> "mine").value());
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        boolean returned = caller.join(Duration.ofSeconds(5));
        if (!returned) {
            unlockEveryStripe(flight); // lets the caller out (its run then throws), so the thread does not spin on
            caller.join(Duration.ofSeconds(20));
        }
        held.get().run();
        inFlight.get();
        if (!returned) {
            fail("run of a key whose equals calls the SingleFlight's toString did not return within 5 s: its thread "
                    + "spins for ever on the stripe lock it holds itself (freed by the test; the run then ended with "
                    + outcome.get() + ")");
        }
        assertEquals("mine", outcome.get());
        assertTrue(key.logged.get().endsWith("[keys in flight = 1]"), key.logged.get());
    }

    /** Releases each stripe's SpinLock from outside (it has no owner), to end the test's spinning thread. */
    private static void unlockEveryStripe(SingleFlight<?, ?> flight) throws ReflectiveOperationException {
        Field calls = SingleFlight.class.getDeclaredField("calls");
        calls.setAccessible(true);
        Object table = calls.get(flight);
        Field stripes = CallTable.class.getDeclaredField("stripes");
        stripes.setAccessible(true);
        Field lock = CallTable.Stripe.class.getDeclaredField("lock");
        lock.setAccessible(true);
        for (Object stripe : (Object[]) stripes.get(table)) {
            if (stripe != null && ((SpinLock) lock.get(stripe)).isLocked()) {
                ((SpinLock) lock.get(stripe)).unlock();
            }
        }
    }
}
