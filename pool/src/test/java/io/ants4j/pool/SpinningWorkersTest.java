package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** The fast lane: hand-off against withdrawal, null payloads, and no task behind a busy hot worker. */
class SpinningWorkersTest {

    @Test
    void emptyLaneRefusesAtOnce() {
        SpinningWorkers lane = new SpinningWorkers();
        assertFalse(lane.tryHand("x"));
        assertFalse(lane.hasSpinner());
    }

    @Test
    void workerThatSpinsOutLeavesAndLaneIsEmptyAgain() {
        SpinningWorkers lane = new SpinningWorkers();
        Worker w = new Worker(null);
        assertSame(SpinningWorkers.NONE, lane.spin(w, SpinningWorkers.NONE));
        assertFalse(lane.hasSpinner());
        assertFalse(lane.tryHand("x"));
    }

    /**
     * One worker spins in the lane again and again while a submitter hands it numbered payloads: every payload
     * that {@code tryHand} accepted arrives exactly once, null included, whatever the race with withdrawal.
     */
    @Test
    void everyAcceptedPayloadArrivesExactlyOnce() throws Exception {
        final int n = 200_000;
        SpinningWorkers lane = new SpinningWorkers();
        Worker w = new Worker(null);
        AtomicIntegerArray received = new AtomicIntegerArray(n);
        AtomicInteger nulls = new AtomicInteger();
        CountDownLatch submitterDone = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            Object last = SpinningWorkers.NONE;
            while (submitterDone.getCount() > 0 || last != SpinningWorkers.NONE) {
                Object p = lane.spin(w, last);
                if (p == null) {
                    nulls.incrementAndGet();
                } else if (p != SpinningWorkers.NONE) {
                    received.incrementAndGet((Integer) p);
                }
                last = p;
            }
        });
        int accepted = 0;
        int acceptedNulls = 0;
        for (int i = 0; i < n; i++) {
            if (lane.tryHand(i)) {
                accepted++;
                if (lane.tryHand(null)) {
                    acceptedNulls++;
                }
            } else {
                received.addAndGet(i, 100); // refused: must never arrive as well
            }
        }
        submitterDone.countDown();
        worker.join(TestSupport.WAIT);
        assertFalse(worker.isAlive(), "the worker never left the lane");
        int arrived = 0;
        for (int i = 0; i < n; i++) {
            int r = received.get(i);
            assertTrue(r == 1 || r == 100, "payload " + i + ": " + r);
            arrived += r == 1 ? 1 : 0;
        }
        assertEquals(accepted, arrived);
        assertEquals(acceptedNulls, nulls.get());
        assertTrue(accepted > 0, "the lane never took a payload");
    }

    /** A hot worker that runs a blocking task is not free: the next task goes to another worker. */
    @Test
    void noTaskWaitsBehindABusyHotWorker() throws Exception {
        Pool pool = Pool.newPool(2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(1);
        for (int i = 0; i < 1_000; i++) { // warm a worker into the lane
            pool.execute(() -> { });
        }
        pool.execute(() -> {
            blocked.countDown();
            TestSupport.block(release);
        });
        await(blocked);
        pool.execute(ran::countDown);
        await(ran);
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
    }
}
