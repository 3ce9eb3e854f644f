package io.ants4j.pool;

import java.util.Arrays;
import java.util.List;

/**
 * The default {@link WorkerQueue}: a LIFO stack on a growing array (ants' {@code workerStack}).
 *
 * <p>Implementation notes. The most recently used worker sits on top and runs the next task, which keeps
 * the busy set small and warm while the workers at the bottom age. Because every worker is pushed with a
 * fresh stamp, stamps increase from bottom to top, so the expired workers form a prefix {@code [0, k)} found
 * by binary search in O(log n); {@code refresh} records it in the caller's list, then cuts off what it
 * recorded and slides the rest down. Vacated slots are
 * nulled so retired workers can be collected. The array grows by doubling and never shrinks below its
 * high-water mark, so pushes and pops allocate nothing in steady state.
 */
final class WorkerStack implements WorkerQueue {
    private Worker[] items;
    private int size;

    WorkerStack() {
        this(16);
    }

    WorkerStack(int initialCapacity) {
        items = new Worker[Math.max(1, initialCapacity)];
    }

    @Override
    public int len() {
        return size;
    }

    @Override
    public boolean insert(Worker w) {
        if (size == items.length) {
            items = Arrays.copyOf(items, Math.max(size + 1, size << 1 < 0 ? Integer.MAX_VALUE - 8 : size << 1));
        }
        items[size++] = w;
        return true;
    }

    @Override
    public Worker detach() {
        if (size == 0) {
            return null;
        }
        Worker w = items[--size];
        items[size] = null;
        return w;
    }

    @Override
    public void refresh(long cutoff, List<Worker> expired) {
        int n = size;
        if (n == 0) {
            return;
        }
        int k = expiredPrefix(cutoff);
        if (k == 0) {
            return;
        }
        int recorded = 0;
        try {
            while (recorded < k) {
                expired.add(items[recorded]);
                recorded++;
            }
        } finally {
            // only the workers in the list leave the stack: an add that fails (out of memory) keeps the others
            int m = n - recorded;
            System.arraycopy(items, recorded, items, 0, m);
            Arrays.fill(items, m, n, null);
            size = m;
        }
    }

    @Override
    public void raiseStamps(long stale, long raised) {
        for (int i = size - 1; i >= 0 && items[i].lastUsed == stale; i--) {
            items[i].lastUsed = raised;
        }
    }

    /** Returns how many workers from the bottom have {@code lastUsed <= cutoff}. */
    private int expiredPrefix(long cutoff) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (items[mid].lastUsed - cutoff <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
