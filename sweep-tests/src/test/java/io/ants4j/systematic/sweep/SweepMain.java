package io.ants4j.systematic.sweep;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The sweep's own JVM (started by {@link AllocationFailureSweepTest} with a small heap, the serial collector,
 * no TLABs and the interpreter only): sweeps the scenarios named on the command line, one after the other, and
 * reports each on standard output as one line {@code SWEEP|PASS|name|...} or {@code SWEEP|FAIL|name|...}
 * (preceded by {@code SWEEP|BEGIN|name}, followed by {@code SWEEP|DETAIL|...} lines).
 *
 * <p>Arguments: the folder for thread dumps, {@code full} or {@code quick}, then scenario names.
 *
 * <p>Before the first scenario: a {@code FutureTask} completed while a thread waits for it
 * ({@link #linkFutureCompletion()}), a JDK path whose first use allocates and that no scenario warms up reliably.
 *
 * <p>Per scenario: two warm-up runs with memory to spare (the first use of a class, a lambda or a
 * {@code VarHandle} mode allocates; an {@link OutOfMemoryError} there would break the class for good, not test
 * the operation), one run under JFR that maps every allocation of the operation's thread
 * ({@link AllocationMap}), then one run per allocation with exactly that allocation's offset left free, so that
 * it is the one that fails, and runs with more and more memory until the operation completes. Each run
 * checks the scenario's invariants once the heap is free again. A held scenario (work on other threads) is
 * swept blindly instead: free bytes from 0 to 512 in steps of 32 (full: to 4096 in steps of 8). With {@code full}, every scenario is also swept
 * blindly in steps of 8 bytes from 0 to past its last allocation. The first failing run ends the scenario.
 * An allocation counts as hit when the operation throws {@link OutOfMemoryError} from it, or returns normally
 * having allocated exactly up to it (it absorbed the error). A scenario marked
 * {@linkplain Scenario#failingAnAllocation() failing an allocation} fails when none of its allocations was hit.
 */
public final class SweepMain {
    static final String PREFIX = "SWEEP|";
    /** How long an operation may take, once the heap is free again, before it counts as hung. */
    private static final long OPERATION_MILLIS = 10_000L;
    /**
     * How long the heap stays exhausted for an operation that has not returned. Far longer than an operation
     * takes (milliseconds, interpreted, even on a loaded machine), but short: an operation that waits for
     * memory rather than failing (the JDK's {@code VirtualThread.unpark} retries its submission to the
     * scheduler every 100 ms on {@link OutOfMemoryError}, for as long as the heap stays exhausted) is let go
     * here, and counts as hung only if it does not return once memory is back.
     */
    private static final long EXHAUSTED_MILLIS = 1_000L;
    private static final long QUIESCE_MILLIS = 200L;
    /** Free bytes a held scenario is swept up to. */
    private static final long HELD_BYTES = 512L;
    private static final long HELD_BYTES_FULL = 4096L;
    /** The step of a held scenario's blind sweep in the quick run (the full one steps by 8 bytes). */
    private static final long HELD_STEP = 64L;

    private final HeapFiller filler = new HeapFiller();
    private final PrintStream out = System.out;
    private final Path dumps;
    private final boolean full;
    private final boolean mapped = AllocationMap.available();
    /** {@code -Dsweep.verbose=true}: one line per run (free bytes, what the operation threw, where). */
    private final boolean verbose = Boolean.getBoolean("sweep.verbose");
    private SweepRunner runner;
    private int generation;

    private SweepMain(Path dumps, boolean full) {
        this.dumps = dumps;
        this.full = full;
        this.runner = new SweepRunner(generation++);
    }

    public static void main(String[] args) throws Exception {
        linkFutureCompletion();
        Path dumps = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(dumps);
        boolean full = args[1].equals("full");
        Map<String, Scenario<?>> scenarios = Scenarios.byName();
        SweepMain sweep = new SweepMain(dumps, full);
        for (String name : Arrays.asList(args).subList(2, args.length)) {
            Scenario<?> s = scenarios.get(name);
            sweep.out.println(PREFIX + "BEGIN|" + name);
            if (s == null) {
                sweep.out.println(PREFIX + "FAIL|" + name + "|no such scenario");
                continue;
            }
            sweep.sweep(s);
        }
        System.exit(0);
    }

    /**
     * Completes a {@link FutureTask} while another thread waits for it in {@code get()}, with memory to spare, so
     * that the JDK links the {@code VarHandle} accesses of that path before any heap is exhausted. They are linked
     * per access mode and type on first use, which allocates; {@code FutureTask.set} and {@code finishCompletion}
     * throw an {@link OutOfMemoryError} there after the task counts as done, and the waiter is never woken. No
     * scenario warms that path up reliably (in {@code Pool.invokeAll} the caller waits only if its last task is
     * still running when it asks), so whichever run first took it on an exhausted heap hung
     * ({@link FutureCompletionLinkTest}).
     */
    static void linkFutureCompletion() throws InterruptedException {
        FutureTask<Void> task = new FutureTask<>(() -> null);
        Thread waiter = Thread.ofPlatform().daemon(true).name("sweep-link-future").start(() -> {
            try {
                task.get();
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.getState() != Thread.State.WAITING) { // parked in get(): its node is queued
            if (System.nanoTime() - deadline > 0L) {
                throw new IllegalStateException("the waiter did not park in get(): " + waiter.getState());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        task.run();
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        if (waiter.isAlive()) {
            throw new IllegalStateException("the waiter of a completed FutureTask was not woken");
        }
    }

    /** One run's result. */
    private record Run(long free, Throwable thrown, long allocated, boolean stalled, String failure) {
        boolean outOfMemory() {
            return thrown instanceof OutOfMemoryError;
        }
    }

    private void sweep(Scenario<?> s) {
        long start = System.nanoTime();
        int runs = 0;
        try {
            for (int i = 0; i < (full ? 2 : 1); i++) { // quick: the traced run is the second warm-up
                Run r = run(s, -1L, null);
                runs++;
                if (r.failure != null) {
                    fail(s, "fails with memory to spare: " + r.failure, r);
                    return;
                }
            }
            AllocationMap map = null;
            long total;
            if (mapped) {
                Run[] traced = new Run[1];
                long t0 = System.nanoTime();
                map = trace(s, traced);
                if (verbose) {
                    out.println(PREFIX + "TRACE|" + s.name() + "|ms=" + (System.nanoTime() - t0) / 1_000_000L);
                }
                runs++;
                if (traced[0].failure != null) {
                    fail(s, "fails with memory to spare (traced): " + traced[0].failure, traced[0]);
                    return;
                }
                total = map.total();
            } else {
                total = run(s, -1L, null).allocated;
                runs++;
            }
            boolean held = s.settled() != null;
            TreeSet<Long> targets = new TreeSet<>();
            if (held) {
                for (long n = 0; n <= (full ? HELD_BYTES_FULL : HELD_BYTES); n += full ? 8 : HELD_STEP) {
                    targets.add(n);
                }
            } else {
                if (map != null) {
                    targets.addAll(full ? map.offsets() : map.offsetsPerCallSite());
                } else {
                    for (long n = 0; n <= total; n += 16) {
                        targets.add(n);
                    }
                }
                if (full) {
                    for (long n = 0; n <= total + 64; n += 8) {
                        targets.add(n);
                    }
                }
            }
            TreeSet<Long> offsets = new TreeSet<>();
            if (map != null && !held) {
                offsets.addAll(map.offsets());
            }
            TreeSet<Integer> hit = new TreeSet<>();
            int missed = 0;
            int stalled = 0;
            for (long target : targets) {
                boolean steer = offsets.contains(target); // else a blind run: whatever it fails at
                boolean reached = false;
                long correction = 0L; // what other threads took or left, seen in this target's earlier attempts
                for (int attempt = 0; attempt < (full ? 4 : 2) && !reached; attempt++) {
                    Run r = run(s, Math.max(0L, steer ? target + correction : target), map);
                    runs++;
                    if (r.failure != null) {
                        fail(s, r.failure, r);
                        return;
                    }
                    // an operation that returns normally having allocated exactly up to the steered allocation
                    // failed there and absorbed the error (SingleFlight's hand-over makes its Result so)
                    boolean absorbed = steer && r.thrown == null && r.allocated == target && target < total;
                    if (map != null && !held && (r.outOfMemory() || absorbed)) {
                        AllocationMap.Allocation a = map.at(r.allocated);
                        if (a != null) {
                            hit.add(map.allocations().indexOf(a));
                        }
                    }
                    if (r.stalled) {
                        // it waited for memory instead of failing: another attempt would only wait again
                        stalled++;
                        reached = !steer || r.outOfMemory() && r.allocated == target;
                        break;
                    }
                    if (!steer || absorbed) {
                        reached = true;
                    } else if (r.outOfMemory()) {
                        reached = r.allocated == target;
                        correction += target - r.allocated;
                    } else {
                        correction -= total - target + 8; // it had all it needed: far more free than meant
                    }
                }
                if (!reached) {
                    missed++;
                }
            }
            if (s.mustFailAnAllocation() && map != null && !map.allocations().isEmpty() && hit.isEmpty()) {
                out.println(PREFIX + "FAIL|" + s.name() + "|none of the operation's " + map.allocations().size()
                        + " allocations was made to fail (missed=" + missed + ", stalled=" + stalled + "); the first: "
                        + oneLine(map.describe(0L)));
                return;
            }
            // More and more memory until the operation completes without running out.
            long n = held ? (full ? HELD_BYTES_FULL : HELD_BYTES) : total;
            boolean completed = false;
            for (int i = 0; i < 64 && !completed; i++, n += 16L << Math.min(i, 10)) {
                Run r = run(s, n, map);
                runs++;
                if (r.failure != null) {
                    fail(s, r.failure, r);
                    return;
                }
                completed = r.thrown == null;
            }
            if (!completed) {
                out.println(PREFIX + "FAIL|" + s.name() + "|the operation never completed without an error, up to "
                        + n + " bytes free");
                return;
            }
            long ms = (System.nanoTime() - start) / 1_000_000L;
            out.println(PREFIX + "PASS|" + s.name() + "|runs=" + runs + "|allocations=" + (map == null ? "?"
                    : hit.size() + "/" + map.allocations().size()) + "|bytes=" + total + "|missed=" + missed
                    + "|stalled=" + stalled
                    + "|ms=" + ms);
        } catch (Throwable t) {
            out.println(PREFIX + "FAIL|" + s.name() + "|the harness failed after " + runs + " runs: " + oneLine(t));
            detail(stack(t));
        }
    }

    private AllocationMap trace(Scenario<?> s, Run[] result) throws Exception {
        Object state = s.setup().make();
        AllocationMap map = AllocationMap.record(runner.thread(), () -> {
            runner.start(s, state);
            runner.awaitDone(OPERATION_MILLIS);
        }, 0L, dumps);
        result[0] = finish(s, state, -1L, null, false, true);
        return new AllocationMap(map.allocations(), runner.allocated());
    }

    /** Sets up, exhausts the heap down to {@code n} free bytes ({@code n < 0}: not at all), runs, checks. */
    private Run run(Scenario<?> s, long n, AllocationMap map) throws Exception {
        long t0 = System.nanoTime();
        Object state = s.setup().make();
        long free = -1L;
        long t1 = System.nanoTime();
        long tq = t1;
        if (n >= 0L) {
            quiesce();
            tq = System.nanoTime();
            free = filler.fill(n);
        }
        long t2 = System.nanoTime();
        runner.start(s, state);
        boolean stalled = !runner.awaitDone(EXHAUSTED_MILLIS);
        filler.release();
        long t3 = System.nanoTime();
        Run r = finish(s, state, free, map, stalled, !stalled || runner.awaitDone(OPERATION_MILLIS));
        if (verbose) {
            out.println(PREFIX + "RUN|" + s.name() + "|n=" + n + " free=" + free + " threw=" + r.thrown
                    + " allocated=" + r.allocated + (r.stalled ? " stalled" : "") + (map != null && r.outOfMemory() ? " at " + map.describe(r.allocated)
                    : "") + " ms: setup=" + (t1 - t0) / 1_000_000L + " quiesce=" + (tq - t1) / 1_000_000L + " fill=" + (t2 - tq) / 1_000_000L
                    + " operation=" + (t3 - t2) / 1_000_000L + " check=" + (System.nanoTime() - t3) / 1_000_000L);
        }
        return r;
    }

    /**
     * Waits (at most {@link #QUIESCE_MILLIS}) until no other thread runs Java code: a thread of an earlier run
     * still winding down (a virtual thread's epilogue, a worker going idle) would turn objects into garbage after
     * the heap is filled, and the operation's first failing allocation would reclaim them and go on.
     */
    private void quiesce() throws InterruptedException {
        long deadline = System.nanoTime() + QUIESCE_MILLIS * 1_000_000L;
        for (;;) {
            boolean busy = false;
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                Thread t = e.getKey();
                StackTraceElement[] st = e.getValue();
                if (t != Thread.currentThread() && t != runner.thread() && t.getState() == Thread.State.RUNNABLE
                        && st.length > 0 && !st[0].isNativeMethod()) {
                    busy = true;
                    break;
                }
            }
            if (!busy || System.nanoTime() - deadline > 0L) {
                return;
            }
            Thread.sleep(1);
        }
    }

    @SuppressWarnings("unchecked")
    private Run finish(Scenario<?> s, Object state, long free, AllocationMap map, boolean stalled, boolean over) {
        if (!over) {
            String dump = dumpThreads(s);
            String at = Arrays.toString(runner.thread().getStackTrace());
            runner = new SweepRunner(generation++); // the old one stays stuck in the operation
            return new Run(free, null, -1L, true, "the operation did not return within "
                    + (EXHAUSTED_MILLIS + OPERATION_MILLIS) / 1000 + " s (" + free + " bytes free); the runner is at " + at + "; threads: " + dump);
        }
        Throwable thrown = runner.thrown();
        long allocated = runner.allocated();
        runner.forget();
        String failure = null;
        try {
            ((Scenario<Object>) s).check().check(state, thrown);
        } catch (Throwable broken) {
            StringBuilder b = new StringBuilder();
            b.append(free < 0 ? "with memory to spare" : free + " bytes free");
            if (thrown != null) {
                b.append("; the operation threw ").append(thrown);
                if (thrown instanceof OutOfMemoryError) {
                    b.append(" after allocating ").append(allocated).append(" bytes");
                    if (map != null) {
                        b.append(", at ").append(map.describe(allocated));
                    }
                    StackTraceElement[] st = thrown.getStackTrace();
                    if (st.length > 0) {
                        b.append("; its stack: ").append(Arrays.toString(Arrays.copyOf(st, Math.min(8, st.length))));
                    }
                }
            } else {
                b.append("; the operation returned normally");
            }
            b.append("; then: ").append(broken).append("; threads: ").append(dumpThreads(s));
            failure = b.toString();
        }
        return new Run(free, thrown, allocated, stalled, failure);
    }

    private void fail(Scenario<?> s, String failure, Run r) {
        out.println(PREFIX + "FAIL|" + s.name() + "|" + oneLine(failure));
    }

    private void detail(List<String> lines) {
        for (String l : lines) {
            out.println(PREFIX + "DETAIL|" + l);
        }
    }

    private String dumpThreads(Scenario<?> s) {
        try {
            Path file = dumps.resolve(s.name() + "-threads-" + System.nanoTime() + ".txt");
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            return "dumped to " + file;
        } catch (Throwable t) {
            return "no thread dump: " + t;
        }
    }

    private static String oneLine(Object o) {
        return String.valueOf(o).replace('\n', ' ').replace('\r', ' ').replace("|", "/");
    }

    private static List<String> stack(Throwable t) {
        List<String> l = new ArrayList<>();
        l.add(oneLine(t));
        for (StackTraceElement e : t.getStackTrace()) {
            l.add("  at " + e);
        }
        return l;
    }
}
