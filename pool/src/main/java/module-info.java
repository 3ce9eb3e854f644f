/**
 * ants, the goroutine pool of Go, for Java 21+: {@link io.ants4j.pool.Pool},
 * {@link io.ants4j.pool.PoolWithFunc}, {@link io.ants4j.pool.MultiPool} and
 * {@link io.ants4j.pool.MultiPoolWithFunc}, on virtual threads by default, with JDK Flight Recorder events
 * (category {@code ants4j}).
 */
@SuppressWarnings("requires-automatic")
module io.ants4j.pool {
    requires io.ants4j.primitives;
    requires org.agrona;
    requires jdk.jfr;

    exports io.ants4j.pool;
}
