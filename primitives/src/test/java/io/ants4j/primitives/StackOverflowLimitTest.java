package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The documented limit of every primitive (README, "Failures"): a {@code StackOverflowError} that
 * strikes inside the primitive's own code, after it changed its state and before it made the change
 * good, leaves the change in place (a claimed {@code Once}, a held lock, a count up). The JDK
 * reserves stack for its own locks only (JEP 270, {@code @ReservedStackAccess} is internal). These
 * tests show it: run them by hand ({@code -Dtest=StackOverflowLimitTest}); each fails, which is the
 * behaviour the README states, so they are disabled in the build.
 */
@Disabled("shows the documented StackOverflowError limit: each test fails by design")
class StackOverflowLimitTest {
    private static final long WAIT_MS = 5_000;

    // ---------------------------------------------------------------------------------------------
    // A call made with the stack nearly full: a StackOverflowError can come from any method call.
    // Every primitive below changes its state (a claim, a lock, a count) and then calls methods
    // before the change is made good; an overflow there leaves the change in place for ever. The
    // user's function recurses without end, so it throws StackOverflowError itself when it runs.
    // atEveryDepth calls a fresh instance at each depth from the bottom of a small stack upward.
    // ---------------------------------------------------------------------------------------------

    private static int recurseForever(int n) {
        return recurseForever(n + 1) + 1;
    }

    /** Calls {@code attempt} at every depth near the stack limit ({@link StackLimit}), after a warm-up. */
    private static void atEveryDepth(IntConsumer attempt) throws InterruptedException {
        warmUp();
        StackLimit.atEveryDepth(attempt);
    }

    /** Runs each body on a daemon thread; the indices of those that have not finished within {@link #WAIT_MS}. */
    private static List<Integer> hanging(Map<Integer, Runnable> bodies) throws InterruptedException {
        Map<Integer, Thread> threads = new TreeMap<>();
        bodies.forEach((i, body) -> threads.put(i, Thread.ofPlatform().daemon(true).start(() -> {
            try {
                body.run();
            } catch (Throwable expected) {
                // finished
            }
        })));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        List<Integer> hung = new ArrayList<>();
        for (var e : threads.entrySet()) {
            e.getValue().join(Math.max(1L, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (e.getValue().isAlive()) {
                hung.add(e.getKey());
                e.getValue().interrupt();
            }
        }
        return hung;
    }

    /**
     * Runs every call site of Once and WaitGroup.go once with plenty of stack, so that linking the
     * VarHandle call sites (a deep upcall the first time) does not mask where a deep call fails.
     */
    private static void warmUp() {
        for (int i = 0; i < 3; i++) {
            Runnable failing = Once.func(() -> {
                throw new IllegalStateException("warm-up");
            });
            Supplier<Object> failingValue = Once.value(() -> {
                throw new IllegalStateException("warm-up");
            });
            for (int j = 0; j < 2; j++) {
                try {
                    failing.run();
                } catch (IllegalStateException expected) {
                    // warm-up
                }
                try {
                    failingValue.get();
                } catch (IllegalStateException expected) {
                    // warm-up
                }
            }
            Once.func(() -> { }).run();
            Once.value(() -> 1).get();
            Once once = new Once();
            try {
                once.run(() -> {
                    throw new IllegalStateException("warm-up");
                });
            } catch (IllegalStateException expected) {
                // warm-up
            }
            once.run(() -> { });
            new Once().run(() -> { });
            WaitGroup wg = new WaitGroup();
            wg.go(Runnable::run, () -> { });
            Thread self = Thread.currentThread();
            Thread.UncaughtExceptionHandler handler = self.getUncaughtExceptionHandler();
            self.setUncaughtExceptionHandler((t, e) -> { });
            try {
                wg.go(Runnable::run, () -> {
                    throw new IllegalStateException("warm-up");
                });
            } finally {
                self.setUncaughtExceptionHandler(handler);
            }
            try {
                wg.go(task -> {
                    throw new java.util.concurrent.RejectedExecutionException("warm-up");
                }, () -> { });
            } catch (java.util.concurrent.RejectedExecutionException expected) {
                // warm-up
            }
        }
    }

    /**
     * Once.func: "Concurrent callers wait for the first call to finish"; "If action throws, every
     * call ... throws that same throwable instance"; recursion throws IllegalStateException. Called
     * with the stack nearly full, the first call claims the call (CAS) and then overflows the stack
     * before the function runs (entering callFunction): the first call throws StackOverflowError,
     * yet the state stays "running" for ever. Later calls from the same thread throw a false
     * "called from inside its own function"; a call from another thread parks for ever.
     * The function itself would have thrown StackOverflowError too (it recurses without end).
     */
    @Test
    void onceFuncStackOverflowRightAfterTheClaimLeavesItClaimedForEver() throws Exception {
        int[] calls = new int[StackLimit.DEPTHS];
        Runnable[] funcs = new Runnable[StackLimit.DEPTHS];
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            int k = i;
            funcs[i] = Once.func(() -> {
                calls[k]++;
                recurseForever(0);
            });
        }
        atEveryDepth(k -> funcs[k].run());
        Map<Integer, Runnable> notComputed = new TreeMap<>();
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            if (funcs[i].toString().endsWith("[not computed]")) {
                notComputed.put(i, funcs[i]);
            }
        }
        List<Integer> hung = hanging(notComputed);
        assertEquals(List.of(), hung, "Once.func runnables whose first call (deep in the stack) threw"
                + " StackOverflowError, and on which a later call from another thread waits for ever; calls of"
                + " their actions: " + hung.stream().map(i -> calls[i]).toList());
    }

