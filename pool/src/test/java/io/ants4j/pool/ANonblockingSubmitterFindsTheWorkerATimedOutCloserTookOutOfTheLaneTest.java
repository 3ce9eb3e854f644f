package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Contracts: PoolOptions.nonblocking (PoolOptions.java:34-35) "never block a submitter: reject at once with
 * PoolOverloadException when no worker is free"; Pool (Pool.java:24-28) "execute hands the task straight to an idle
 * worker (one spinning in the fast lane ...; else one leaving the lane), or starts a new worker thread while
 * running() < cap(), or else blocks the submitter ... (or rejects it with PoolOverloadException if the pool is
 * non-blocking"; WorkerPool.idle (WorkerPool.java:78-79) counts a worker in the fast lane as idle; and
 * WorkerPool.releaseTimeout (WorkerPool.java:165-167) from a task waits "for the other tasks but those closing
 * the pool".
 *
 * <p>A task's timed {@code releaseTimeout} in a pool rebooted meanwhile takes the worker spinning in the lane out
 * of it at its deadline ({@code takeOutSpinner}), here a worker held (by a JDI breakpoint that holds only that
 * thread, as a preemption would, see {@link AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest}) just
 * after it entered the lane. Taken out, it is withdrawing for its pool: idle for the closer's count and for a
 * submitter holding the pool's lock ({@code tryHandWithdrawing}). Review 46 found the lane of that time leaving such
 * a worker in a state neither took for a free worker, though {@code idle()} did: the closer timed out with no other
 * task running, and a non-blocking pool rejected a submission with {@code PoolOverloadException} while
 * {@code idle() == 1}.
 */
@Timeout(180)
class ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneTest {

    @Test
    void aNonblockingPoolAcceptsATaskWhileAWorkerTakenOutOfTheLaneIsIdle() throws Exception {
        List<String> out = AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.runUnderDebugger(
                ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneProbe.class,
                AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.JUST_ENTERED);
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD"), "the debugger never held a worker at its lane entry:\n" + all);
        assertTrue(out.stream().anyMatch(l -> l.startsWith("IDLE 1 ")), "the worker was not idle:\n" + all);
        assertEquals("OUTCOME accepted", out.stream().filter(l -> l.startsWith("OUTCOME ")).findFirst()
                .orElse("OUTCOME none"), "a non-blocking pool rejected a task while idle() == 1 (the worker a"
                + " timed-out closer took out of the lane):\n" + all);
        assertTrue(out.contains("TERMINATED true"), all);
    }

    /** The closer's side: its wait timed out though the only other task had ended and its worker was idle. */
    @Test
    void aTasksTimedReleaseTimeoutReturnsOnceTheOtherTaskEndedAndItsWorkerIsIdleInTheLane() throws Exception {
        List<String> out = AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.runUnderDebugger(
                ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneProbe.class,
                AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.JUST_ENTERED);
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD"), "the debugger never held a worker at its lane entry:\n" + all);
        assertEquals("C returned", out.stream().filter(l -> l.startsWith("C ")).findFirst().orElse("C none"),
                "a task's releaseTimeout(5 s) timed out, though the only other task had ended and its worker was"
                        + " idle in the lane:\n" + all);
    }

    /** Control: the same with the worker held one step later (spinning, its pool known): both contracts hold. */
    @Test
    void controlWithTheWorkerSpinningItsPoolKnownTheCloserReturnsAndTheTaskIsAccepted() throws Exception {
        List<String> out = AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.runUnderDebugger(
                ANonblockingSubmitterFindsTheWorkerATimedOutCloserTookOutOfTheLaneProbe.class,
                AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.SPIN_LOOP_READ);
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD"), all);
        assertTrue(out.contains("C returned"), all);
        assertTrue(out.contains("OUTCOME accepted"), all);
        assertTrue(out.contains("TERMINATED true"), all);
    }
}
