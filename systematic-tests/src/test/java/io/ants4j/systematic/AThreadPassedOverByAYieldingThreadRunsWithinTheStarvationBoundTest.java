package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pastalab.fray.core.ThreadContext;
import org.pastalab.fray.core.concurrency.operations.MemoryOperation;
import org.pastalab.fray.core.concurrency.operations.Operation;
import org.pastalab.fray.core.concurrency.operations.ThreadResumeOperation;
import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.runtime.MemoryOpType;

/**
 * Review 54. {@link StarvationFreePOSScheduler}'s javadoc: "Fray's POS scheduler (partial order sampling) with a
 * bound on starvation: a thread that could run but was passed over at 2,000 decisions in a row makes every thread
 * draw a new priority" (StarvationFreePOSScheduler.java:17-18), and "With the bound such a run ends"
 * (line 27). The bound acts only through priorities, and a pending step that races with nothing runs "before
 * anything else" whatever the priorities (line 22; {@code lowest(nonRacing)}). So a thread whose pending steps are
 * non-racing ones, one after another (a yield loop whose reads Fray does not see as memory operations, a thread
 * resuming again and again), passes over a runnable thread with a racing step for ever: the redraw at the bound
 * changes nothing, and the starved thread never runs. Fray's POS has the same rule; the bound does not lift it.
 *
 * <p>Drives the scheduler directly (thread contexts made without a run, as in
 * {@link AThreadThatRanAloneIsNotCountedAsStarvedByStarvationFreePOSSchedulerTest}): A's pending step is a memory
 * read, B's a resume, at each of 10 times the bound's decisions.
 */
class AThreadPassedOverByAYieldingThreadRunsWithinTheStarvationBoundTest {

    @Test
    void aThreadWithARacingStepRunsWithinTenBoundsBesideAThreadOfNonRacingSteps() throws Exception {
        ThreadContext a = context(new MemoryOperation(1, MemoryOpType.MEMORY_READ));
        ThreadContext b = context(new ThreadResumeOperation(true));
        StarvationFreePOSScheduler s = new StarvationFreePOSScheduler(new ControlledRandom());
        int decisions = 10 * StarvationFreePOSScheduler.STARVATION_BOUND;
        boolean aRan = false;
        for (int i = 0; i < decisions && !aRan; i++) {
            aRan = s.scheduleNextOperation(List.of(a, b), List.of(a, b)) == a;
        }
        assertTrue(aRan, "A, runnable throughout, was passed over at " + decisions
                + " decisions in a row: the starvation bound redrew the priorities, and B's non-racing step still ran"
                + " first every time");
    }

    private static ThreadContext context(Operation pending) throws Exception {
        Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
        ThreadContext c = (ThreadContext) unsafe.allocateInstance(ThreadContext.class);
        c.setPendingOperation(pending);
        return c;
    }
}
