package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Review 37. {@code WeightedSemaphore}'s class javadoc (WeightedSemaphore.java:30-31): "{@link #tryAcquire(long)}
 * fails whenever any thread waits, for the same reason"; {@code tryAcquire(long)}'s own javadoc (line 173):
 * "Acquires {@code n} permits if they are free and no thread is waiting"; README ("WeightedSemaphore"):
 * "{@code tryAcquire(n)} fails while anyone waits". A thread parked in {@code acquire(n > size)} is a thread
 * waiting in the semaphore (it waits without queueing, lines 35-38), yet {@code tryAcquire(1)} succeeds while it
 * waits. Go's {@code TryAcquire} behaves so too (an oversized Acquire does not block others): the claim, not the
 * behaviour, is what is wrong here.
 */
class TryAcquireFailsWhileAnOversizedAcquireWaitsTest {

    @Test
    void tryAcquireFailsWhileAThreadWaitsInAnOversizedAcquire() throws Exception {
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
        assertFalse(took, "tryAcquire(1) succeeded while a thread waited in acquire(3) on a semaphore of 2");
    }
}
