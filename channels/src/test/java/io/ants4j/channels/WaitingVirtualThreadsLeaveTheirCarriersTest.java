package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Chan's javadoc: "A waiting thread may spin for a few microseconds, then parks (a virtual thread unmounts): it holds
 * no monitor while it waits, nor its carrier past that spin." Many more virtual threads than carriers wait in every
 * blocking operation (receive, send, select, timed poll) on rendezvous channels; once they have all parked, another
 * virtual thread still runs, and then every waiter is served.
 */
class WaitingVirtualThreadsLeaveTheirCarriersTest {

    @Test
    void virtualThreadsWaitingOnChannelsLeaveTheCarriersFree() throws InterruptedException {
        int each = 8 * Runtime.getRuntime().availableProcessors(); // per kind of wait: far more than the carriers
        Chan<Integer> in = new Chan<>();
        Chan<Integer> out = new Chan<>();
        Chan<Integer> other = new Chan<>();
        CountDownLatch served = new CountDownLatch(4 * each);
        List<Thread> waiters = new ArrayList<>();
        for (int i = 0; i < each; i++) {
            waiters.add(Thread.ofVirtual().start(() -> run(() -> {
                if (in.receive() != null) {
                    served.countDown();
                }
            })));
            waiters.add(Thread.ofVirtual().start(() -> run(() -> {
                out.send(1);
                served.countDown();
            })));
            waiters.add(Thread.ofVirtual().start(() -> run(() -> {
                Select.select(in.onReceive(v -> { }), other.onReceive(v -> { }));
                served.countDown();
            })));
            waiters.add(Thread.ofVirtual().start(() -> run(() -> {
                if (in.poll(30, TimeUnit.SECONDS) != null) {
                    served.countDown();
                }
            })));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread w : waiters) {
            while (w.getState() != Thread.State.WAITING && w.getState() != Thread.State.TIMED_WAITING) {
                assertTrue(System.nanoTime() - deadline < 0, "a waiter never parked: " + w.getState());
                Thread.onSpinWait();
            }
        }
        CountDownLatch ran = new CountDownLatch(1);
        Thread.ofVirtual().start(ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS), "no carrier was free for another virtual thread");
        for (int i = 0; i < 3 * each; i++) {
            assertTrue(in.offer(i, 10, TimeUnit.SECONDS), "a receiver was not there");
        }
        for (int i = 0; i < each; i++) {
            assertEquals(1, out.poll(10, TimeUnit.SECONDS));
        }
        assertTrue(served.await(10, TimeUnit.SECONDS), "waiters not served: " + served.getCount());
    }

    private interface Blocking {
        void run() throws InterruptedException;
    }

    private static void run(Blocking b) {
        try {
            b.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
