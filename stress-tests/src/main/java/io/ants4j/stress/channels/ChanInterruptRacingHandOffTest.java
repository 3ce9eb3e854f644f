package io.ants4j.stress.channels;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.channels.Chan;
import io.ants4j.stress.support.Helper;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Chan, an interrupt racing a hand-off: two receivers wait on an unbuffered channel, the first one first (virtual
 * threads made with the state); one actor interrupts the first as the other offers a value. The offer always finds a
 * receiver, and the value goes to exactly one: the first if the hand-off won, else the second ("a value racing with
 * its departure goes to the next waiter, never nowhere"). The arbiter closes the channel to release a receiver left
 * waiting.
 */
@JCStressTest
@Description("Chan: a receiver interrupted as a value is handed to it: the value goes to it or to the next receiver.")
@Outcome(id = "1, 3, 1", expect = ACCEPTABLE, desc = "The hand-off won: the first received; the second released by the close.")
@Outcome(id = "2, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "The interrupt won: the first left, the second received.")
@Outcome(expect = FORBIDDEN, desc = "The value was lost or received twice, the offer failed, or a receiver hung.")
@State
public class ChanInterruptRacingHandOffTest {
    final Chan<Integer> c = new Chan<>();
    final Thread first;
    final Thread second;
    volatile int firstGot;
    volatile int secondGot;

    public ChanInterruptRacingHandOffTest() {
        first = Helper.start(() -> firstGot = Chans.receiveOne(c));
        Chans.untilBlocked(first);
        second = Helper.start(() -> secondGot = Chans.receiveOne(c));
        Chans.untilBlocked(second);
    }

    @Actor
    public void interrupter() {
        first.interrupt();
    }

    @Actor
    public void sender(III_Result r) {
        r.r3 = c.offer(1) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        boolean firstDone = Helper.join(first);
        c.close();
        r.r1 = firstDone ? firstGot : 0;
        r.r2 = Helper.join(second) ? secondGot : 0;
    }
}
