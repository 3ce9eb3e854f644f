package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Test helpers: every wait is bounded, so a bug fails the test instead of hanging the build. */
final class Threads {
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    private Threads() {
    }

    /** A started thread and its outcome. */
    record Task<T>(Thread thread, CompletableFuture<T> result) {
    }

    /** Starts {@code body} on a new platform thread. */
    static <T> Task<T> start(Callable<T> body) {
        return start(Thread.ofPlatform().daemon(true), body);
    }

    /** Starts {@code body} on a new thread of {@code builder}. */
    static <T> Task<T> start(Thread.Builder builder, Callable<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = builder.start(() -> {
            try {
                result.complete(body.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return new Task<>(thread, result);
    }

    /** The value of {@code future}, failing the test if it does not complete in time. */
    static <T> T get(CompletableFuture<T> future) {
        try {
            return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return fail("no result within " + TIMEOUT);
        } catch (ExecutionException e) {
            return fail(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(e);
        }
    }

    /** The value {@code task} returned, failing the test if it does not finish in time. */
    static <T> T get(Task<T> task) {
        return get(task.result());
    }

    /** The throwable {@code future} completed with, failing the test if it completed normally. */
    static Throwable failure(CompletableFuture<?> future) {
        try {
            future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return fail("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException | InterruptedException e) {
            return fail(e);
        }
    }

    /** Polls {@code condition} until it holds, failing the test after {@link #TIMEOUT}. */
    static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0L) {
                fail("timed out waiting until " + what);
            }
            Thread.yield();
        }
    }

    /** Waits until {@code thread} is parked (WAITING or TIMED_WAITING). */
    static void untilParked(Thread thread) {
        until(thread + " parks", () -> {
            Thread.State s = thread.getState();
            return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        });
    }

    static void join(Thread thread) throws InterruptedException {
        assertTrue(thread.join(TIMEOUT), () -> thread + " did not finish within " + TIMEOUT);
    }

    static void assertNotDone(CompletableFuture<?> future) {
        assertFalse(future.isDone(), () -> "completed too early: " + future);
    }
}
