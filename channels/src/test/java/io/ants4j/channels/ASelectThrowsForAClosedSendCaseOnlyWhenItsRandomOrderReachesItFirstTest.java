package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Contract (Select.java, class javadoc): "A send case whose channel is closed when the select reaches it throws
 * {@link ChanClosedException}, as Go panics" and "Among the cases that can proceed, {@code select} picks one uniformly
 * at random"; issue 28 / the review brief: Go's semantics (runtime/select.go: a send case on a closed channel panics
 * when the select reaches it, in its random poll order).
 *
 * <p>Here, while the select waits for {@code c}'s lock (held by the test, standing for any operation in {@code c}'s
 * critical section), {@code d} gets a value and then {@code c} is closed; both stay so until the select returns. From
 * the close on, Go's select reaches {@code d} first in half of its random orders and receives (its pass 1 over every
 * lock, the code before ebce957, does: {@code c} is made first, so it locks {@code c} first and waits holding no other
 * lock). Pass 0 of ebce957 committed to {@code c} when only {@code c} looked ready and throws every time.
 */
class ASelectThrowsForAClosedSendCaseOnlyWhenItsRandomOrderReachesItFirstTest {
    private static final int ROUNDS = 40; // all throwing by chance: 2^-40

    @Test
    void aReadyReceiveCaseIsChosenAboutHalfOfTheTimeBesideASendCaseOnAClosedChannel() throws InterruptedException {
        int received = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Chan<Integer> c = new Chan<>(1);
            Chan<Integer> d = new Chan<>(1);
            AtomicInteger chosen = new AtomicInteger(-1);
            AtomicReference<Integer> got = new AtomicReference<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Threads.Failing selector;
            c.lock.lock();
            try {
                selector = Threads.start(() -> {
                    try {
                        chosen.set(Select.select(c.onSend(1, () -> { }), d.onReceive(got::set)));
                    } catch (ChanClosedException e) {
                        thrown.set(e);
                    }
                });
                awaitQueuedOn(c, selector.thread);
                assertTrue(d.offer(7)); // d can proceed from now until the select returns
                c.close(); // c's send case panics from now on
            } finally {
                c.lock.unlock();
            }
            selector.join();
            if (thrown.get() == null) {
                assertEquals(1, chosen.get());
                assertEquals(7, got.get());
                received++;
            } else {
                assertInstanceOf(ChanClosedException.class, thrown.get());
                assertEquals(7, d.poll(), "d's value was taken though the select threw");
                assertNull(c.poll(), "the select sent on the closed channel");
            }
        }
        assertTrue(received > 0, "the select threw for the closed send case in all " + ROUNDS + " rounds, though its"
                + " receive case could proceed from before the close on (Go: half of its random orders receive)");
    }

    private static void awaitQueuedOn(Chan<?> ch, Thread t) {
        long deadline = System.nanoTime() + Threads.TIMEOUT_NANOS;
        while (!ch.lock.hasQueuedThread(t)) {
            if (!t.isAlive() || System.nanoTime() - deadline > 0) {
                fail("the select did not wait for the channel's lock: " + t.getState() + Threads.stack(t));
            }
            Thread.onSpinWait();
        }
    }
}
