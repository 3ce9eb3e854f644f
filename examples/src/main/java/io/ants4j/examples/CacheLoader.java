package io.ants4j.examples;

import io.ants4j.primitives.SingleFlight;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A read-through cache whose misses collapse with {@link SingleFlight}: however many requests miss one key at
 * once, the backend is asked once, and all of them get that answer. A failed load is not cached: the next miss
 * asks again. The same in Go (without the second look into the cache, which the Java version adds):
 *
 * <pre>{@code
 * var loads singleflight.Group
 *
 * func (c *Cache) Get(key string) (string, error) {
 *     if v, ok := c.m.Load(key); ok {
 *         return v.(string), nil
 *     }
 *     v, err, _ := loads.Do(key, func() (any, error) {
 *         v, err := c.backend(key)
 *         if err == nil {
 *             c.m.Store(key, v)
 *         }
 *         return v, err
 *     })
 *     if err != nil {
 *         return "", err
 *     }
 *     return v.(string), nil
 * }
 * }</pre>
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values
 */
public final class CacheLoader<K, V> {
    private final Map<K, V> cache = new ConcurrentHashMap<>();
    private final SingleFlight<K, V> loads = new SingleFlight<>();
    private final Function<K, V> backend;

    /**
     * Creates a cache in front of {@code backend}.
     *
     * @param backend loads the value of a key (a database query, a remote call); may throw
     */
    public CacheLoader(Function<K, V> backend) {
        this.backend = backend;
    }

    /**
     * Runs 1,000 concurrent requests for one missing key against a slow backend and prints how many times
     * the backend was asked: once.
     *
     * @param args ignored
     * @throws Exception if a request failed
     */
    public static void main(String[] args) throws Exception {
        AtomicInteger queries = new AtomicInteger();
        CacheLoader<String, String> users = new CacheLoader<>(id -> {
            queries.incrementAndGet();
            try {
                Thread.sleep(100); // the database
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "user " + id;
        });
        try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 1_000; i++) {
                requests.submit(() -> users.get("42"));
            }
        }
        System.out.println("1,000 requests, " + queries.get() + " database query: " + users.get("42"));
    }

    /**
     * Returns the value of {@code key}: from the cache, or loaded by the backend, once for all the requests
     * that miss it at the same time.
     *
     * @param key the key
     * @return its value; null if the backend loaded null (not cached: the next request asks again)
     * @throws ExecutionException if the backend failed; its failure is the cause, given to every request
     *     that waited for that load, and not kept: the next request asks again
     * @throws InterruptedException if interrupted while waiting for another request's load
     */
    public V get(K key) throws ExecutionException, InterruptedException {
        V cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        return loads.run(key, () -> {
            V again = cache.get(key);   // a load that ended since our miss has filled it
            if (again != null) {
                return again;
            }
            V loaded = backend.apply(key);
            if (loaded != null) {       // a map of values cannot hold "none": null is returned, not kept
                cache.put(key, loaded); // before the key leaves the flight: a later miss finds it here
            }
            return loaded;
        }).value();
    }
}
