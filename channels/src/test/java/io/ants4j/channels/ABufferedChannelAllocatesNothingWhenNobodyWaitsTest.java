package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Issue 28: "Allocation per value on the buffered path: 0 B in steady state". A send into room and a receive of a
 * buffered value, blocking forms and non-blocking ones, allocate nothing (a thread that must wait allocates its one
 * waiter node). Measured with the thread's allocation counter over many operations, after the JIT compiled them.
 */
class ABufferedChannelAllocatesNothingWhenNobodyWaitsTest {
    private static final int N = 100_000;

    @Test
    void sendAndReceiveThroughTheBufferAllocateNothing() throws InterruptedException {
        Chan<Integer> chan = new Chan<>(16);
        Integer value = 1_000; // boxed once, outside the counted loop
        long bytes = 0;
        for (int round = 0; round < 3; round++) { // the last round counts
            long before = allocatedBytes();
            for (int i = 0; i < N; i++) {
                chan.send(value);
                chan.send(value);
                assertEquals(value, chan.receive());
                assertTrue(chan.offer(value));
                assertEquals(value, chan.poll());
                assertEquals(value, chan.receive());
            }
            bytes = allocatedBytes() - before;
        }
        // the counter's reads through reflection allocate a little of their own; one object per value would be
        // millions of bytes
        assertTrue(bytes < 16_384, bytes + " bytes for " + 3 * N + " values through the buffer");
    }

    private static long allocatedBytes() {
        try {
            Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes")
                    .invoke(threads);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
