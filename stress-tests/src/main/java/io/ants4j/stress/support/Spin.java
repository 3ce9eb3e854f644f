package io.ants4j.stress.support;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Bounded waiting for the tests: every wait of an actor on another actor ends, so a bug shows up
 * as a FORBIDDEN outcome instead of a hung jcstress fork.
 */
public final class Spin {

    /** How long any actor waits for something another actor must do; far above any real delay. */
    public static final long PATIENCE_SECONDS = 10;

    /** One sleep of {@link #sleepUntil}; the OS's timer slack makes it longer. */
    private static final long SLEEP_NANOS = 20_000L;

    private Spin() {
    }

    /**
     * Yields until {@code condition} holds or {@link #PATIENCE_SECONDS} have passed.
     *
     * @return whether the condition held
     */
    public static boolean until(BooleanSupplier condition) {
        return waitFor(condition, Thread::yield);
    }

    /**
     * Like {@link #until}, but sleeps a few tens of microseconds between checks instead of
     * yielding: for an actor that waits while a thread other than the actors must run. jcstress
     * binds each actor to its own CPU, and on a two-CPU machine a yielding actor leaves such a
     * thread (a virtual thread's carrier, say) almost no time. The sleep also spreads the moment
     * the actor goes on over a window after the condition came true.
     *
     * @return whether the condition held
     */
    public static boolean sleepUntil(BooleanSupplier condition) {
        return waitFor(condition, () -> LockSupport.parkNanos(SLEEP_NANOS));
    }

    /** Checks {@code condition}, running {@code pause} between checks, for at most {@link #PATIENCE_SECONDS}. */
    private static boolean waitFor(BooleanSupplier condition, Runnable pause) {
        if (condition.getAsBoolean()) {
            return true;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            pause.run();
        }
        return true;
    }
}
