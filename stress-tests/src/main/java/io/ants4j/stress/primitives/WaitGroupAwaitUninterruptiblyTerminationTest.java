package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/** WaitGroup: awaitUninterruptibly() returns once the counter reaches zero through two done() calls. */
@JCStressTest(Mode.Termination)
@Description("WaitGroup: awaitUninterruptibly() terminates after the counter drains to zero.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "awaitUninterruptibly() returned.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "awaitUninterruptibly() hung: the wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "awaitUninterruptibly() threw.")
@State
public class WaitGroupAwaitUninterruptiblyTerminationTest {

    final WaitGroup wg = new WaitGroup();

    public WaitGroupAwaitUninterruptiblyTerminationTest() {
        wg.add(2);
    }

    @Actor
    public void waiter() {
        wg.awaitUninterruptibly();
    }

    @Signal
    public void twoDones() {
        wg.done();
        wg.done();
    }
}
