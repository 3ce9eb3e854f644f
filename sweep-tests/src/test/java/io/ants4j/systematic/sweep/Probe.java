package io.ants4j.systematic.sweep;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the scenarios' checks share: bounded waits, helper threads whose failures are reported, and a helper that
 * acts once the operation under test parks.
 */
final class Probe {
    /** The longest a check waits for anything: far beyond what a working object needs, even interpreted. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private Probe() {
    }

    /** Waits until {@code condition} holds, polling; fails with {@code what} after {@link #TIMEOUT}. */
    static void until(String what, BooleanSupplier condition) {
        until(() -> what, condition);
    }

    /** As {@link #until(String, BooleanSupplier)}, with the message made when the wait fails (state then). */
    static void until(Supplier<String> what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0L) {
                throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s waiting until " + what.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Fails unless {@code thrown} is {@code null} or an {@link OutOfMemoryError}. */
    static void noneOrOutOfMemory(Throwable thrown) {
        if (thrown != null && !(thrown instanceof OutOfMemoryError)) {
            throw new AssertionError("the operation threw " + thrown + " (expected none or OutOfMemoryError)", thrown);
        }
    }

    /** Fails with {@code message} unless {@code condition}. */
    static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    /** A body that may throw. */
    @FunctionalInterface
    interface Body {
        void run() throws Throwable;
    }

    /** A daemon platform thread running {@code body}; {@link Helper#join} reports what it threw. */
    static Helper start(String name, Body body) {
        return new Helper(name, body, null, false);
    }

    /**
     * A helper that waits until the operation under test parks (or returns), then runs {@code action}: a lock
     * holder that unlocks once the operation waits for the lock, a signaller that signals once it waits on a
     * condition. Until then it only polls, without allocating, so it runs as well with the heap exhausted.
     */
    static Helper whenOperationParks(String name, Body action) {
        return new Helper(name, action, SweepRunner.current(), false);
    }

    /**
     * As {@link #whenOperationParks}, but the action runs only if the operation parks: one that returned (threw)
     * first is left as it was for the check to see, the action not run ({@link Helper#acted} is false).
     */
    static Helper onlyIfOperationParks(String name, Body action) {
        return new Helper(name, action, SweepRunner.current(), true);
    }

    /** A helper thread; {@link #join} waits for it (bounded) and rethrows its failure. */
    static final class Helper {
        private final Thread thread;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final CountDownLatch acted = new CountDownLatch(1);
        private volatile boolean cancelled;

        Helper(String name, Body body, SweepRunner watched, boolean onlyIfParked) {
            long run = watched == null ? 0L : watched.nextRun();
            thread = Thread.ofPlatform().daemon(true).name("sweep-" + name).unstarted(() -> {
                try {
                    if (watched != null) {
                        watched.awaitParkedOrReturned(this, run);
                        if (cancelled || onlyIfParked && watched.returned(run)) {
                            return;
                        }
                    }
                    acted.countDown();
                    body.run();
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            thread.start();
        }

        /** Whether the action ran (or began to). */
        boolean acted() {
            return acted.getCount() == 0;
        }

        /** Whether {@link #cancel} was called. */
        boolean cancelled() {
            return cancelled;
        }

        /** Tells a helper still waiting for the operation to park to give up. */
        void cancel() {
            cancelled = true;
        }

        Thread thread() {
            return thread;
        }

        /** Waits for the thread (bounded); rethrows what it threw. */
        void join() throws InterruptedException {
            if (!thread.join(TIMEOUT)) {
                AssertionError e = new AssertionError("helper " + thread.getName() + " did not end within "
                        + TIMEOUT.toSeconds() + " s; it is at " + Arrays.toString(thread.getStackTrace()));
                throw e;
            }
            Throwable t = failure.get();
            if (t instanceof Error err) {
                throw err;
            }
            if (t != null) {
                throw new AssertionError("helper " + thread.getName() + " failed: " + t, t);
            }
        }
    }
}
