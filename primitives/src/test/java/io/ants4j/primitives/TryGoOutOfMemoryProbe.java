package io.ants4j.primitives;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Run in a JVM of its own with a small heap ({@link LockTests#runOutOfMemoryProbe(Class, String)}) by
 * {@link TryGoOutOfMemoryTest}. Prints {@code OK} last, or what went wrong.
 * <ul>
 *   <li>{@code try-go}: {@link TaskGroup#tryGo} with a free slot, on an executor that runs the task inline and then
 *       leaves the heap full (as any other thread may). What tryGo allocates after the executor took the task must
 *       not turn a started task into a thrown call: a caller told {@code OutOfMemoryError} has no Future and cannot
 *       tell that its task runs in the group (it would submit it again).
 * </ul>
 */
final class TryGoOutOfMemoryProbe {

    private TryGoOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "try-go" -> tryGo(false) + tryGo(true); // with memory to spare first: links every call site
            default -> "unknown probe " + args[0];
        };
        System.out.println(result.equals("OKOK") ? "OK" : result);
        System.exit(0);
    }

    private static String tryGo(boolean fillHeap) throws Exception {
        AtomicInteger ran = new AtomicInteger();
        Executor inlineThenFull = task -> {
            task.run();
            if (fillHeap) {
                OutOfMemoryProbe.fillHeap();
            }
        };
        TaskGroup<Integer> group = TaskGroup.create(-1, inlineThenFull);
        Optional<Future<Integer>> tried = null;
        Throwable thrown = null;
        try {
            tried = group.tryGo(() -> {
                ran.incrementAndGet();
                return 42;
            });
        } catch (Throwable t) {
            OutOfMemoryProbe.releaseHeap();
            thrown = t;
        }
        OutOfMemoryProbe.releaseHeap();
        List<Integer> results = group.await();
        if (thrown == null) {
            return tried.isPresent() && ran.get() == 1 && results.equals(List.of(42)) ? "OK"
                    : "tryGo returned " + tried + ", the task ran " + ran.get() + " times, await " + results;
        }
        return ran.get() == 0 && results.isEmpty() ? "OK"
                : "FAIL: TaskGroup.tryGo threw " + thrown + " (an allocation after the executor took the task), yet"
                        + " the task ran " + ran.get() + " time(s) and counts in the group: await returned " + results
                        + "; the caller has no Future and cannot tell (TaskGroup javadoc: a task whose submission threw"
                        + " \"is not part of the group: it never runs\", unless the executor had already started it"
                        + " when execute threw; here execute returned normally)";
    }
}
