package io.ants4j.systematic.sweep;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Fills the heap of a JVM run with {@code -XX:+UseSerialGC -XX:-UseTLAB} so that about {@code n} bytes are left
 * to allocate, and lets the memory go again.
 *
 * <p>Implementation notes. With the serial collector the heap is an old generation, an eden and two survivor
 * spaces, one of which ({@code from}) counts in {@link Runtime#freeMemory()} but takes no allocation: only a
 * collection copies into it. After a full collection ({@link System#gc()}) the live objects sit at the bottom of
 * the old generation (and of eden, if the old one had no room), and the rest of both is free. One array as large
 * as the old generation's free tail goes straight into it (an allocation larger than the young generation is
 * tried in the old one first), one as large as eden's free space less {@code n} into eden: two allocations and no
 * collection, where filling by allocating until {@link OutOfMemoryError} would cost two full collections per
 * size tried. Without TLABs every allocation takes exactly its size from the free space, so the free bytes left
 * are exact (a second collection, before eden is filled, takes away the garbage the measurement left, which the
 * operation's first failing allocation would otherwise reclaim), up to what other threads allocate meanwhile; the sweep checks where the operation actually failed
 * (the bytes its thread allocated first) and corrects {@code n}. If the arrays do not land as planned (another
 * collector, an old generation smaller than the young one), a slow fill by halving sizes takes over.
 * Filling throws no {@link OutOfMemoryError} on the fast path, which matters: the JVM gives a stack trace to
 * only its first four.
 */
final class HeapFiller {
    private static final int MIN_OBJECT = 16; // header and length of an array: byte[k] takes align8(16 + k)
    private final Runtime runtime = Runtime.getRuntime();
    private final MemoryPoolMXBean old;
    private final long survivor;
    private final Object[] pieces = new Object[4096];
    private int count;

    HeapFiller() {
        MemoryPoolMXBean oldPool = null;
        long survivorMax = -1L;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() != MemoryType.HEAP) {
                continue;
            }
            switch (p.getName()) {
                case "Tenured Gen" -> oldPool = p;
                case "Survivor Space" -> survivorMax = p.getUsage().getMax();
                default -> { }
            }
        }
        if (oldPool == null || survivorMax < 0L) {
            throw new IllegalStateException("the sweep needs -XX:+UseSerialGC");
        }
        this.old = oldPool;
        this.survivor = survivorMax;
    }

    /** Bytes that can still be allocated (the {@code from} survivor space takes no allocation). */
    long free() {
        return runtime.freeMemory() - survivor;
    }

    /**
     * Fills the heap so that about {@code n} bytes remain free (a multiple of 8); returns the free bytes left as
     * far as the collector knows.
     */
    long fill(long n) {
        release();
        System.gc();
        long oldFree = old.getUsage().getMax() - old.getUsage().getUsed();
        if (oldFree >= MIN_OBJECT && oldFree - MIN_OBJECT <= Integer.MAX_VALUE) {
            add(oldFree);
        }
        System.gc(); // the garbage the measurement made would be found again by the operation's first collection
        long edenFill = free() - n;
        if (edenFill >= MIN_OBJECT && edenFill - MIN_OBJECT <= Integer.MAX_VALUE) {
            add(edenFill);
        }
        long left = free();
        if (left - n >= MIN_OBJECT) {
            fillByHalving(n);
            left = free();
        }
        return left;
    }

    /** Lets the filler go; the next collection reclaims it. */
    void release() {
        for (int i = 0; i < count; i++) {
            pieces[i] = null;
        }
        count = 0;
    }

    private void add(long bytes) {
        try {
            pieces[count] = new byte[(int) (bytes - MIN_OBJECT)];
            count++;
        } catch (OutOfMemoryError notThere) {
            // the array did not fit where it was meant to go: fillByHalving finishes the job
        }
    }

    private void fillByHalving(long n) {
        long size = Long.highestOneBit(Math.max(MIN_OBJECT, free() - n));
        while (count < pieces.length) {
            long want = free() - n;
            if (want < MIN_OBJECT) {
                return;
            }
            long bytes = Math.min(size, want) & ~7L;
            if (bytes < MIN_OBJECT) {
                return;
            }
            try {
                pieces[count] = new byte[(int) Math.min(Integer.MAX_VALUE, bytes - MIN_OBJECT)];
                count++;
            } catch (OutOfMemoryError e) {
                if (size <= MIN_OBJECT) {
                    return;
                }
                size >>= 1;
            }
        }
    }
}
