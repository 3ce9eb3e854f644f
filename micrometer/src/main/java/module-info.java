/**
 * Micrometer metrics of the ants4j pools: {@link io.ants4j.micrometer.PoolMetrics} binds any
 * {@link io.ants4j.pool.WorkerPool} to a {@code MeterRegistry}.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.ants4j.micrometer {
    requires transitive io.ants4j.pool;
    requires transitive micrometer.core;

    exports io.ants4j.micrometer;
}
