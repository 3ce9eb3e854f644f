package io.ants4j.primitives;

import io.ants4j.primitives.SingleFlight.Result;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM of its own with a small heap
 * ({@link ASubmitWhoseExecutorStartedTheCallAndThrewOnAFullHeapIsNotCountedAsWaitingTest}):
 * {@code submit(key, fn, executor)} with an executor that starts the call's task on a thread of its own, waits until
 * the function runs, then throws, the heap being full at that moment (as when the executor's own throwable is an
 * OutOfMemoryError). Then a thread joins the call with {@code run}, and the function returns. Prints {@code OK} if
 * {@code submit} threw the executor's throwable and the joined thread's result is not shared (one caller waited);
 * else {@code FAIL: } and what happened.
 */
final class ASubmitWhoseExecutorStartedTheCallAndThrewOnAFullHeapIsNotCountedAsWaitingProbe {
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(20);

    private ASubmitWhoseExecutorStartedTheCallAndThrewOnAFullHeapIsNotCountedAsWaitingProbe() {
    }

    public static void main(String[] args) {
        boolean fillHeap = !"control".equals(args.length > 0 ? args[0] : "");
        ProbeReport.printAndHalt(() -> {
            once(false); // the same path with memory to spare first: classes loaded, call sites linked
            return once(fillHeap);
        });
    }

    /** The function's state: volatile fields and a park, which allocate nothing on a full heap. */
    static final class Fn {
        volatile boolean started;
        volatile boolean release;
        volatile Thread thread;

        Object call() {
            thread = Thread.currentThread();
            started = true;
            while (!release) {
                LockSupport.park(this); // unparked by the probe once it has set release
            }
            return "value";
        }
    }

    private static String once(boolean fillHeap) throws Exception {
        SingleFlight<String, Object> flight = new SingleFlight<>();
        Fn fn = new Fn();
        RejectedExecutionException refusal = new RejectedExecutionException("thrown after starting the task");
        Executor startsThenThrows = task -> {
            Thread.ofPlatform().daemon(true).start(task);
            long deadline = System.nanoTime() + WAIT_NS;
            while (!fn.started && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            if (fillHeap) {
                OutOfMemoryProbe.fillHeap(); // released by the caller of submit
            }
            throw refusal;
        };
        Throwable thrown = null;
        try {
            flight.submit("key", fn::call, startsThenThrows);
        } catch (Throwable t) {
            thrown = t;
        }
        OutOfMemoryProbe.releaseHeap();
        if (!fn.started) {
            return "FAIL: the function never started";
        }
        String thrownText = String.valueOf(thrown);
        if (thrown != null && thrown != refusal) {
            StringBuilder where = new StringBuilder(thrownText);
            StackTraceElement[] frames = thrown.getStackTrace();
            for (int i = 0; i < Math.min(4, frames.length); i++) {
                where.append(i == 0 ? " at " : " < ").append(frames[i]);
            }
            thrownText = where.toString();
        }
        Result<?>[] got = new Result<?>[1];
        Throwable[] failed = new Throwable[1];
        Thread waiter = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                got[0] = flight.run("key", () -> "not called");
            } catch (Throwable t) {
                failed[0] = t;
            }
        });
        long deadline = System.nanoTime() + WAIT_NS;
        while (LockSupport.getBlocker(waiter) == null && waiter.isAlive() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        fn.release = true;
        LockSupport.unpark(fn.thread);
        waiter.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NS));
        if (waiter.isAlive()) {
            return "FAIL: the joined thread never got the outcome";
        }
        if (failed[0] != null) {
            return "FAIL: the joined thread threw " + failed[0];
        }
        StringBuilder problems = new StringBuilder();
        if (thrown != refusal) {
            problems.append(" submit threw ").append(thrownText).append(", not the executor's throwable;");
        }
        if (!new Result<>("value", false).equals(got[0])) {
            problems.append(" the one caller waiting when the call completed was given ").append(got[0])
                    .append(" (the submitter, thrown at, holds no future and waits for nothing);");
        }
        return problems.isEmpty() ? "OK" : "FAIL:" + problems;
    }
}
