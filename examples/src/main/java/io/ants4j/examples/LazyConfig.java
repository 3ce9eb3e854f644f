package io.ants4j.examples;

import io.ants4j.primitives.Once;
import io.ants4j.primitives.WaitGroup;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Lazy configuration with {@link Once#value}: the configuration is loaded by the first request that needs it,
 * exactly once however many requests arrive together, and every later {@code get()} is a plain read. The
 * threads that arrive while it loads wait for it; if loading throws, every call throws that same exception
 * (Go's {@code sync.OnceValue}), so a broken configuration is never half-used.
 */
public final class LazyConfig {
    /**
     * The settings a service needs.
     *
     * @param endpoint where to send requests
     * @param timeout  how long to wait for an answer
     */
    public record Config(String endpoint, Duration timeout) {
    }

    private final String source;
    private final AtomicInteger loads = new AtomicInteger();
    private final Supplier<Config> config = Once.value(this::load);

    /**
     * Makes a service whose configuration is read from {@code source} when first needed.
     *
     * @param source the configuration as {@code key=value} lines
     */
    public LazyConfig(String source) {
        this.source = source;
    }

    /**
     * Serves eight requests at once and prints how often the configuration was loaded (once).
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting for the requests
     */
    public static void main(String[] args) throws InterruptedException {
        LazyConfig service = new LazyConfig("endpoint=https://example.org/api\ntimeout=PT2S\n");
        serveConcurrently(service, 8);
        System.out.println(service.config() + ", loads: " + service.loads());
    }

    /**
     * Serves {@code requests} requests at once, each on its own virtual thread, each reading the configuration.
     *
     * @param service  the service
     * @param requests how many requests arrive together
     * @throws InterruptedException if interrupted while waiting for the requests
     */
    public static void serveConcurrently(LazyConfig service, int requests) throws InterruptedException {
        WaitGroup wg = new WaitGroup();
        for (int i = 0; i < requests; i++) {
            wg.go(service::config);
        }
        wg.await();
    }

    /**
     * Returns the configuration, loading it if no call has yet.
     *
     * @return the configuration
     * @throws UncheckedIOException if the configuration cannot be read, on this and every later call
     */
    public Config config() {
        return config.get();
    }

    /**
     * Returns how often the configuration was loaded: 0 before the first {@link #config()}, then 1.
     *
     * @return the number of loads
     */
    public int loads() {
        return loads.get();
    }

    private Config load() {
        loads.incrementAndGet();
        Properties p = new Properties();
        try {
            p.load(new StringReader(source));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Config(p.getProperty("endpoint"), Duration.parse(p.getProperty("timeout", "PT1S")));
    }
}
