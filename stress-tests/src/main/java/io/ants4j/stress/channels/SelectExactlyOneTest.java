package io.ants4j.stress.channels;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Select is atomic: two channels hold a value each; two actors each select a receive from either. Each select performs
 * exactly one case and a case not chosen consumes nothing: the two take different channels and both values.
 */
@JCStressTest
@Description("Select: two selects over two ready channels each take exactly one value, different ones.")
@Outcome(id = {"0, 1, 0", "1, 0, 0"}, expect = ACCEPTABLE, desc = "Each took one value, from different channels.")
@Outcome(expect = FORBIDDEN, desc = "A select took two values or none, or both took the same channel.")
@State
public class SelectExactlyOneTest {
    final Chan<Integer> a = new Chan<>(1);
    final Chan<Integer> b = new Chan<>(1);

    public SelectExactlyOneTest() {
        a.offer(1);
        b.offer(1);
    }

    private int select() {
        try {
            return Select.select(a.onReceive(v -> { }), b.onReceive(v -> { }));
        } catch (InterruptedException e) {
            return -1;
        }
    }

    @Actor
    public void first(III_Result r) {
        r.r1 = select();
    }

    @Actor
    public void second(III_Result r) {
        r.r2 = select();
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = a.len() + b.len();
    }
}