    /** The same for Once.value. */
    @Test
    void onceValueStackOverflowRightAfterTheClaimLeavesItClaimedForEver() throws Exception {
        int[] calls = new int[StackLimit.DEPTHS];
        List<Supplier<Integer>> values = new ArrayList<>();
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            int k = i;
            values.add(Once.value(() -> {
                calls[k]++;
                return recurseForever(0);
            }));
        }
        atEveryDepth(k -> values.get(k).get());
        Map<Integer, Runnable> notComputed = new TreeMap<>();
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            if (values.get(i).toString().endsWith("[not computed]")) {
                notComputed.put(i, values.get(i)::get);
            }
        }
        List<Integer> hung = hanging(notComputed);
        assertEquals(List.of(), hung, "Once.value suppliers whose first call (deep in the stack) threw"
                + " StackOverflowError, and on which a later call from another thread waits for ever; calls of"
                + " their suppliers: " + hung.stream().map(i -> calls[i]).toList());
    }

    /**
     * Once.run: "If the action throws, the throwable propagates to the caller that ran it, and the
     * Once is done all the same"; "every other call ... returns only after that action has
     * returned". Called deep in the stack, a run can take the inner lock and overflow the stack
     * before the action runs, leaving the lock held and the Once not done: a later run on another
     * thread waits for ever.
     */
    @Test
    void onceRunStackOverflowAfterTakingItsLockLeavesItLockedForEver() throws Exception {
        int[] calls = new int[StackLimit.DEPTHS];
        Once[] onces = new Once[StackLimit.DEPTHS];
        Runnable[] actions = new Runnable[StackLimit.DEPTHS];
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            int k = i;
            onces[i] = new Once();
            actions[i] = () -> {
                calls[k]++;
                recurseForever(0);
            };
        }
        atEveryDepth(k -> onces[k].run(actions[k]));
        Map<Integer, Runnable> notDone = new TreeMap<>();
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            if (!onces[i].isDone()) {
                Once once = onces[i];
                notDone.put(i, () -> once.run(() -> { }));
            }
        }
        List<Integer> hung = hanging(notDone);
        assertEquals(List.of(), hung, "Onces whose first run (deep in the stack) threw StackOverflowError,"
                + " and on which a later run from another thread waits for ever; calls of their actions: "
                + hung.stream().map(i -> calls[i]).toList());
    }

    /**
     * WaitGroup.go: "add(1) now, done() when the task returns or throws"; if execute throws, "the
     * count is restored ... Either way the group counts the task once." Inline executor, called
     * deep in the stack: a go that counted the task in and then overflowed the stack before the
     * task ran leaves the count at 1, so every await hangs.
     */
    @Test
    void waitGroupGoStackOverflowAfterAddLeavesTheCountUp() throws Exception {
        int[] calls = new int[StackLimit.DEPTHS];
        WaitGroup[] groups = new WaitGroup[StackLimit.DEPTHS];
        Runnable[] tasks = new Runnable[StackLimit.DEPTHS];
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            int k = i;
            groups[i] = new WaitGroup();
            tasks[i] = () -> {
                calls[k]++;
                recurseForever(0);
            };
        }
        Executor inline = Runnable::run;
        atEveryDepth(k -> groups[k].go(inline, tasks[k]));
        List<String> counted = new ArrayList<>();
        for (int i = 0; i < StackLimit.DEPTHS; i++) {
            if (groups[i].count() != 0) {
                counted.add("#" + i + ": count " + groups[i].count() + ", task called " + calls[i] + " time(s)");
            }
        }
        assertEquals(List.of(), counted, "groups whose go (deep in the stack) threw StackOverflowError and"
                + " left the count up");
    }
}
