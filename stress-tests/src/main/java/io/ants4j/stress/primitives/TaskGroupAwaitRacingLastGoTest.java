package io.ants4j.stress.primitives;

import io.ants4j.primitives.TaskGroup;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * TaskGroup: await racing a last go. The go either counts in the round that await closes (await
 * waits for it and returns its result after the first one) or opens the next round (the next await
 * returns it). Never lost, never in both rounds, and a result await returns is the one the task
 * computed.
 */
@JCStressTest
@Description("TaskGroup: await racing the last go of a round.")
@Outcome(id = "12, 0", expect = ACCEPTABLE, desc = "The go counted in the round await closed.")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "The go opened the next round.")
@Outcome(expect = FORBIDDEN, desc = "A result lost, seen twice, out of order or not the task's.")
@State
public class TaskGroupAwaitRacingLastGoTest {

    final TaskGroup<Integer> group = TaskGroup.create(-1, Runnable::run);

    public TaskGroupAwaitRacingLastGoTest() {
        group.go(() -> 1);
    }

    @Actor
    public void lastGo() {
        group.go(() -> 2);
    }

    @Actor
    public void awaiter(II_Result r) {
        r.r1 = digits(awaitQuietly());
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = digits(awaitQuietly());
    }

    private List<Integer> awaitQuietly() {
        try {
            return group.await();
        } catch (InterruptedException | ExecutionException e) {
            return List.of(-1);
        }
    }

    private static int digits(List<Integer> results) {
        int n = 0;
        for (int x : results) {
            n = n * 10 + x;
        }
        return n;
    }
}
