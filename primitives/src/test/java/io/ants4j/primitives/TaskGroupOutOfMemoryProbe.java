package io.ants4j.primitives;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run in a JVM of its own with a small heap ({@link LockTests#runOutOfMemoryProbe(Class, String)}):
 * a {@link TaskGroup} is cancelled (or awaited, by {@code await}) by a thread that has filled the heap first. Two tasks of the
 * group wait to be interrupted. Prints {@code OK} if, once the memory is back, both tasks have
 * ended and {@link TaskGroup#close()} returns: an {@link OutOfMemoryError} may come out of the
 * cancelling call, but must not leave the group cancelled with its tasks still running.
 * <ul>
 *   <li>{@code cancel}: the thread calls {@link TaskGroup#cancel()}; then, with memory to spare,
 *       the probe calls it again.
 *   <li>{@code failure}: a third task fills the heap and throws, cancelling the group. Its
 *       {@code Future} must report its own exception, not an error met while cancelling.
 *   <li>{@code await}: {@link TaskGroup#await()} of a group whose {@link #RESULTS} tasks have
 *       returned runs out of memory for the list of results (the thread kept a few kilobytes, enough
 *       for anything smaller). Once the memory is back, a second {@code await} must return the
 *       results: the error must not have ended the round.
 * </ul>
 */
final class TaskGroupOutOfMemoryProbe {
    private static final int WAITING_TASKS = 2;
    /** Tasks of the {@code await} probe: their list of results takes some 40 KB. */
    private static final int RESULTS = 10_000;
    /** What the awaiting thread frees after filling the heap: room for small objects, not for the results. */
    private static final int RESERVE_BYTES = 4096;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Executor PLATFORM_THREADS = task -> Thread.ofPlatform().daemon(true).start(task);

    private TaskGroupOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "cancel" -> cancel(false) + cancel(true); // with memory to spare first: links every call site
            case "failure" -> failure(false) + failure(true);
            case "await" -> awaitResults(false) + awaitResults(true);
            default -> "unknown probe " + args[0];
        };
        System.out.println(result.equals("OKOK") ? "OK" : result);
        System.exit(0);
    }

    /** A group whose {@link #WAITING_TASKS} tasks run until interrupted, counting in {@code ended} when they end. */
    private static TaskGroup<Integer> groupOfWaitingTasks(AtomicInteger ended) throws InterruptedException {
        TaskGroup<Integer> group = TaskGroup.create(-1, PLATFORM_THREADS);
        CountDownLatch running = new CountDownLatch(WAITING_TASKS);
        CountDownLatch never = new CountDownLatch(1);
        for (int i = 0; i < WAITING_TASKS; i++) {
            group.go(() -> {
                running.countDown();
                try {
                    return never.await(1, TimeUnit.HOURS) ? 0 : -1;
                } finally {
                    ended.incrementAndGet();
                }
            });
        }
        if (!running.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the tasks did not start");
        }
        return group;
    }

    private static String cancel(boolean fillHeap) throws InterruptedException {
        AtomicInteger ended = new AtomicInteger();
        TaskGroup<Integer> group = groupOfWaitingTasks(ended);
        Throwable[] thrown = new Throwable[1];
        Thread canceller = Thread.ofPlatform().start(() -> {
            if (fillHeap) {
                OutOfMemoryProbe.fillHeap();
            }
            try {
                group.cancel();
            } catch (OutOfMemoryError e) {
                thrown[0] = e;
            } finally {
                OutOfMemoryProbe.releaseHeap();
            }
        });
        if (!canceller.join(TIMEOUT.multipliedBy(3))) {
            return "FAILED: cancel() hung";
        }
        group.cancel(); // with memory to spare: finishes what an error may have cut short
        return checkEnded(group, ended, "cancel() threw " + thrown[0]);
    }

    private static String failure(boolean fillHeap) throws InterruptedException {
        AtomicInteger ended = new AtomicInteger();
        TaskGroup<Integer> group = groupOfWaitingTasks(ended);
        IllegalStateException own = new IllegalStateException("the task's own failure");
        Future<Integer> failing = group.go(() -> {
            if (fillHeap) {
                OutOfMemoryProbe.fillHeap();
            }
            throw own;
        });
        long deadline = System.nanoTime() + TIMEOUT.multipliedBy(3).toNanos();
        while (!failing.isDone() && System.nanoTime() - deadline < 0L) {
            Thread.onSpinWait(); // allocates nothing while the heap is full
        }
        OutOfMemoryProbe.releaseHeap();
        if (!failing.isDone()) {
            return "FAILED: the failing task did not end";
        }
        Throwable reported = failing.state() == Future.State.FAILED ? failing.exceptionNow() : null;
        if (reported != own) {
            return "FAILED: the failing task's Future reports " + reported + " instead of its own exception";
        }
        return checkEnded(group, ended, "after the failure");
    }

    private static String awaitResults(boolean fillHeap) throws Exception {
        TaskGroup<Integer> group = TaskGroup.create(-1, Runnable::run);
        for (int i = 0; i < RESULTS; i++) {
            int result = i;
            group.go(() -> result);
        }
        Throwable[] thrown = new Throwable[1];
        Thread awaiter = Thread.ofPlatform().start(() -> {
            byte[][] reserve = {new byte[RESERVE_BYTES]};
            if (fillHeap) {
                OutOfMemoryProbe.fillHeap();
                reserve[0] = null;
            }
            try {
                group.await();
            } catch (OutOfMemoryError | InterruptedException | ExecutionException e) {
                thrown[0] = e;
            } finally {
                OutOfMemoryProbe.releaseHeap();
            }
        });
        if (!awaiter.join(TIMEOUT.multipliedBy(3))) {
            return "FAILED: await() hung";
        }
        if (fillHeap != thrown[0] instanceof OutOfMemoryError) {
            return "FAILED: await() with the heap " + (fillHeap ? "full" : "free") + " threw " + thrown[0];
        }
        if (!fillHeap) {
            return "OK"; // with memory to spare: links every call site
        }
        List<Integer> results = group.await();
        boolean all = results.size() == RESULTS && results.get(RESULTS - 1) == RESULTS - 1;
        return all ? "OK" : "FAILED: the await after the error returned " + results.size() + " of " + RESULTS + " results";
    }

    /** Whether every waiting task ended and close() returns, within the timeout. */
    private static String checkEnded(TaskGroup<Integer> group, AtomicInteger ended, String what)
            throws InterruptedException {
        Thread closer = Thread.ofPlatform().daemon(true).start(group::close);
        boolean closed = closer.join(TIMEOUT);
        return closed && ended.get() == WAITING_TASKS ? "OK"
                : "FAILED (" + what + "): close() returned " + closed + ", " + ended.get() + " of " + WAITING_TASKS
                        + " tasks interrupted, " + group;
    }
}
