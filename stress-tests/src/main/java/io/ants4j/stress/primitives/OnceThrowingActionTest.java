package io.ants4j.stress.primitives;

import io.ants4j.primitives.Once;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Once.run with an action that throws: the Once is done anyway (Go's rule), the throwable reaches
 * only the caller that ran the action, the other caller returns normally and sees the writes the
 * action made before throwing, and the action is never retried.
 */
@JCStressTest
@Description("Once: a throwing action still completes the Once; only the runner sees the exception.")
@Outcome(id = {"1, 2, 1, 1", "2, 1, 1, 1"}, expect = ACCEPTABLE,
        desc = "One caller ran the action and got its exception; the other returned normally and saw its write.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither got the exception, a caller missed the write, "
        + "the Once is not done, or the action ran again.")
@State
public class OnceThrowingActionTest {

    static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom() {
            super("boom", null, false, false);
        }
    }

    final Once once = new Once();
    final AtomicInteger runs = new AtomicInteger();
    int x;

    private final Runnable action = () -> {
        runs.incrementAndGet();
        x = 1;
        throw new Boom();
    };

    /** 1 = got the action's exception; 2 = returned normally and saw its write; 0 = returned but missed it. */
    private int call() {
        try {
            once.run(action);
            return x == 1 ? 2 : 0;
        } catch (Boom e) {
            return 1;
        }
    }

    @Actor
    public void actor1(IIII_Result r) {
        r.r1 = call();
    }

    @Actor
    public void actor2(IIII_Result r) {
        r.r2 = call();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r3 = once.isDone() ? 1 : 0;
        once.run(action); // done: must not run again, must not throw
        r.r4 = runs.get();
    }
}
