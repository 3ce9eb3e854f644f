package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.IntConsumer;

/**
 * Calls made with the stack nearly full: a {@code StackOverflowError} can then come from any method call,
 * inside a primitive's code too. {@link #atEveryDepth} calls an attempt at successive depths of a small stack,
 * from the bottom up, so that at some depth the attempt runs out of stack part-way.
 */
final class StackLimit {
    /** Depths tried, from the bottom of the stack up. */
    static final int DEPTHS = 300;

    private static int depth;
    private static int overflowed;
    private static IntConsumer attemptAtDepth;

    private StackLimit() {
    }

    /**
     * Calls {@code attempt} with 0, 1, ... at successive depths of a 512 KB stack, from the bottom up (one frame
     * of {@link #descend} apart); what an attempt throws is dropped.
     *
     * @return how many attempts threw {@code StackOverflowError}
     */
    static synchronized int atEveryDepth(IntConsumer attempt) throws InterruptedException {
        depth = 0;
        overflowed = 0;
        attemptAtDepth = attempt;
        Thread t = new Thread(null, StackLimit::descend, "deep-caller", 512 * 1024);
        t.setDaemon(true);
        t.setUncaughtExceptionHandler((thread, e) -> { });
        t.start();
        t.join(60_000);
        if (t.isAlive()) {
            fail("the descent did not finish");
        }
        return overflowed;
    }

    private static void descend() {
        try {
            descend();
        } catch (StackOverflowError bottom) {
            // the bottom, or a level below failed before it could attempt: attempt here
        }
        if (depth < DEPTHS) {
            int k = depth++;
            try {
                attemptAtDepth.accept(k);
            } catch (StackOverflowError expected) {
                overflowed++;
            } catch (Throwable expected) {
                // whatever the primitive throws after an overflow
            }
        }
    }
}
