package io.ants4j.pool;

import java.util.List;

/**
 * The {@link WorkerQueue} of a {@linkplain PoolOptions#preAlloc() pre-allocated} pool: a FIFO ring of exactly
 * {@code capacity} slots, allocated once (ants' {@code loopQueue}).
 *
 * <p>Implementation notes. Workers are inserted at the tail and detached at the head, so the head holds the
 * oldest stamp and stamps increase along the ring; the expired workers are a run starting at the head, found by
 * binary search over logical positions {@code 0 .. count-1} (physical slot {@code (head + i) % capacity}).
 * A pre-allocated pool cannot be tuned and never runs more than {@code capacity} workers, so the ring never
 * overflows; {@link #insert} still reports a full ring rather than overwrite a slot.
 */
final class LoopQueue implements WorkerQueue {
    private final Worker[] items;
    private int head;
    private int count;

    LoopQueue(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("LoopQueue capacity must be positive: " + capacity);
        }
        items = new Worker[capacity];
    }

    @Override
    public int len() {
        return count;
    }

    @Override
    public boolean insert(Worker w) {
        if (count == items.length) {
            return false;
        }
        items[slot(count)] = w;
        count++;
        return true;
    }

    @Override
    public Worker detach() {
        if (count == 0) {
            return null;
        }
        Worker w = items[head];
        items[head] = null;
        head = slot(1);
        count--;
        return w;
    }

    @Override
    public void refresh(long cutoff, List<Worker> expired) {
        if (count == 0 || items[head].lastUsed - cutoff > 0) {
            return;
        }
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (items[slot(mid)].lastUsed - cutoff <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        for (int i = 0; i < lo; i++) {
            int s = slot(0);
            expired.add(items[s]); // first: a worker leaves the ring only once it is recorded
            items[s] = null;
            head = slot(1);
            count--;
        }
    }

    @Override
    public void raiseStamps(long stale, long raised) {
        for (int i = count - 1; i >= 0 && items[slot(i)].lastUsed == stale; i--) {
            items[slot(i)].lastUsed = raised;
        }
    }

    /** The physical slot of logical position {@code i} (0 = head). */
    private int slot(int i) {
        int s = head + i;
        return s >= items.length ? s - items.length : s;
    }
}
