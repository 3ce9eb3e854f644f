package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The fast lane: hand-off against withdrawal, null payloads, and no task behind a busy hot worker. */
class SpinningWorkersTest {

    /** The pool of the test's workers, where no submitter waits. */
    private static final SpinningWorkers.Owner NO_WAITERS = () -> false;

    @Test
    void emptyLaneRefusesAtOnce() {
        SpinningWorkers lane = new SpinningWorkers();
        assertFalse(lane.tryHand("x", NO_WAITERS));
        assertFalse(lane.hasSpinner());
    }

    /**
     * A worker that spins out withdraws: it takes no payload and no other worker enters, but it counts as idle in
     * the lane until its pool has it back ({@code withdrawn}); then the lane is empty.
     */
    @Test
    void workerThatSpinsOutWithdrawsAndLaneIsEmptyOnceItsPoolHasItBack() {
        SpinningWorkers lane = new SpinningWorkers();
        assertSame(SpinningWorkers.WITHDRAWING, lane.spin(SpinningWorkers.NONE, NO_WAITERS));
        assertFalse(lane.hasSpinner());
        assertEquals(1, lane.idleWorkers(), "the withdrawing worker");
        assertFalse(lane.tryHand("x", NO_WAITERS));
        assertSame(SpinningWorkers.NONE, lane.spin(SpinningWorkers.NONE, NO_WAITERS), "a second worker entered");
        lane.withdrawn();
        assertEquals(0, lane.idleWorkers());
        assertFalse(lane.tryHand("x", NO_WAITERS));
    }

    /**
     * One worker spins in the lane again and again while a submitter hands it numbered payloads: every payload
     * that {@code tryHand} accepted arrives exactly once, null included, whatever the race with withdrawal.
     */
    @Test
    void everyAcceptedPayloadArrivesExactlyOnce() throws Exception {
        final int n = 200_000;
        SpinningWorkers lane = new SpinningWorkers();
        AtomicIntegerArray received = new AtomicIntegerArray(n);
        AtomicInteger nulls = new AtomicInteger();
        CountDownLatch submitterDone = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            Object last = SpinningWorkers.NONE;
            while (submitterDone.getCount() > 0 || last != SpinningWorkers.NONE) {
                Object p = lane.spin(last, NO_WAITERS);
                if (p == SpinningWorkers.WITHDRAWING) {
                    lane.withdrawn(); // as its pool does when it has the worker back
                    p = SpinningWorkers.NONE;
                } else if (p == null) {
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
            if (lane.tryHand(i, NO_WAITERS)) {
                accepted++;
                if (lane.tryHand(null, NO_WAITERS)) {
                    acceptedNulls++;
                }
            } else {
                received.addAndGet(i, 100); // refused: must never arrive as well
            }
        }
        submitterDone.countDown();
        assertTrue(worker.join(TestSupport.WAIT), "the worker never left the lane");
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

    /**
     * All lanes share {@link SpinningWorkers#MAX_IN_LANES} places: with that many hot workers, a worker of yet
     * another lane parks at once instead of spinning; when one hot worker leaves, its place is free again.
     */
    @Test
    void lanesShareOneBudgetOfSpinningWorkers() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        int budget = SpinningWorkers.MAX_IN_LANES;
        SpinningWorkers[] hot = new SpinningWorkers[budget];
        for (int i = 0; i < budget; i++) {
            hot[i] = new SpinningWorkers();
            makeHot(hot[i], "payload " + i);
        }
        assertEquals(budget, SpinningWorkers.inLanes());
        SpinningWorkers other = new SpinningWorkers();
        assertSame(SpinningWorkers.NONE, other.spin(SpinningWorkers.NONE, NO_WAITERS));
        assertEquals(budget, SpinningWorkers.inLanes());

        hot[0].leave();
        assertEquals(budget - 1, SpinningWorkers.inLanes());
        makeHot(other, "after leave");
        other.leave();
        for (int i = 1; i < budget; i++) {
            hot[i].leave();
        }
        assertEquals(0, SpinningWorkers.inLanes());
    }

    /** Every token goes back: once a multi-pool that ran a stream of short tasks has terminated, no lane is held. */
    @Test
    void terminatedPoolsHoldNoPlaceInTheLanes() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        MultiPool pool = MultiPool.newMultiPool(4, 2, LoadBalancing.ROUND_ROBIN);
        CountDownLatch done = new CountDownLatch(20_000);
        for (int i = 0; i < 20_000; i++) {
            pool.execute(done::countDown);
        }
        await(done);
        pool.releaseTimeout(TestSupport.WAIT);
        assertEquals(0, SpinningWorkers.inLanes());
    }

