package io.ants4j.stress.primitives;

import io.ants4j.primitives.TaskGroup;
import io.ants4j.stress.support.Spin;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * TaskGroup: two tasks that both run fail at the same moment. Exactly one failure is the cause of
 * the ExecutionException that await throws, and the other is suppressed in that exception (not in the
 * cause, which is left as it was thrown): neither is lost and neither is reported twice. The tasks run inline on the actors' threads (a direct executor), both
 * start before either throws, and the cancellation's interrupt does not outlive the task.
 */
@JCStressTest
@Description("TaskGroup: two failing tasks race to be the first failure.")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "The first actor's failure is the cause, the second's suppressed.")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "The second actor's failure is the cause, the first's suppressed.")
@Outcome(id = "0, .*, .*", expect = FORBIDDEN, desc = "await did not report a failure.")
@Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "The later failure was lost.")
@Outcome(expect = FORBIDDEN, desc = "Something else: a wrong cause, a failure reported twice, or an interrupt left behind.")
@State
public class TaskGroupFirstFailureRaceTest {

    final TaskGroup<Void> group = TaskGroup.create(-1, Runnable::run);
    final RuntimeException first = new RuntimeException("1");
    final RuntimeException second = new RuntimeException("2");
    final AtomicInteger started = new AtomicInteger();
    final AtomicInteger interruptsLeft = new AtomicInteger();

    private void fail(RuntimeException failure) {
        group.go(() -> {
            started.incrementAndGet();
            Spin.until(() -> started.get() == 2); // both run before either fails
            throw failure;
        });
        if (Thread.interrupted()) {
            interruptsLeft.incrementAndGet();
        }
    }

    @Actor
    public void actor1() {
        fail(first);
    }

    @Actor
    public void actor2() {
        fail(second);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        try {
            group.await();
            r.r1 = 0;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            Throwable other = cause == first ? second : first;
            r.r1 = cause == first ? 1 : cause == second ? 2 : 3;
            int seen = 0;
            for (Throwable s : e.getSuppressed()) {
                seen += s == other ? 1 : 10;
            }
            seen += 100 * cause.getSuppressed().length; // the tasks' throwables are left as they were thrown
            r.r2 = seen;
        } catch (InterruptedException e) {
            r.r1 = 4;
        }
        r.r3 = interruptsLeft.get();
    }
}
