package io.ants4j.channels;

/** Test fixture of the probes that run on an exhausted heap. */
final class HeapFill {
    private HeapFill() {
    }

    /**
     * Allocates until the heap is full, chaining the pieces to {@code head}, in ever smaller pieces down to the
     * smallest; returns the chain, which the caller keeps reachable for as long as the heap must stay full. The
     * pieces are {@code long} arrays, which a collector does not scan: each of the many collections that end in an
     * {@code OutOfMemoryError} here is five times shorter than with arrays of references.
     */
    static Object[] fill(Object[] head) {
        for (int size = 1 << 17; size > 0; size >>= 1) {
            try {
                for (;;) {
                    Object[] node = new Object[2]; // the chain's links hold no data: a collection scans only them
                    node[0] = head;
                    head = node;
                    node[1] = new long[size];
                }
            } catch (OutOfMemoryError e) {
                // go on with smaller pieces
            }
        }
        return head;
    }
}
