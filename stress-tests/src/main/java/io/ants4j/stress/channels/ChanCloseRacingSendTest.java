package io.ants4j.stress.channels;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.channels.Chan;
import io.ants4j.channels.ChanClosedException;
import io.ants4j.stress.support.Helper;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Chan, close racing a blocked send: a sender waits on an unbuffered channel (a virtual thread made with the state);
 * one actor closes the channel as another polls it. Either the poll took the value and the send returned, or the
 * close came first and the send threw ChanClosedException having delivered nothing: the value is never lost nor
 * both delivered and refused.
 */
@JCStressTest
@Description("Chan: close racing a blocked send: the value is received, or the send throws; never lost.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The poll took the value first; the send returned.")
@Outcome(id = "3, 0", expect = ACCEPTABLE, desc = "The close came first: the send threw, nothing received.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The send returned but nobody received its value: lost.")
@Outcome(id = "3, 1", expect = FORBIDDEN, desc = "The send threw but its value was received.")
@Outcome(expect = FORBIDDEN, desc = "The sender did not finish, or an impossible outcome.")
@State
public class ChanCloseRacingSendTest {
    final Chan<Integer> c = new Chan<>();
    final Thread sender;
    volatile int sent;

    public ChanCloseRacingSendTest() {
        sender = Helper.start(() -> {
            try {
                c.send(1);
                sent = 1;
            } catch (ChanClosedException e) {
                sent = Chans.CLOSED;
            } catch (InterruptedException e) {
                sent = Chans.INTERRUPTED;
            }
        });
        Chans.untilBlocked(sender);
    }

    @Actor
    public void closer() {
        c.close();
    }

    @Actor
    public void receiver(II_Result r) {
        r.r2 = c.poll() == null ? 0 : 1;
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = Helper.join(sender) ? sent : 0;
    }
}
