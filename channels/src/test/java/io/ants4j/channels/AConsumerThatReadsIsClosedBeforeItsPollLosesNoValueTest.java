package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Chan.poll()'s javadoc: "null if none was ready or the channel is closed and drained (to tell which, read isClosed()
 * BEFORE the poll: a channel already closed when a poll finds it empty stays so; read after, a value may have been
 * sent and the channel closed in between)"; the timed poll's says the same. Review 61 showed the order matters: a
 * consumer that read isClosed() after a poll found nothing, while a producer sent its last value into the buffer and
 * closed in between, took "null and closed" for "drained" and lost that value. Read first, the same schedule loses
 * nothing.
 */
class AConsumerThatReadsIsClosedBeforeItsPollLosesNoValueTest {

    @Test
    void aTimedPollAfterIsClosedSeesTheLastValueSentBeforeTheClose() throws Exception {
        Chan<Integer> c = new Chan<>(1);
        boolean closedBefore = c.isClosed();
        assertNull(c.poll(1, TimeUnit.MILLISECONDS)); // the time runs out: nothing was sent yet
        assertFalse(closedBefore, "open when the poll began: its null says nothing about the end");
        sendLastAndClose(c, 42);
        // the schedule of review 61: isClosed() after the poll would now say closed, with 42 still buffered
        closedBefore = c.isClosed();
        assertTrue(closedBefore);
        assertEquals(42, c.poll(1, TimeUnit.MILLISECONDS), "the value sent before the close");
        closedBefore = c.isClosed();
        assertNull(c.poll(1, TimeUnit.MILLISECONDS));
        assertTrue(closedBefore, "closed before a poll that found it empty: drained for good");
        assertNull(c.poll());
    }

    @Test
    void aPollAfterIsClosedSeesTheLastValueSentBeforeTheClose() throws Exception {
        Chan<Integer> c = new Chan<>(4);
        boolean closedBefore = c.isClosed();
        assertNull(c.poll());
        assertFalse(closedBefore);
        sendLastAndClose(c, 7);
        closedBefore = c.isClosed();
        assertEquals(7, c.poll());
        assertTrue(closedBefore);
        closedBefore = c.isClosed();
        assertNull(c.poll());
        assertTrue(closedBefore, "closed before a poll that found it empty: drained for good");
    }

    /** A producer on a thread of its own sends its last value (the buffer has room) and closes. */
    private static void sendLastAndClose(Chan<Integer> c, int last) throws InterruptedException {
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                c.send(last);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            c.close();
        });
        assertTrue(producer.join(Duration.ofSeconds(10)), "the producer did not finish");
    }
}
