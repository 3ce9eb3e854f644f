/**
 * Go's {@code sync} primitives for Java: {@link io.ants4j.primitives.SpinLock},
 * {@link io.ants4j.primitives.WaitGroup}, {@link io.ants4j.primitives.Once},
 * {@link io.ants4j.primitives.Cond} and {@link io.ants4j.primitives.WeightedSemaphore}.
 */
module io.ants4j.primitives {
    exports io.ants4j.primitives;
}
