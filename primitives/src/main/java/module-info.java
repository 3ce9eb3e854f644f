/**
 * Go's {@code sync} primitives for Java: {@link io.ants4j.primitives.SpinLock},
 * {@link io.ants4j.primitives.Mutex}, {@link io.ants4j.primitives.RWMutex},
 * {@link io.ants4j.primitives.WaitGroup}, {@link io.ants4j.primitives.Once},
 * {@link io.ants4j.primitives.Cond}, {@link io.ants4j.primitives.WeightedSemaphore} and
 * {@link io.ants4j.primitives.TaskGroup}.
 */
module io.ants4j.primitives {
    exports io.ants4j.primitives;
}
