package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.SpinLock;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Contracts:
 * <ul>
 * <li>WorkerPool (WorkerPool.java:19-23): "Submitters that wait for a worker are served first come, first served:
 *     a worker that finishes its task ... goes to the submitter that has waited longest, and a submission never takes
 *     a worker while another submitter waits ... A submitter waits, and takes its place in that order, from the
 *     moment it is counted in waiting(): one that finds every worker busy first looks again for a few microseconds
 *     ..., neither counted nor ordered, so that a submission arriving meanwhile may get a worker before it."</li>
 * <li>SpinningWorkers (SpinningWorkers.java:16-17): the lane does not "let a submission overtake a waiting
 *     submitter: the pool skips the lane while submitters wait, and a spinning worker stops as soon as one waits in
 *     its pool".</li>
 * <li>docs/design.md:127-129: "a submitter never takes an idle worker, a free slot or the fast lane past a waiting
 *     one. Before parking, a submitter looks again a few times, again only while nobody else waits".</li>
 * </ul>
 *
 * <p>A submitter s1 that finds the pool's only worker hot in the fast lane (running a task handed there) spins in
 * {@code SpinningWorkers.tryHand} for it to come back; it checked {@code waiting == 0} once, before. Meanwhile the task
 * ends, the worker passes {@code nextFromLane}'s check (nobody waits yet), another submitter q finds no free worker
 * and waits ({@code waiting() == 1}), and the worker stores its spinning mark; s1's next read sees the mark and its
 * CAS takes the worker, while q, counted in {@code waiting()}, still waits: a looking submitter, "neither counted nor
 * ordered", took a worker before a counted waiter. (The pool's own slow path re-checks {@code waiting == 0} under
 * its lock before each look; {@code tryHand}'s spin does not.) Three preemptions force it: a JDI debugger
 * ({@code src/test/jdi/ThreadHoldingDebugger.java}) holds s1 in its spin and the worker before and after its store.
 * Unforced, the window is s1's spin ({@code SUBMITTER_SPINS}, tens of microseconds), about as long as q's own
 * looks before it waits. Fails on 7fb7163: {@code RAN [a, b, c, d]}, {@code waiting() == 1} when s1 returned.
 */
@Timeout(180)
class ASubmitterLookingForTheHotWorkerDoesNotOvertakeAWaitingSubmitterTest {

    @Test
    void aSubmitterSpinningForTheHotWorkerDoesNotTakeItWhileAnotherSubmitterWaits() throws Exception {
        List<String> out = run(ALookingSubmitterOvertakesAWaiterProbe.class,
                String.valueOf(lineOf("            v = SLOT.getAcquire(this);")),
                String.valueOf(lineOf("            SLOT.setRelease(this, mine); // hot: it owns the slot and holds a token already")),
                String.valueOf(lineOf("        Object v = mine;")),
                String.valueOf(lineOf("                Thread.onSpinWait();")));
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD 3"), "the debugger never held the worker after its store:\n" + all);
        String outcome = out.stream().filter(l -> l.startsWith("OUTCOME ")).findFirst().orElse("OUTCOME none");
        assertEquals("OUTCOME s1 not served first", outcome,
                "a submitter still looking for the hot worker took it while another submitter waited:\n" + all);
    }

    /** Runs {@code probe} under the debugger with {@code args}, which arms its holds itself; its output lines. */
    static List<String> run(Class<?> probe, String... args) throws Exception {
        return DebuggedProbes.run(probe, java.util.Map.of(), args);
    }

    /** The number of the one line of SpinningWorkers that is {@code text}. */
    static int lineOf(String text) throws Exception {
        return DebuggedProbes.lineOf(SpinningWorkers.class, text);
    }
}
