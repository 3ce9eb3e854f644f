package io.ants4j.stress.support;

import java.time.Duration;

/**
 * A third (or fourth) participant for a test. jcstress schedules at most one actor per CPU, so on
 * the project's 2-core machines a test with more than two actors would never run; tests that need
 * more threads start the extra ones as virtual threads (cheap enough to start one per sample) from
 * an actor or from the state's constructor, and join them in the arbiter.
 */
public final class Helper {

    private Helper() {
    }

    /** Starts {@code task} on a new virtual thread. */
    public static Thread start(Runnable task) {
        return Thread.ofVirtual().start(task);
    }

    /**
     * Joins {@code thread} for at most {@link Spin#PATIENCE_SECONDS} (join gives the caller a
     * happens-before edge from everything the thread did).
     *
     * @return whether the thread has ended
     */
    public static boolean join(Thread thread) {
        if (thread == null) {
            return false;
        }
        try {
            return thread.join(Duration.ofSeconds(Spin.PATIENCE_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
