package io.ants4j.stress.primitives;

import io.ants4j.primitives.Once;
import io.ants4j.stress.support.Helper;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Once.run with three racing callers: exactly one action runs, and every caller, the losers that
 * blocked or took the fast path included, sees the action's plain writes when run() returns. Two
 * callers are jcstress actors, the third a virtual thread the first actor starts (jcstress runs
 * at most one actor per CPU).
 */
@JCStressTest
@Description("Once: three callers race on run(); the action runs exactly once and all see its writes.")
@Outcome(id = "42, 42, 42, 1, 1", expect = ACCEPTABLE, desc = "One action ran; every caller saw its writes.")
@Outcome(id = ".*, .*, .*, ([02-9]|-1), .*", expect = FORBIDDEN, desc = "The action ran zero times or more than once.")
@Outcome(expect = FORBIDDEN, desc = "A caller returned from run() without seeing the action's writes.")
@State
public class OnceRunTest {

    final Once once = new Once();
    final AtomicInteger runs = new AtomicInteger();
    int a;
    int b;
    Thread third;
    volatile int thirdSaw = -1;

    private final Runnable action = () -> {
        runs.incrementAndGet();
        a = 40;
        b = 2;
    };

    private int call() {
        once.run(action);
        return a + b;
    }

    @Actor
    public void actor1(IIIII_Result r) {
        third = Helper.start(() -> thirdSaw = call());
        r.r1 = call();
    }

    @Actor
    public void actor2(IIIII_Result r) {
        r.r2 = call();
    }

    @Arbiter
    public void arbiter(IIIII_Result r) {
        boolean joined = Helper.join(third);
        r.r3 = thirdSaw;
        r.r4 = once.isDone() ? runs.get() : -1;
        r.r5 = joined ? 1 : 0;
    }
}
