package io.ants4j.primitives;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * Run by {@link SingleFlightHandOverTest} in a JVM of its own (a waiting thread stuck in a claimed node spins for
 * ever once interrupted). Calls submitted to an executor that holds their tasks, a platform thread joined to each;
 * the tasks are run with the stack nearly full, one at each depth from the bottom of a small stack upward. Where
 * the function returned and the completion overflowed, the waiting thread must be given the outcome (issue: "later
 * callers wait for it and share its outcome"), or at least leave when interrupted ("an interrupted waiter stops
 * waiting (InterruptedException)"). Prints OK, or FAIL and what broke.
 */
final class SingleFlightStackLimitProbe {
    private static final int DEPTHS = StackLimit.DEPTHS;
    private static Runnable[] held; // plain arrays: the attempt's own frames stay shallow
    private static boolean[] fnReturned;
    private static boolean[] completionOverflowed;

    private SingleFlightStackLimitProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(SingleFlightStackLimitProbe::waitingThread);
    }

    private static String waitingThread() throws Exception {
        SingleFlight<Integer, Object> deep = new SingleFlight<>();
        for (int i = 0; i < 3; i++) {
            deep.run(-1, () -> "warm-up");
            deep.submit(-1, () -> "warm-up", Runnable::run).get();
        }
        held = new Runnable[DEPTHS];
        fnReturned = new boolean[DEPTHS];
        completionOverflowed = new boolean[DEPTHS];
        List<Thread> waiters = new ArrayList<>();
        List<CompletableFuture<Object>> given = new ArrayList<>();
        for (int k = 0; k < DEPTHS; k++) {
            int key = k;
            deep.submit(k, () -> {
                fnReturned[key] = true;
                return "value";
            }, task -> held[key] = task);
            CompletableFuture<Object> got = new CompletableFuture<>();
            // platform threads: a virtual one whose unpark overflows is lost in the JDK (UnparkFailureTest's limit)
            Thread waiter = Thread.ofPlatform().daemon(true).start(() -> {
                try {
                    got.complete(deep.run(key, () -> "not called"));
                } catch (Throwable t) {
                    got.completeExceptionally(t);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (LockSupport.getBlocker(waiter) == null) {
                if (System.nanoTime() - deadline > 0L) {
                    return "FAIL: setup: waiter " + k + " did not join";
                }
                Thread.onSpinWait();
            }
            waiters.add(waiter);
            given.add(got);
        }
        StackLimit.atEveryDepth(k -> {
            try {
                held[k].run();
            } catch (StackOverflowError e) {
                completionOverflowed[k] = fnReturned[k];
            }
        });
        List<Integer> overflowedAfterFn = new ArrayList<>();
        List<Integer> neverGiven = new ArrayList<>();
        List<String> ignoreInterrupts = new ArrayList<>();
        for (int k = 0; k < DEPTHS; k++) {
            if (completionOverflowed[k]) {
                overflowedAfterFn.add(k);
            }
            if (!fnReturned[k]) {
                continue; // the task overflowed before it called the function: a dropped task (documented)
            }
            try {
                given.get(k).get(neverGiven.isEmpty() ? 2_000 : 100, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                // given the overflow as the call's failure: an outcome all the same
            } catch (TimeoutException e) {
                neverGiven.add(k);
                Thread w = waiters.get(k);
                w.interrupt();
                if (!w.join(Duration.ofSeconds(1))) {
                    ignoreInterrupts.add(k + " (" + w.getState() + ")");
                }
            }
        }
        if (overflowedAfterFn.isEmpty()) {
            return "FAIL: no completion overflowed after its function returned: the probe proves nothing";
        }
        if (!neverGiven.isEmpty() || !ignoreInterrupts.isEmpty()) {
            return "FAIL: completions that overflowed after the function returned: depths " + overflowedAfterFn
                    + "; waiting threads never given the outcome: " + neverGiven
                    + "; of those, interrupted and still waiting after 1 s: " + ignoreInterrupts;
        }
        return "OK";
    }
}
