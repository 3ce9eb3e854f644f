package io.ants4j.systematic.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The allocations an operation makes on the runner thread, in order, each with the bytes its thread had
 * allocated before it (its offset): recorded with JFR's {@code jdk.ObjectAllocationOutsideTLAB} event, which
 * without TLABs fires for every allocation, with its stack. Leaving exactly {@code offset} bytes free makes that
 * allocation the one that fails, and the bytes the thread allocated before an {@link OutOfMemoryError} name the
 * allocation that failed.
 *
 * @param allocations the allocations in order
 * @param total       the bytes the thread allocated in the operation, as the JVM counts them
 */
record AllocationMap(List<Allocation> allocations, long total) {

    /** One allocation: its offset in the operation, its size, the class allocated and the top of its stack. */
    record Allocation(long offset, long size, String type, List<String> frames) {
        /** The innermost frame of ants4j code (not the sweep's) on the stack, or the top frame if none. */
        String caller() {
            for (String f : frames) {
                if (f.startsWith("io.ants4j.") && !f.startsWith("io.ants4j.systematic.")) {
                    return f;
                }
            }
            return frames.isEmpty() ? "?" : frames.get(0);
        }

        /** The class, where it was allocated and, if elsewhere, the last frame of ants4j that led there. */
        String site() {
            String top = frames.isEmpty() ? "?" : frames.get(0);
            String ours = caller();
            return type + " at " + top + (ours.equals(top) ? "" : " from " + ours);
        }
    }

    /** The offset of every allocation. */
    List<Long> offsets() {
        return allocations.stream().map(Allocation::offset).toList();
    }

    /**
     * The quick run's targets: for each call site of ants4j code ({@link Allocation#caller}), the offset of the
     * first allocation under its first call and, if the operation calls it again later (a loop over sub-pools,
     * waiters or workers, also one whose body is that one {@code new}), under its last call. Every allocation of the JDK under one call of ours throws out of
     * that same call, so the code under test sees one failure per call; a failure in the last pass of a loop
     * finds the earlier passes done, one in the first finds none done. The full run fails every allocation.
     */
    List<Long> offsetsPerCallSite() {
        java.util.Map<String, Long> first = new java.util.LinkedHashMap<>();
        java.util.Map<String, Long> last = new java.util.HashMap<>();
        String previous = null;
        for (Allocation a : allocations) {
            String caller = a.caller();
            // a new call begins: another caller, or ants4j code allocating itself (a `new` of ours, run again by
            // a loop, follows its previous run with the same caller)
            if (!caller.equals(previous) || !a.frames().isEmpty() && a.frames().get(0).equals(caller)) {
                first.putIfAbsent(caller, a.offset());
                last.put(caller, a.offset());
            }
            previous = caller;
        }
        java.util.TreeSet<Long> targets = new java.util.TreeSet<>(first.values());
        targets.addAll(last.values());
        return List.copyOf(targets);
    }

    /** The allocation that an operation whose thread allocated {@code position} bytes before failing failed at. */
    Allocation at(long position) {
        Allocation best = null;
        for (Allocation a : allocations) {
            if (a.offset() <= position) {
                best = a;
            }
        }
        return best;
    }

    /** Where a failure {@code position} bytes into the operation came from, for a report. */
    String describe(long position) {
        Allocation a = at(position);
        if (a == null) {
            return "no allocation mapped at offset " + position;
        }
        return "allocation #" + allocations.indexOf(a) + " of " + allocations.size() + " (offset " + a.offset()
                + ", " + a.size() + " bytes" + (a.offset() == position ? "" : ", failure at offset " + position)
                + "): " + a.site();
    }

    /** Whether this JVM can record allocations (JFR is an optional part of a JDK). */
    static boolean available() {
        try {
            return jdk.jfr.FlightRecorder.isAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    /** Records what {@code run} allocates on {@code thread} (run must return once that is done). */
    static AllocationMap record(Thread thread, Runnable run, long measuredTotal, Path dir) throws IOException {
        Path file = Files.createTempFile(dir, "alloc", ".jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ObjectAllocationOutsideTLAB").withStackTrace();
            r.start();
            run.run();
            r.stop();
            r.dump(file);
        }
        List<Allocation> list = new ArrayList<>();
        long offset = 0L;
        try {
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (!e.getEventType().getName().equals("jdk.ObjectAllocationOutsideTLAB") // events on by default too
                        || e.getThread() == null || e.getThread().getJavaThreadId() != thread.threadId()) {
                    continue;
                }
                long size = e.getLong("allocationSize");
                List<String> frames = new ArrayList<>();
                if (e.getStackTrace() != null) {
                    for (RecordedFrame f : e.getStackTrace().getFrames()) {
                        frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":"
                                + f.getLineNumber());
                        if (frames.size() == 24) {
                            break;
                        }
                    }
                }
                list.add(new Allocation(offset, size, e.getClass("objectClass").getName(), List.copyOf(frames)));
                offset += size;
            }
        } finally {
            Files.deleteIfExists(file);
        }
        return new AllocationMap(List.copyOf(list), measuredTotal);
    }
}
