package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Review 35. Contracts: WeightedSemaphore.toString (WeightedSemaphore.java:244-246) "Returns a string identifying
 * this semaphore, its size, its free permits and how many threads wait"; class javadoc (WeightedSemaphore.java:35-38)
 * "A request for more permits than the semaphore's size can never succeed: {@link #acquire} waits for an interrupt
 * ... without queueing". Such a thread waits, but toString counts only the queue, so it reports waiting=0 while a
 * thread is parked in acquire. (Low severity: a monitoring string; the thread's wait itself is as documented.)
 */
class AnOversizedAcquireIsCountedAsWaitingByToStringTest {

    @Test
    void aThreadWaitingInAnOversizedAcquireIsCountedAsWaiting() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        Threads.Task<Object> waiter = Threads.start(() -> {
            sem.acquire(2); // more than the size: waits for an interrupt
            return "acquired";
        });
        // parked inside WeightedSemaphore's wait (not, say, in class loading)
        Threads.until("the oversized acquire parks", () -> {
            Thread.State s = waiter.thread().getState();
            return s == Thread.State.WAITING && Arrays.stream(waiter.thread().getStackTrace())
                    .anyMatch(f -> f.getClassName().equals(WeightedSemaphore.class.getName()));
        });
        String seen = sem.toString();
        waiter.thread().interrupt();
        assertInstanceOf(InterruptedException.class, Threads.failure(waiter.result()));
        assertTrue(seen.endsWith("waiting=1]"), "a thread waits in acquire(2), but toString says: " + seen);
    }
}
