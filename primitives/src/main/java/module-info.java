/**
 * Go's {@code sync} primitives and {@code golang.org/x/sync} for Java: {@link io.ants4j.primitives.SpinLock},
 * {@link io.ants4j.primitives.Mutex}, {@link io.ants4j.primitives.RWMutex},
 * {@link io.ants4j.primitives.WaitGroup}, {@link io.ants4j.primitives.Once},
 * {@link io.ants4j.primitives.Cond}, {@link io.ants4j.primitives.WeightedSemaphore},
 * {@link io.ants4j.primitives.TaskGroup} (errgroup) and {@link io.ants4j.primitives.SingleFlight}.
 */
module io.ants4j.primitives {
    exports io.ants4j.primitives;
}
