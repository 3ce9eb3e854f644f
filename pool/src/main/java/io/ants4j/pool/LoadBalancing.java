package io.ants4j.pool;

/** How a multi-pool ({@link MultiPool}, {@link MultiPoolWithFunc}) picks the sub-pool for a task. */
public enum LoadBalancing {
    /**
     * The sub-pools strictly in turn (counted from the last {@code reboot}, with a 64-bit counter: no wrap-around
     * skips a turn). If the chosen one is overloaded, the task is tried once more on the sub-pool with the fewest
     * running workers, as ants does.
     */
    ROUND_ROBIN,
    /** The sub-pool with the fewest running workers at the moment of submission (the first one on a tie). */
    LEAST_TASKS
}
