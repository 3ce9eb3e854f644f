package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pastalab.fray.core.ThreadContext;
import org.pastalab.fray.core.concurrency.operations.MemoryOperation;
import org.pastalab.fray.core.concurrency.operations.Operation;
import org.pastalab.fray.core.concurrency.operations.ThreadResumeOperation;
import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.runtime.MemoryOpType;

/**
 * {@link StarvationFreePOSScheduler}'s bound (its javadoc: "a thread that could run but was passed over at 2,000
 * decisions in a row runs at the next decision"), driven directly, with thread contexts made without a run (the
 * scheduler reads only their pending step): A's pending step is a memory read (racing), B's a resume (racing with
 * nothing, so POS runs it before anything else, whatever the priorities). Review 54 showed the first form of the
 * bound wrong twice: a redraw of the priorities cannot help A against B's non-racing steps, and a run of A alone
 * did not end A's run of decisions passed over.
 */
class StarvationFreePOSSchedulerTest {
    private static final int BOUND = StarvationFreePOSScheduler.STARVATION_BOUND;

    @Test
    void aThreadPassedOverAtTheBoundRunsNextAndEveryPriorityIsDrawnAnew() throws Exception {
        ThreadContext a = context(new MemoryOperation(1, MemoryOpType.MEMORY_READ));
        ThreadContext b = context(new ThreadResumeOperation(true));
        StarvationFreePOSScheduler s = new StarvationFreePOSScheduler(new ControlledRandom());
        passOver(s, a, b, BOUND);
        assertTrue(priorities(s).containsKey(a), "A keeps its priority while it is passed over");
        assertSame(a, s.scheduleNextOperation(List.of(a, b), List.of(a, b)),
                "A, passed over at " + BOUND + " decisions in a row, did not run at the next");
        assertTrue(priorities(s).isEmpty(), "the priorities are not drawn anew once A ran");
        passOver(s, a, b, BOUND); // and A's run of decisions passed over starts afresh
        assertSame(a, s.scheduleNextOperation(List.of(a, b), List.of(a, b)));
    }

    @Test
    void aThreadThatRunsAloneStartsItsRunOfDecisionsPassedOverAfresh() throws Exception {
        ThreadContext a = context(new MemoryOperation(1, MemoryOpType.MEMORY_READ));
        ThreadContext b = context(new ThreadResumeOperation(true));
        StarvationFreePOSScheduler s = new StarvationFreePOSScheduler(new ControlledRandom());
        passOver(s, a, b, BOUND - 1);
        for (int i = 0; i < 100; i++) {
            assertSame(a, s.scheduleNextOperation(List.of(a), List.of(a, b)));
        }
        passOver(s, a, b, 1); // A ran alone: only the decisions from here count
        Double drawn = priorities(s).get(a);
        passOver(s, a, b, BOUND - 1);
        assertSame(drawn, priorities(s).get(a), "A's priority was drawn anew though A was never passed over "
                + BOUND + " decisions in a row");
    }

    /** {@code n} decisions between A and B, each of which runs B. */
    private static void passOver(StarvationFreePOSScheduler s, ThreadContext a, ThreadContext b, int n) {
        for (int i = 0; i < n; i++) {
            assertSame(b, s.scheduleNextOperation(List.of(a, b), List.of(a, b)), "decision " + i);
        }
    }

    /** A thread context with no thread nor run behind it: the scheduler reads only its pending step. */
    private static ThreadContext context(Operation pending) throws Exception {
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
