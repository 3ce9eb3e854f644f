package io.ants4j.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.MultiPoolWithFunc;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolClosedException;
import io.ants4j.pool.PoolOptions;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** {@link PoolMetrics} on a {@link SimpleMeterRegistry}, with real pools doing real work. */
class PoolMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static final Set<String> METERS = Set.of("executor.pool.size", "executor.pool.max", "executor.active",
            "executor.idle", "executor.queued", "executor.completed", "ants4j.pool.failed", "ants4j.pool.rejected",
            "ants4j.pool.blocked", "ants4j.pool.blocked.time");

    @Test
    void reportsWhatThePoolDoes() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        Pool pool = Pool.newPool(2, PoolOptions.builder().name("orders").disablePurge(true)
                .panicHandler(t -> { }).build());
        new PoolMetrics(pool, Tags.of("service", "checkout")).bindTo(registry);

        assertEquals(new TreeSet<>(METERS), names(registry));
        for (Meter m : registry.getMeters()) {
            assertEquals(List.of(Tag.of("name", "orders"), Tag.of("service", "checkout")), m.getId().getTags(),
                    m.getId().toString());
        }
        assertEquals(2, gauge(registry, "executor.pool.max"));
        assertEquals(0, gauge(registry, "executor.pool.size"));

        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                running.countDown();
                await(go);
            });
        }
        assertTrue(running.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(2, gauge(registry, "executor.pool.size"));
        assertEquals(2, gauge(registry, "executor.active"));
        assertEquals(0, gauge(registry, "executor.idle"));
        CountDownLatch ran = new CountDownLatch(1);
        Thread submitter = Thread.ofPlatform().start(() -> pool.execute(ran::countDown));
        eventually(() -> gauge(registry, "executor.queued") == 1);
        go.countDown();
        assertTrue(ran.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        submitter.join(WAIT);
        eventually(() -> gauge(registry, "executor.idle") == 2);
        // active is running() - idle(), two readings: a worker moving from the fast lane to the idle stack is
        // in neither for a moment, so one reading may still count it busy
        eventually(() -> gauge(registry, "executor.active") == 0);
        assertEquals(0, gauge(registry, "executor.queued"));

        pool.execute(() -> {
            throw new IllegalStateException("task failure");
        });
        eventually(() -> registry.get("ants4j.pool.failed").functionCounter().count() == 1);
        eventually(() -> registry.get("executor.completed").functionCounter().count() == 3);
        assertEquals(1, registry.get("ants4j.pool.blocked").functionCounter().count());
        var blocked = registry.get("ants4j.pool.blocked.time").functionTimer();
        assertEquals(1, blocked.count());
        assertTrue(blocked.totalTime(TimeUnit.NANOSECONDS) > 0, "the submitter waited for a worker");
        // the timer keeps its total in seconds, a double: nanoseconds back from it may be off by one
        assertEquals(pool.stats().blockedTime().toNanos(), blocked.totalTime(TimeUnit.NANOSECONDS), 1.0);

        pool.releaseTimeout(WAIT);
        assertThrows(PoolClosedException.class, () -> pool.execute(() -> { }));
        assertEquals(1, registry.get("ants4j.pool.rejected").functionCounter().count());
        assertEquals(0, gauge(registry, "executor.pool.size"));
    }

    @Test
    void worksForEveryPoolKindAndUnlimitedCapacity() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        CountDownLatch ran = new CountDownLatch(3);
        MultiPoolWithFunc<CountDownLatch> multi = MultiPoolWithFunc.newMultiPool(2, 3, CountDownLatch::countDown,
                LoadBalancing.LEAST_TASKS);
        Pool unlimited = Pool.newPool(0);
        new PoolMetrics(multi, List.of()).bindTo(registry);
        new PoolMetrics(unlimited, List.of()).bindTo(registry);
        for (int i = 0; i < 3; i++) {
            multi.invoke(ran);
        }
        assertTrue(ran.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        assertEquals(6, registry.get("executor.pool.max").tag("name", multi.name()).gauge().value());
        assertEquals(-1, registry.get("executor.pool.max").tag("name", unlimited.name()).gauge().value());
        eventually(() -> registry.get("executor.completed").tag("name", multi.name()).functionCounter().count() == 3);
        multi.close();
        unlimited.close();
    }

    @Test
    void poolMaxSaturatesAtIntegerMaxValue() {
        MeterRegistry registry = new SimpleMeterRegistry();
        MultiPool huge = MultiPool.newMultiPool(2, Integer.MAX_VALUE, LoadBalancing.ROUND_ROBIN);
        MultiPoolWithFunc<Object> tuned = MultiPoolWithFunc.newMultiPool(4, 1, x -> { }, LoadBalancing.LEAST_TASKS);
        tuned.tune(Integer.MAX_VALUE);
        new PoolMetrics(huge, List.of()).bindTo(registry);
        new PoolMetrics(tuned, List.of()).bindTo(registry);
        assertEquals(Integer.MAX_VALUE, registry.get("executor.pool.max").tag("name", huge.name()).gauge().value());
        assertEquals(Integer.MAX_VALUE, registry.get("executor.pool.max").tag("name", tuned.name()).gauge().value());
        huge.release();
        tuned.release();
    }

    @Test
    void rejectsNulls() {
        try (Pool pool = Pool.newPool(1)) {
            assertThrows(NullPointerException.class, () -> new PoolMetrics(null, List.of()));
            assertThrows(NullPointerException.class, () -> new PoolMetrics(pool, null));
        }
    }

    private static Set<String> names(MeterRegistry registry) {
        Set<String> names = new TreeSet<>();
        for (Meter m : registry.getMeters()) {
            names.add(m.getId().getName());
        }
        return names;
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("test latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Polls {@code condition} until it holds or {@link #WAIT} passes. */
    private static void eventually(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
