package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.WeightedSemaphore;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link WeightedSemaphore}'s operations that never wait: {@code tryAcquire(n)},
 * {@code release(n)} and {@code available()}, with {@code n} from -1 to 4 on a semaphore of 3
 * permits. Proves: a {@code tryAcquire} succeeds if and only if {@code n} permits were free at one
 * instant of the call, and takes exactly {@code n}; a {@code release} of more than are held throws
 * {@link IllegalStateException} and changes nothing; a negative {@code n} throws
 * {@link IllegalArgumentException} and changes nothing; {@code available()} is a count that
 * existed. (Without waiters the queue rules never apply; the waiting operations are Fray's.)
 */
public class WeightedSemaphoreLincheckTest {
    static final int SIZE = 3;

    private final WeightedSemaphore semaphore = new WeightedSemaphore(SIZE);

    @Operation
    public boolean tryAcquire(@Param(gen = IntGen.class, conf = "-1:4") int n) {
        return semaphore.tryAcquire(n);
    }

    @Operation
    public void release(@Param(gen = IntGen.class, conf = "-1:4") int n) {
        semaphore.release(n);
    }

    @Operation
    public long available() {
        return semaphore.available();
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(3)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    /** The sequential semaphore: a count of free permits. */
    public static final class Spec {
        private long free = SIZE;

        public boolean tryAcquire(int n) {
            checkNotNegative(n);
            if (n > free) {
                return false;
            }
            free -= n;
            return true;
        }

        public void release(int n) {
            checkNotNegative(n);
            if (n > SIZE - free) {
                throw new IllegalStateException("released more than held");
            }
            free += n;
        }

        public long available() {
            return free;
        }

        private static void checkNotNegative(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("n < 0");
            }
        }
    }
}
