package io.ants4j.stress.support;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Bounded waiting for the tests: every wait of an actor on another actor ends, so a bug shows up
 * as a FORBIDDEN outcome instead of a hung jcstress fork.
 */
public final class Spin {

    /** How long any actor waits for something another actor must do; far above any real delay. */
    public static final long PATIENCE_SECONDS = 10;

    private Spin() {
    }

    /**
     * Yields until {@code condition} holds or {@link #PATIENCE_SECONDS} have passed.
     *
     * @return whether the condition held
     */
    public static boolean until(BooleanSupplier condition) {
        if (condition.getAsBoolean()) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }
}
