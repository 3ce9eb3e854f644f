package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code WeightedSemaphore}'s class javadoc: a request for more permits than the size waits "without queueing, so
 * they hold nobody back: while only such a request waits, other acquisitions, {@code tryAcquire} included, succeed
 * as if nobody waited", as Go's {@code TryAcquire} does beside a doomed {@code Acquire}. Review 37 found the javadoc
 * and README saying that {@code tryAcquire(n)} "fails whenever any thread waits", which this case contradicted: the
 * claim was corrected ("fails whenever a thread waits in the queue"), and this test shows the behaviour.
 */
class TryAcquireSucceedsWhileOnlyAnOversizedAcquireWaitsTest {

    @Test
    void tryAcquireSucceedsWhileOnlyAThreadInAnOversizedAcquireWaits() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        Threads.Task<Object> waiter = Threads.start(() -> {
            sem.acquire(3); // more than the size: waits (for an interrupt)
            return "acquired";
        });
        Threads.until("the oversized acquire parks inside WeightedSemaphore", () ->
                waiter.thread().getState() == Thread.State.WAITING
                        && Arrays.stream(waiter.thread().getStackTrace())
                                .anyMatch(f -> f.getClassName().equals(WeightedSemaphore.class.getName())));
        boolean took = sem.tryAcquire(1);
        if (took) {
            sem.release(1);
        }
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, Threads.failure(waiter.result()));
        assertTrue(took, "tryAcquire(1) failed while only a thread in acquire(3), above the size of 2, waited");
    }
}
