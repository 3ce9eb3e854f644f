package io.ants4j.stress.channels;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.channels.Chan;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Chan, "a send happens-before the receive that gets its value", through the buffer: a plain write before an offer
 * into a buffered channel is seen by the thread whose poll took the value.
 */
@JCStressTest
@Description("Chan: a plain write before a send is visible after the receive that gets the value (buffered).")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Received, and the write is seen.")
@Outcome(id = {"0, 0", "0, 1"}, expect = ACCEPTABLE, desc = "The poll came first: nothing received.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Received the value but not the write before its send.")
@State
public class ChanSendReceiveVisibilityTest {
    final Chan<Integer> c = new Chan<>(1);
    int data;

    @Actor
    public void sender() {
        data = 1;
        c.offer(1);
    }

    @Actor
    public void receiver(II_Result r) {
        Integer v = c.poll();
        r.r1 = v == null ? 0 : 1;
        r.r2 = data;
    }
}
