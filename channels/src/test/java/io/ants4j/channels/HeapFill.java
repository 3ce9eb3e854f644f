package io.ants4j.channels;

/** Test fixture of the probes that run on an exhausted heap. */
final class HeapFill {
    private HeapFill() {
    }

    /**
     * Allocates until the heap is full, chaining the arrays to {@code head}, in ever smaller pieces down to the
     * smallest; returns the chain, which the caller keeps reachable for as long as the heap must stay full.
     */
    static Object[] fill(Object[] head) {
        for (int size = 1 << 16; size > 0; size >>= 1) {
            try {
                for (;;) {
                    Object[] next = new Object[size];
                    next[0] = head;
                    head = next;
                }
            } catch (OutOfMemoryError e) {
                // go on with smaller pieces
            }
        }
        return head;
    }
}
