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

/** WaitGroup: an untimed await() always returns once the last done() has run (no lost wake-up). */
@JCStressTest(Mode.Termination)
@Description("WaitGroup: untimed await() terminates after the last done().")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "await() returned after done().")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "await() hung: the wake-up was lost.")
@Outcome(expect = FORBIDDEN, desc = "await() threw.")
@State
public class WaitGroupAwaitTerminationTest {

    final WaitGroup wg = new WaitGroup();

    public WaitGroupAwaitTerminationTest() {
        wg.add(1);
    }

    @Actor
    public void waiter() throws InterruptedException {
        wg.await();
    }

    @Signal
    public void lastDone() {
        wg.done();
    }
}
