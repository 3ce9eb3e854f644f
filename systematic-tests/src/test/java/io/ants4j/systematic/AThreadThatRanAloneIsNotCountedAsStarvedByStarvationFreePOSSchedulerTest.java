package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.pastalab.fray.core.ThreadContext;
import org.pastalab.fray.core.concurrency.operations.MemoryOperation;
import org.pastalab.fray.core.concurrency.operations.ThreadResumeOperation;
import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.runtime.MemoryOpType;

/**
 * Review 54. {@link StarvationFreePOSScheduler}'s javadoc: "Fray's POS scheduler (partial order sampling) with a
 * bound on starvation: a thread that could run but was passed over at 2,000 decisions in a row makes every thread
 * draw a new priority" (StarvationFreePOSScheduler.java:17-18), and "a thread draws a random priority ... and keeps
 * it until it runs, or until a step of another thread races with its pending step" (lines 20-21): that kept
 * priority is what POS's property rests on (a woken thread with a high draw stays off the processor while another
 * completes a long run of steps).
 *
 * <p>The count of decisions a thread was passed over is not restarted when the thread runs as the only runnable
 * thread ({@code threads.size() == 1} returns before any bookkeeping): a thread passed over 1,999 times, which then
 * runs alone for any number of steps, reaches the bound at the next decision that passes it over, and every thread,
 * the one woken with a high draw included, draws anew, though no thread was passed over 2,000 decisions in a row.
 * (The control: passed over 1,999 times in a row, one more decision keeps the priorities; 2,000 in a row clears them.)
 *
 * <p>Drives the scheduler directly, with thread contexts made without a run (only their pending operation is
 * read): A's pending step is a memory read (racing), B's a resume (not racing, so B is chosen whenever it can run,
 * whatever the priorities).
 */
class AThreadThatRanAloneIsNotCountedAsStarvedByStarvationFreePOSSchedulerTest {

    @Test
    void aThreadThatRanAloneInBetweenIsNotPassedOverInARow() throws Exception {
        ThreadContext a = context(new MemoryOperation(1, MemoryOpType.MEMORY_READ));
        ThreadContext b = context(new ThreadResumeOperation(true));
        StarvationFreePOSScheduler s = new StarvationFreePOSScheduler(new ControlledRandom());
        passOver(s, a, b, StarvationFreePOSScheduler.STARVATION_BOUND - 1);
        assertTrue(priorities(s).containsKey(a), "A keeps its priority while passed over");
        for (int i = 0; i < 100; i++) { // A runs alone: 100 of its steps, so its run of decisions passed over ends
            assertSame(a, s.scheduleNextOperation(List.of(a), List.of(a, b)));
        }
        passOver(s, a, b, 1);
        assertTrue(priorities(s).containsKey(a),
                "A had run 100 steps since it was last passed over, yet one decision passing it over counted as its "
                        + StarvationFreePOSScheduler.STARVATION_BOUND + "th in a row: every priority was drawn anew");
    }

    @Test
    void controlTheBoundRedrawsAfterTwoThousandDecisionsInARow() throws Exception {
        ThreadContext a = context(new MemoryOperation(1, MemoryOpType.MEMORY_READ));
        ThreadContext b = context(new ThreadResumeOperation(true));
        StarvationFreePOSScheduler s = new StarvationFreePOSScheduler(new ControlledRandom());
        passOver(s, a, b, StarvationFreePOSScheduler.STARVATION_BOUND - 1);
        assertTrue(priorities(s).containsKey(a), "1,999 in a row: A keeps its priority");
        passOver(s, a, b, 1);
        assertFalse(priorities(s).containsKey(a), "2,000 in a row: every priority is drawn anew");
    }

    /** {@code n} decisions between A and B; B, not racing, is chosen each time. */
    private static void passOver(StarvationFreePOSScheduler s, ThreadContext a, ThreadContext b, int n) {
        for (int i = 0; i < n; i++) {
            assertSame(b, s.scheduleNextOperation(List.of(a, b), List.of(a, b)));
        }
    }

    /** A thread context with no thread nor run behind it: the scheduler reads only its pending operation. */
    private static ThreadContext context(org.pastalab.fray.core.concurrency.operations.Operation pending)
            throws Exception {
        Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
        ThreadContext c = (ThreadContext) unsafe.allocateInstance(ThreadContext.class);
        c.setPendingOperation(pending);
        return c;
    }

    @SuppressWarnings("unchecked")
    private static Map<ThreadContext, Double> priorities(StarvationFreePOSScheduler s) throws Exception {
        Field f = StarvationFreePOSScheduler.class.getDeclaredField("priorities");
        f.setAccessible(true);
        return (Map<ThreadContext, Double>) f.get(s);
    }
}
