package io.ants4j.pool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run in a JVM of its own with a small heap ({@link InvokeAnyOutOfMemoryTest}): {@code invokeAny} of one task
 * that fills the heap once the caller waits for it, and then returns, so that whatever the worker allocates to
 * record the completed task fails. Prints {@code OK} if the caller still gets the task's result. The heap is
 * freed by the panic handler (an {@code OutOfMemoryError} that escaped the task) or by the caller once it
 * returns; the same call runs first with memory to spare, so that no first use of the path allocates.
 */
final class InvokeAnyOutOfMemoryProbe {
    private static final long WAIT_SECONDS = 10;
    private static final ThreadFactory PLATFORM = r -> Thread.ofPlatform().daemon(true).unstarted(r);

    /** The thread that calls {@code invokeAny} now. */
    private static volatile Thread caller;
    /** Whether the task fills the heap before it returns. */
    private static volatile boolean fill;

    private InvokeAnyOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        AtomicReference<Throwable> escaped = new AtomicReference<>();
        PoolOptions options = PoolOptions.builder().threadFactory(PLATFORM).panicHandler(t -> {
            LifecycleOutOfMemoryProbe.freeHeap();
            escaped.set(t);
        }).expiryDuration(Duration.ofSeconds(60)).build();
        ExecutorService pool = switch (args[0]) {
            case "Pool" -> Pool.newPool(2, options);
            case "MultiPool" -> MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options);
            default -> throw new IllegalArgumentException(args[0]);
        };
        Callable<Object> task = () -> {
            awaitCallerParked(); // waiting for the completion, it allocates nothing more
            if (fill) {
                LifecycleOutOfMemoryProbe.fillHeap();
            }
            return "result";
        };
        List<Callable<Object>> tasks = List.of(task);
        String warmUp = call(pool, tasks);
        fill = true;
        String out = call(pool, tasks);
        System.out.println(warmUp != null ? "FAILED: with memory to spare, " + args[0] + ".invokeAny " + warmUp
                : out == null ? "OK"
                : "FAILED: " + args[0] + ".invokeAny " + out + "; the worker's task ended with " + escaped.get());
        System.exit(0);
    }

    /** Calls {@code invokeAny} on a new thread; null if it returned the task's result, else what happened. */
    private static String call(ExecutorService pool, List<Callable<Object>> tasks) throws InterruptedException {
        AtomicReference<Object> result = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = Thread.ofPlatform().daemon(true).unstarted(() -> {
            try {
                result.set(pool.invokeAny(tasks));
            } catch (Throwable e) {
                LifecycleOutOfMemoryProbe.freeHeap();
                thrown.set(e);
            }
            LifecycleOutOfMemoryProbe.freeHeap();
        });
        caller = t;
        t.start();
        boolean returned = t.join(Duration.ofSeconds(WAIT_SECONDS));
        LifecycleOutOfMemoryProbe.freeHeap();
        if (!returned) {
            return "did not return within " + WAIT_SECONDS + " s";
        }
        return "result".equals(result.get()) ? null : "returned " + result.get() + ", threw " + thrown.get();
    }

    /** Waits (bounded) until the caller of invokeAny parks. */
    private static void awaitCallerParked() {
        long deadline = System.nanoTime() + Duration.ofSeconds(WAIT_SECONDS).toNanos();
        for (Thread t; (t = caller) == null || t.getState() != Thread.State.WAITING;) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the caller of invokeAny never parked");
            }
            Thread.onSpinWait();
        }
    }
}
