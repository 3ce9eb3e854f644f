package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.WaitGroup;
import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link WaitGroup}'s counter: {@code add(delta)} with {@code delta} from -2
 * to 2 and {@link Integer#MAX_VALUE}, {@code done()}, {@code count()}, and {@code await} with a
 * zero timeout, which registers as a waiter, finds its time up at once and leaves, unless the
 * round ends first. Proves: {@code add} and {@code done} change the counter atomically; an add
 * that would make it negative or pass {@link Integer#MAX_VALUE} throws
 * {@link IllegalStateException} and changes nothing; {@code count()} is a value that existed;
 * {@code await(0, ns)} returns {@code true} if and only if the counter was zero at one instant of
 * the call, so a waiter that leaves never spoils the word for a later round. (The waits that
 * block are Fray's.)
 */
public class WaitGroupLincheckTest {
    private final WaitGroup group = new WaitGroup();

    @Operation
    public void add(@Param(gen = IntGen.class, conf = "-2:2") int delta) {
        group.add(delta);
    }

    @Operation
    public void addMax() {
        group.add(Integer.MAX_VALUE);
    }

    @Operation
    public void done() {
        group.done();
    }

    @Operation
    public int count() {
        return group.count();
    }

    @Operation
    public boolean awaitNoTime() throws InterruptedException {
        return group.await(0L, TimeUnit.NANOSECONDS);
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(3)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    /** The sequential group: a counter. */
    public static final class Spec {
        private long counter;

        public void add(int delta) {
            long next = counter + delta;
            if (next < 0 || next > Integer.MAX_VALUE) {
                throw new IllegalStateException(next < 0 ? "negative WaitGroup counter" : "WaitGroup counter overflow");
            }
            counter = next;
        }

        public void addMax() {
            add(Integer.MAX_VALUE);
        }

        public void done() {
            add(-1);
        }

        public int count() {
            return (int) counter;
        }

        public boolean awaitNoTime() {
            return counter == 0;
        }
    }
}
