package io.ants4j.micrometer;

import io.ants4j.pool.PoolStats;
import io.ants4j.pool.WorkerPool;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Binds a pool's counts and counters to a Micrometer {@link MeterRegistry}, under Micrometer's executor names
 * where they fit and {@code ants4j.pool.*} where Micrometer has none. Works for any of the four pools.
 *
 * <pre>{@code
 * Pool pool = Pool.newPool(200, PoolOptions.builder().name("orders").build());
 * new PoolMetrics(pool, Tags.of("service", "checkout")).bindTo(registry);
 * }</pre>
 *
 * <table class="striped">
 * <caption>Meters, each tagged {@code name=<pool name>} besides the given tags</caption>
 * <thead><tr><th>meter</th><th>type</th><th>value</th></tr></thead>
 * <tbody>
 * <tr><td>{@code executor.pool.size}</td><td>gauge (threads)</td><td>{@link WorkerPool#running()}: live workers,
 *     busy or idle</td></tr>
 * <tr><td>{@code executor.pool.max}</td><td>gauge (threads)</td><td>{@link WorkerPool#cap()}; {@code -1} for an
 *     unlimited pool, {@link Integer#MAX_VALUE} for a multi-pool whose sub-pools hold more in all</td></tr>
 * <tr><td>{@code executor.active}</td><td>gauge (threads)</td><td>workers busy with a task:
 *     {@code running() - idle()}</td></tr>
 * <tr><td>{@code executor.idle}</td><td>gauge (threads)</td><td>{@link WorkerPool#idle()}</td></tr>
 * <tr><td>{@code executor.queued}</td><td>gauge (tasks)</td><td>{@link WorkerPool#waiting()}: submitters
 *     blocked waiting for a worker (the pool has no queue; they are its queue)</td></tr>
 * <tr><td>{@code executor.completed}</td><td>function counter (tasks)</td><td>{@link PoolStats#completed()}</td></tr>
 * <tr><td>{@code ants4j.pool.failed}</td><td>function counter (tasks)</td><td>{@link PoolStats#failed()}</td></tr>
 * <tr><td>{@code ants4j.pool.rejected}</td><td>function counter (tasks)</td><td>{@link PoolStats#rejected()}</td></tr>
 * <tr><td>{@code ants4j.pool.blocked}</td><td>function counter (tasks)</td><td>{@link PoolStats#blockedSubmits()}:
 *     submissions that had to wait for a worker</td></tr>
 * <tr><td>{@code ants4j.pool.blocked.time}</td><td>function timer</td><td>those submissions (count) and
 *     {@link PoolStats#blockedTime()} (total time)</td></tr>
 * </tbody>
 * </table>
 *
 * <p>The meters read the pool when the registry polls them; they hold the pool weakly (Micrometer's gauges and
 * function meters do), so binding does not keep a pool alive. Instances are immutable; binding the same pool
 * to several registries is fine.
 *
 * <p>Implementation notes. Each meter reads the pool's own counts ({@link WorkerPool#idle()} takes the pool's
 * lock for an instant) or one {@link WorkerPool#stats()} snapshot; nothing is cached, so the meters add no work
 * to the pool's submit path. {@code executor.active} is computed from two readings and clamped at zero, since a
 * worker may come back between them.
 */
public final class PoolMetrics implements MeterBinder {
    private final WorkerPool pool;
    private final Tags tags;

    /**
     * Prepares the meters of {@code pool}; {@link #bindTo} registers them.
     *
     * @param pool the pool
     * @param tags tags added to every meter, besides {@code name=<pool name>}
     * @throws NullPointerException if an argument is null
     */
    public PoolMetrics(WorkerPool pool, Iterable<Tag> tags) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.tags = Tags.concat(Objects.requireNonNull(tags, "tags"), "name", pool.name());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "executor.pool.size", "threads", "The workers alive, busy or idle", WorkerPool::running);
        gauge(registry, "executor.pool.max", "threads", "The most workers alive at once (-1: unlimited)",
                WorkerPool::cap);
        gauge(registry, "executor.active", "threads", "The workers busy with a task",
                p -> Math.max(0, p.running() - p.idle()));
        gauge(registry, "executor.idle", "threads", "The workers alive and waiting for a task", WorkerPool::idle);
        gauge(registry, "executor.queued", "tasks", "The submitters blocked waiting for a worker",
                WorkerPool::waiting);
        counter(registry, "executor.completed", "The tasks that returned normally", PoolStats::completed);
        counter(registry, "ants4j.pool.failed", "The tasks that threw", PoolStats::failed);
        counter(registry, "ants4j.pool.rejected", "The submissions refused", PoolStats::rejected);
        counter(registry, "ants4j.pool.blocked", "The submissions that had to wait for a worker",
                PoolStats::blockedSubmits);
        FunctionTimer.builder("ants4j.pool.blocked.time", pool, p -> p.stats().blockedSubmits(),
                        p -> p.stats().blockedTime().toNanos(), TimeUnit.NANOSECONDS)
                .tags(tags)
                .description("The time submissions waited for a worker")
                .register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String unit, String description,
                       java.util.function.ToIntFunction<WorkerPool> value) {
        Gauge.builder(name, pool, p -> value.applyAsInt(p))
                .tags(tags)
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description,
                         java.util.function.ToLongFunction<PoolStats> value) {
        FunctionCounter.builder(name, pool, p -> value.applyAsLong(p.stats()))
                .tags(tags)
                .baseUnit("tasks")
                .description(description)
                .register(registry);
    }
}
