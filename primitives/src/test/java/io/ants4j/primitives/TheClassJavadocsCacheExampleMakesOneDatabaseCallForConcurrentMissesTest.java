package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review 57. The contract (SingleFlight.java:18-31, the class javadoc's example): {@code user(id)} as written there,
 * with the comment "a thousand misses of one id make one database call".
 *
 * <p>Two misses of one id that overlap make two database calls when the second caller's miss (its
 * {@code cache.get}) comes before the first load's {@code cache.put} and its {@code run} after that load's key
 * has left: the key is removed before any caller has the outcome, so that {@code run} is a new call, and the
 * example's function loads again without looking into the cache. The {@code CacheLoader} example (examples/)
 * makes the second look for exactly this reason ("a load that ended since our miss has filled it"); the class
 * javadoc's example, which claims the one database call, does not. No thread sleeps: the second caller's miss is
 * held (inside its {@code cache.get}, after it read nothing) while the first caller's whole {@code user(id)} runs.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TheClassJavadocsCacheExampleMakesOneDatabaseCallForConcurrentMissesTest {

    record User(String id) {
    }

    /** The database of the example: counts its loads. */
    static final class Database {
        final AtomicInteger loads = new AtomicInteger();

        User load(String id) {
            loads.incrementAndGet();
            return new User(id);
        }
    }

    /** The cache of the example; {@code get} of the caller named "second" lets a hook run after it read. */
    static final class Cache extends ConcurrentHashMap<String, User> {
        volatile Runnable afterSecondsMiss;

        @Override
        public User get(Object key) {
            User read = super.get(key);
            Runnable hook = afterSecondsMiss;
            if (read == null && hook != null && Thread.currentThread().getName().equals("second")) {
                afterSecondsMiss = null;
                hook.run(); // the second caller has missed; the first one's whole call runs meanwhile
            }
            return read;
        }
    }

    private final Cache cache = new Cache();
    private final Database database = new Database();
    private final SingleFlight<String, User> loads = new SingleFlight<>();

    /** SingleFlight's class javadoc, verbatim. */
    User user(String id) throws ExecutionException, InterruptedException {
        User cached = cache.get(id);
        if (cached != null) {
            return cached;
        }
        return loads.run(id, () -> {          // a thousand misses of one id make one database call
            User again = cache.get(id);        // a load that ended since our miss has filled it
            if (again != null) {
                return again;
            }
            User loaded = database.load(id);
            cache.put(id, loaded);
            return loaded;
        }).value();
    }

    @Test
    void twoOverlappingMissesOfOneIdMakeOneDatabaseCall() throws Exception {
        cache.afterSecondsMiss = () -> {
            Thread first = Thread.ofPlatform().name("first").start(() -> {
                try {
                    user("42");
                } catch (ExecutionException | InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            try {
                first.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertFalse(first.isAlive(), "the first caller did not return");
        };
        Thread second = Thread.ofPlatform().name("second").start(() -> {
            try {
                user("42"); // misses (cache.get reads nothing) before the first caller loads; its run comes after
            } catch (ExecutionException | InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        second.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(second.isAlive(), "the second caller did not return");
        assertEquals(1, database.loads.get(), "two overlapping misses of one id (the second one read the cache before the first load filled it),"
                + " made " + database.loads.get() + " database calls (\"a thousand misses of one id make one database call\")");
    }
}
