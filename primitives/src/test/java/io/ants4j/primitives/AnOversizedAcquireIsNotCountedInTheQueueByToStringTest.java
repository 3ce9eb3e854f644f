package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code WeightedSemaphore.toString} counts the requests waiting in its queue; a request for more permits than the
 * size waits without queueing (class javadoc: "{@link WeightedSemaphore#acquire} waits for an interrupt ... without
 * queueing") and is not counted. Review 35 read "how many threads wait" and showed a thread parked in such an
 * acquire counted nowhere; the javadoc now says what is counted.
 */
class AnOversizedAcquireIsNotCountedInTheQueueByToStringTest {

    @Test
    void aThreadWaitingInAnOversizedAcquireIsNotCountedAsQueued() throws Exception {
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
        assertTrue(seen.endsWith("waiting=0]"), "acquire(2) on a semaphore of 1 waits without queueing: " + seen);
    }
}
