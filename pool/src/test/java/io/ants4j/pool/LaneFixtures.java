package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Set-ups shared by the tests that catch a worker in the fast lane at a chosen point. */
final class LaneFixtures {
    private LaneFixtures() {
    }

    /** A pool of one worker, running a task that blocks until {@code finish} counts down. */
    record BusyPool(PoolCore core, CountDownLatch finish) {
    }

    /**
     * Waits until no worker of another pool is in a lane (the JVM's lane budget), then makes a pool of capacity 1
     * on {@code lane} whose only worker runs a task that blocks until {@link BusyPool#finish} counts down.
     */
    static BusyPool poolWithItsOnlyWorkerBusy(String name, PoolOptions options, SpinningWorkers lane) {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        PoolCore core = new PoolCore(name, 1, options, task -> ((Runnable) task).run(), lane);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) () -> {
            running.countDown();
            block(finish);
        }, false, 0L));
        await(running);
        return new BusyPool(core, finish);
    }

    /** Waits until {@code thread} waits for a pool's lock (the pool's {@code SpinLock}). */
    static void awaitWaitingForThePoolLock(Thread thread, String what) {
        eventually(what, () -> Arrays.stream(thread.getStackTrace())
                .anyMatch(e -> e.getClassName().equals("io.ants4j.primitives.SpinLock")));
    }

    /**
     * Waits until {@code terminated}, handing an empty task to a worker spinning in {@code lane} meanwhile: a worker
     * whose spin budget never runs out spins until a payload comes, and sees the close only after it.
     */
    static void awaitTerminationFreeingTheSpinner(SpinningWorkers lane, BooleanSupplier terminated,
            Supplier<String> state) {
        Runnable nothing = () -> { };
        eventually("the pool terminated", () -> {
            if (lane.hasSpinner()) {
                lane.tryHand(nothing, () -> false); // whichever pool's worker spins: the second CAS takes it
            }
            return terminated.getAsBoolean();
        }, state);
    }

    /**
     * Virtual threads spinning on every carrier of the virtual-thread scheduler until {@link #close()}: virtual
     * threads are not preempted, so a virtual worker cannot run meanwhile.
     */
    static final class CarriersOccupied implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> spinners = new ArrayList<>();

        CarriersOccupied() {
            int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                    Runtime.getRuntime().availableProcessors());
            CountDownLatch allBusy = new CountDownLatch(carriers);
            for (int i = 0; i < carriers; i++) {
                spinners.add(Thread.ofVirtual().name("busy-" + i).start(() -> {
                    allBusy.countDown();
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            await(allBusy);
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : spinners) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
    }
}