    /**
     * Spinning adapts to long tasks: against a busy hot worker the first two misses in a row only cost their
     * spin, every further one makes twice as many following submissions skip spinning (1, 3, 7, ...), and a
     * hand-off starts the count over.
     */
    @Test
    void submittersThatKeepMissingSpinLessOften() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers();
        makeHot(lane, "busy"); // the hot worker runs "busy" and does not come back

        int[] skipsAfterEachCall = {0, 0, 1, 0, 3, 2, 1, 0, 7};
        for (int expected : skipsAfterEachCall) {
            assertFalse(lane.tryHand("refused", NO_WAITERS));
            assertEquals(expected, lane.skipsLeft());
        }

        lane.leave();
        makeHot(lane, "next"); // a hand-off
        assertEquals(0, lane.skipsLeft());

        for (int expected : new int[] {0, 0, 1}) { // the count started over
            assertFalse(lane.tryHand("refused", NO_WAITERS));
            assertEquals(expected, lane.skipsLeft());
        }
        lane.leave();
    }

    /**
     * WorkerPool: running() "never exceeds cap() unless the capacity was tuned down while more workers were
     * alive", and tune: "shrinking lets surplus workers exit as they finish their tasks". A worker that spins in
     * the lane when the capacity drops is an idle worker, like one on the idle queue: it may take one more task
     * (as an idle worker does in ants), never a second, so no more tasks run at once than workers were alive,
     * and the pool comes down to the new capacity. Several rounds, since the worker spins only for microseconds:
     * a round where it has left the lane before the tune tests the idle queue instead (on 2 busy cores, most
     * rounds do; a few find it spinning).
     */
    @Test
    void aWorkerSpinningWhenTheCapacityDropsTakesOneMoreTaskAtMost() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        for (int round = 0; round < 50; round++) {
            Pool pool = Pool.newPool(2, PoolOptions.builder()
                    .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).build());
            AtomicInteger now = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            Runnable held = () -> {
                most.accumulateAndGet(now.incrementAndGet(), Math::max);
                try {
                    TestSupport.block(go);
                } finally {
                    now.decrementAndGet();
                }
            };
            CountDownLatch heldRuns = new CountDownLatch(1);
            pool.execute(() -> {
                heldRuns.countDown();
                held.run();
            });
            await(heldRuns);
            SpinningWorkers lane = Probe.lane(pool);
            AtomicBoolean shortRan = new AtomicBoolean();
            pool.execute(() -> shortRan.set(true)); // a second worker, which then spins or goes idle
            // busy: the worker spins for microseconds only, a wait that parks would mostly miss it
            long deadline = System.nanoTime() + TestSupport.WAIT.toNanos();
            while (!shortRan.get() || !lane.hasSpinner() && Probe.idle(pool) == 0) {
                assertTrue(System.nanoTime() - deadline < 0, "the second worker neither spins nor is idle: "
                        + Probe.describe(pool));
                Thread.onSpinWait();
            }
            pool.tune(1);
            boolean tookOneMore = pool.tryExecute(held, Duration.ZERO);
            boolean tookAnother = pool.tryExecute(held, Duration.ZERO);
            assertTrue(pool.running() <= 2, "more workers than alive at the tune: " + pool);
            go.countDown();
            TestSupport.eventually("the surplus worker exits", () -> pool.running() <= 1 && now.get() == 0,
                    pool::toString);
            assertFalse(tookAnother, "a second task taken above the tuned-down capacity (the first: " + tookOneMore
                    + ")");
            assertTrue(most.get() <= 2, most.get() + " tasks ran at once with 2 workers alive at the tune");
            CountDownLatch busy = TestSupport.occupy(pool::execute, 1);
            try {
                assertFalse(pool.tryExecute(() -> { }, Duration.ZERO), "a task past the new capacity: " + pool);
            } finally {
                busy.countDown();
            }
            pool.releaseTimeout(TestSupport.WAIT);
        }
    }

    /**
     * {@code takeOutSpinner} withdraws the spinning worker for it: the worker then counts as withdrawing for its own
     * pool at once (its pool's mark, which only that pool's submitter may hand a payload to), no fast-path submitter
     * hands it a payload, and the worker, still spinning, withdraws at its next look; once its pool has it back
     * the lane is empty and the budget token is given back.
     */
    @Test
    void aSpinnerTakenOutOfTheLaneWithdrawsForItsOwnPoolAndTakesNoPayload() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        SpinningWorkers.Marks marks = SpinningWorkers.newMarks();
        SpinningWorkers.Owner pool = new SpinningWorkers.Owner() {
            @Override
            public boolean stopsSpinning() {
                return false;
            }

            @Override
            public SpinningWorkers.Marks marks() {
                return marks;
            }
        };
        SpinningWorkers.Owner otherPool = () -> false;
        AtomicReference<Object> got = new AtomicReference<>();
        Thread worker = Thread.ofPlatform().start(() -> got.set(lane.spin(SpinningWorkers.NONE, pool)));
        TestSupport.eventually("the worker spins", lane::hasSpinner);
        assertTrue(lane.takeOutSpinner());
        assertTrue(lane.isWithdrawing(pool), "withdrawing for its pool at once, the worker not yet looking");
        assertFalse(lane.isWithdrawing(otherPool));
        assertFalse(lane.hasSpinner());
        assertEquals(1, lane.idleWorkers());
        assertFalse(lane.tryHand("x", NO_WAITERS), "a fast-path hand-off to a worker taken out of the lane");
        assertFalse(lane.tryHandWithdrawing("y", otherPool), "another pool's submitter handed it a payload");
        assertFalse(lane.takeOutSpinner(), "nothing left to take out");
        worker.join(TestSupport.WAIT.toMillis());
        assertFalse(worker.isAlive(), "the worker still spins");
        assertSame(SpinningWorkers.WITHDRAWING, got.get());
        assertSame(SpinningWorkers.NONE, lane.withdrawn());
        assertEquals(0, lane.idleWorkers());
        assertEquals(0, SpinningWorkers.inLanes(), "the worker's token of the lane budget");
    }

    /**
     * {@code takeOutSpinner} racing a submitter's {@code tryHand} for the one spinning worker: exactly one wins, and
     * the worker runs the payload exactly when the submitter's hand-off succeeded, else withdraws.
     */
    @Test
    void takingOutTheSpinnerAndHandingItAPayloadExcludeEachOther() throws Exception {
        TestSupport.eventually("earlier tests' workers have left their lanes", () -> SpinningWorkers.inLanes() == 0);
        for (int round = 0; round < 2_000; round++) {
            SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
            AtomicReference<Object> got = new AtomicReference<>();
            Thread worker = Thread.ofPlatform().start(() -> got.set(lane.spin(SpinningWorkers.NONE, NO_WAITERS)));
            TestSupport.eventually("the worker spins", lane::hasSpinner);
            CountDownLatch go = new CountDownLatch(1);
            AtomicBoolean handed = new AtomicBoolean();
            Integer payload = round;
            Thread submitter = Thread.ofPlatform().start(() -> {
                await(go);
                handed.set(lane.tryHand(payload, NO_WAITERS));
            });
            go.countDown();
            boolean takenOut = lane.takeOutSpinner();
            submitter.join(TestSupport.WAIT.toMillis());
            worker.join(TestSupport.WAIT.toMillis());
            assertFalse(submitter.isAlive() || worker.isAlive(), "stuck in round " + round);
            assertTrue(handed.get() != takenOut, "round " + round + ": handed " + handed.get() + ", taken out "
                    + takenOut);
            if (handed.get()) {
                assertSame(payload, got.get(), "round " + round + ": the payload handed over");
                lane.leave(); // as the hot worker of a closed pool does
            } else {
                assertSame(SpinningWorkers.WITHDRAWING, got.get(), "round " + round);
                assertSame(SpinningWorkers.NONE, lane.withdrawn(), "round " + round);
            }
            assertEquals(0, SpinningWorkers.inLanes(), "round " + round + ": a token of the lane budget kept");
        }
    }

    /** Lets a worker enter {@code lane} on another thread and hands it {@code payload}: that worker is then hot. */
    private static void makeHot(SpinningWorkers lane, Object payload) throws Exception {
        long deadline = System.nanoTime() + TestSupport.WAIT.toNanos();
        for (;;) {
            AtomicReference<Object> got = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> got.set(lane.spin(SpinningWorkers.NONE, NO_WAITERS)));
            boolean handed = false;
            while (t.isAlive() && !(handed = lane.tryHand(payload, NO_WAITERS))) {
                Thread.onSpinWait();
            }
            assertTrue(t.join(TestSupport.WAIT), "the worker never returned from spin");
            if (handed) {
                assertSame(payload, got.get());
                return;
            }
            if (got.get() == SpinningWorkers.WITHDRAWING) {
                lane.withdrawn(); // as its pool does when it has the worker back
            } else {
                assertSame(SpinningWorkers.NONE, got.get());
            }
            assertTrue(System.nanoTime() < deadline, "the worker never entered the lane");
        }
    }
}
