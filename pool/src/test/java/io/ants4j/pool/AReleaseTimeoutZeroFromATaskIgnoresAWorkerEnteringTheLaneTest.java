package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Contracts: WorkerPool.releaseTimeout (WorkerPool.java:165-167) "Called on a thread of the pool, it waits as close()
 * does there: on a worker thread, for the other tasks but those closing the pool"; WorkerPool.idle
 * (WorkerPool.java:78-79) "A worker that has just finished a task and spins in the pool's fast lane counts as idle";
 * review 46's brief: "a releaseTimeout(ZERO) from a task with no other task must return normally".
 *
 * <p>The worker is held (as a preemption would hold it) just after it entered the lane, before its first look at
 * the slot, or in its spin loop (control). Review 46 found the lane of that time taking the worker's pool from a
 * second write after the entry CAS: a {@code releaseTimeout(ZERO)} that came in between took the worker out of the
 * lane without its pool's mark, {@code onlyClosersRunLocked} counted it as running a task, and the call threw
 * {@code TimeoutException} with no other task in the pool (held at that write: failed for Pool and MultiPool). The
 * entry now writes the pool's own spinning mark in its one CAS. The probe JVM ({@link AWorkerEnteringTheLaneProbe})
 * runs under JDI, with a breakpoint that suspends only the worker thread.
 */
@Timeout(180)
class AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest {

    /** The first line after a worker's entry into the lane ({@code SpinningWorkers.spin}), before it looks at the slot. */
    static final String JUST_ENTERED = "        Object v = mine;";
    /** Control: the spin loop's read of the slot. */
    static final String SPIN_LOOP_READ = "            v = SLOT.getAcquire(this);";

    @Test
    void aPoolsTasksReleaseTimeoutZeroReturnsWithTheOtherWorkerJustEnteringTheLane() throws Exception {
        assertReturnsNormally("pool", JUST_ENTERED);
    }

    @Test
    void aMultiPoolsTasksReleaseTimeoutZeroReturnsWithTheOtherSubPoolsWorkerJustEnteringTheLane() throws Exception {
        assertReturnsNormally("multi", JUST_ENTERED);
    }

    /** Control: the same harness, the worker held one step later (spinning, its pool known), passes. */
    @Test
    void controlAPoolsTasksReleaseTimeoutZeroReturnsWithTheOtherWorkerSpinningInTheLane() throws Exception {
        assertReturnsNormally("pool", SPIN_LOOP_READ);
    }

    /** Control: as above in a multi-pool. */
    @Test
    void controlAMultiPoolsTasksReleaseTimeoutZeroReturnsWithTheOtherSubPoolsWorkerSpinningInTheLane()
            throws Exception {
        assertReturnsNormally("multi", SPIN_LOOP_READ);
    }

    private static void assertReturnsNormally(String kind, String heldAt) throws Exception {
        List<String> out = runUnderDebugger(kind, heldAt);
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD"), "the debugger never held a worker at its lane entry:\n" + all);
        String outcome = out.stream().filter(l -> l.startsWith("OUTCOME ")).findFirst().orElse("OUTCOME none");
        assertEquals("OUTCOME returned", outcome, "releaseTimeout(ZERO) from a task, the pool's only other worker"
                + " idle in the fast lane (just entered it), did not return normally:\n" + all);
        assertTrue(out.contains("TERMINATED true"), all);
    }

    /**
     * Runs the probe under {@code ThreadHoldingDebugger} (a single-file program, src/test/jdi), which holds the probe's
     * worker at the lane entry's second step; returns the output lines.
     */
    private static List<String> runUnderDebugger(String kind, String heldAt) throws Exception {
        return runUnderDebugger(AWorkerEnteringTheLaneProbe.class, heldAt, kind);
    }

    /** Runs {@code probe}'s main with {@code args} under the debugger, holding a worker at line {@code heldAt}. */
    static List<String> runUnderDebugger(Class<?> probe, String heldAt, String... args) throws Exception {
        return DebuggedProbes.runHolding(probe, SpinningWorkers.class, "probe-worker-", heldAt, args);
    }
}
