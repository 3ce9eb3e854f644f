package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Contract (Select.java, class javadoc and {@code select}): "Among the cases that can proceed, {@code select} picks one
 * uniformly at random, as Go does, so that no channel starves another"; README (Channels): "among several ready
 * cases {@code select} picks one uniformly at random, as Go does"; issue 28: select is "UNIFORMLY RANDOM among ready
 * cases" (Go's selectgo decides under every lock at one instant).
 *
 * <p>Here the select receives a value of {@code b} that was sent AFTER {@code a} became ready, and {@code a} stays
 * ready until the select returns: at the instant the select performs its case (and at every instant since that value
 * exists) both cases can proceed, so each must be chosen about half of the time. Pass 0 of ebce957 (each case that
 * "looks ready" tried under its channel's lock alone) decided on {@code b} when only {@code b} looked ready, waited for
 * {@code b}'s lock (held here by the test, standing for any operation in {@code b}'s critical section), and then takes
 * whatever {@code b} holds, never looking at {@code a} again: it picks {@code b} every time.
 *
 * <p>{@code b} is made before {@code a} (a lower id): Go's lock-every-channel pass (the code before ebce957) locks
 * {@code b} first, so it too waits on {@code b}'s lock holding no other, then sees both ready and picks at random.
 */
class ASelectPicksUniformlyAmongTheCasesReadyWhenItPerformsOneTest {
    private static final int ROUNDS = 40; // all on b by chance: 2^-40

    @Test
    void aCaseThatBecameReadyBeforeTheValueTakenIsChosenAboutHalfOfTheTime() throws InterruptedException {
        int chosenA = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Chan<Integer> b = new Chan<>(2);
            Chan<Integer> a = new Chan<>(1);
            assertTrue(b.offer(1));
            AtomicInteger chosen = new AtomicInteger(-1);
            AtomicReference<Integer> got = new AtomicReference<>();
            Threads.Failing selector;
            b.lock.lock(); // b's critical section, as a concurrent sender's or receiver's
            try {
                selector = Threads.start(() -> chosen.set(Select.select(a.onReceive(got::set), b.onReceive(got::set))));
                awaitQueuedOn(b, selector.thread);
                assertTrue(a.offer(10)); // a can proceed from now until the select returns
                assertEquals(1, b.poll()); // the value b held when the select looked at it is gone
                assertTrue(b.offer(2)); // b's value now was sent after a became ready
            } finally {
                b.lock.unlock();
            }
            selector.join();
            if (chosen.get() == 0) {
                assertEquals(10, got.get());
                chosenA++;
            } else {
                assertEquals(1, chosen.get());
                assertEquals(2, got.get());
                assertEquals(10, a.poll(), "a's value was taken though its case was not chosen");
            }
        }
        assertTrue(chosenA > 0, "a select chose b in all " + ROUNDS + " rounds, though a could proceed whenever b's"
                + " value could be taken (uniform: all on b with probability 2^-" + ROUNDS + ")");
    }

    private static void awaitQueuedOn(Chan<?> c, Thread t) {
        long deadline = System.nanoTime() + Threads.TIMEOUT_NANOS;
        while (!c.lock.hasQueuedThread(t)) {
            if (!t.isAlive() || System.nanoTime() - deadline > 0) {
                fail("the select did not wait for the channel's lock: " + t.getState() + Threads.stack(t));
            }
            Thread.onSpinWait();
        }
    }
}
