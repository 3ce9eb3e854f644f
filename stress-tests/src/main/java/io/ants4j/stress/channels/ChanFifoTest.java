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

/** Chan, FIFO: values come out in the order their sends completed; two sends of one thread, two polls of another. */
@JCStressTest
@Description("Chan: two values sent in order by one thread are received in that order, each once.")
@Outcome(id = {"0, 0", "0, 1", "1, 0", "1, 2"}, expect = ACCEPTABLE, desc = "In order (a poll may find nothing yet).")
@Outcome(expect = FORBIDDEN, desc = "Out of order, or a value received twice.")
@State
public class ChanFifoTest {
    final Chan<Integer> c = new Chan<>(2);

    @Actor
    public void sender() {
        c.offer(1);
        c.offer(2);
    }

    @Actor
    public void receiver(II_Result r) {
        Integer v1 = c.poll();
        Integer v2 = c.poll();
        r.r1 = v1 == null ? 0 : v1;
        r.r2 = v2 == null ? 0 : v2;
    }
}
