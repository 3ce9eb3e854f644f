package io.ants4j.stress.primitives;

import io.ants4j.primitives.TaskGroup;
import java.util.concurrent.Future;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * TaskGroup: go racing cancel. Either the task runs and its Future holds its result, or it never
 * starts and its Future is cancelled; if the cancellation comes while it runs, the task ends and its
 * Future is cancelled. Never a task that neither ran nor was cancelled (its Future would never
 * complete and close would wait forever), and a go after the cancellation never starts its task.
 */
@JCStressTest
@Description("TaskGroup: go racing cancel.")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "go first: the task ran, its Future holds the result.")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "cancel first: the task never started, its Future is cancelled.")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "cancel while the task ran: it ended, its Future is cancelled.")
@Outcome(id = "0, 0, .*, .*", expect = FORBIDDEN, desc = "The task neither ran nor was cancelled.")
@Outcome(expect = FORBIDDEN, desc = "The Future never completed, a go after the cancellation started its task, or an interrupt was left behind.")
@State
public class TaskGroupGoRacingCancelTest {

    final TaskGroup<Integer> group = TaskGroup.create(-1, Runnable::run);
    volatile int ran;
    volatile Future<Integer> future;
    volatile boolean leftInterrupted;

    @Actor
    public void submitter() {
        future = group.go(() -> {
            ran = 1;
            return 1;
        });
        leftInterrupted = Thread.interrupted(); // the group clears a cancellation's interrupt itself
    }

    @Actor
    public void canceller() {
        group.cancel();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        group.close();
        Future<Integer> f = future;
        r.r1 = ran;
        r.r2 = f.isCancelled() ? 1 : 0;
        r.r3 = f.isDone() ? 1 : 0;
        boolean[] late = new boolean[1];
        Future<Integer> after = group.go(() -> {
            late[0] = true;
            return 2;
        });
        r.r4 = after.isCancelled() && !late[0] && !leftInterrupted ? 1 : 0;
    }
}
