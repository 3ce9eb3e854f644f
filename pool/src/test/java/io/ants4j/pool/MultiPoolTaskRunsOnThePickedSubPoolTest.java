package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A multi-pool runs each task on the sub-pool its strategy picks (MultiPool: "each task going to the sub-pool a
 * LoadBalancing strategy picks"; {@code execute}: "in a multi-pool, on a worker of the sub-pool the strategy
 * picks"; README: "each submission goes to one sub-pool by ROUND_ROBIN or LEAST_TASKS"). The one exception the
 * public javadoc allows is "in the instant a submitter starts to wait". Here nobody waits: round robin picks
 * sub-pool 1 for the second task, and it runs on sub-pool 0's worker, which spins in the shared fast lane after
 * the first task; sub-pool 1 never starts a worker. With the default spin budget the same happens whenever the
 * second submission comes while that worker still spins (tens of microseconds after the first task ends: a
 * stream of short tasks runs on one sub-pool).
 *
 * <p>To make it deterministic the sub-pools are replaced by ones sharing a lane whose worker does not withdraw
 * (the spin budget is a timing parameter only).
 */
class MultiPoolTaskRunsOnThePickedSubPoolTest {

    @Test
    void roundRobinRunsTheSecondTaskOnTheSecondSubPool() throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).factory()).build();
        MultiPool mp = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN, options);
        SpinningWorkers lane = new SpinningWorkers(Integer.MAX_VALUE);
        PoolCore[] pools = pools(mp);
        for (int i = 0; i < pools.length; i++) {
            PoolCore old = pools[i];
            @SuppressWarnings("unchecked")
            Consumer<Object> runner = (Consumer<Object>) field(PoolCore.class, "runner").get(old);
            pools[i] = new PoolCore(mp.name() + "-" + i, 1, options, runner, lane);
            old.release();
        }

        AtomicReference<Thread> firstRanIn = new AtomicReference<>();
        AtomicReference<Thread> secondRanIn = new AtomicReference<>();
        CountDownLatch firstRan = new CountDownLatch(1);
        CountDownLatch secondRan = new CountDownLatch(1);
        mp.execute(() -> { // round robin: sub-pool 0
            firstRanIn.set(Thread.currentThread());
            firstRan.countDown();
        });
        await(firstRan);
        eventually("sub-pool 0's worker spinning in the lane after its task", lane::hasSpinner, mp::toString);
        mp.execute(() -> { // round robin: sub-pool 1
            secondRanIn.set(Thread.currentThread());
            secondRan.countDown();
        });
        await(secondRan);
        int running0 = mp.running(0);
        int running1 = mp.running(1);

        mp.release();
        Runnable nothing = () -> { };
        eventually("terminated", () -> {
            if (lane.hasSpinner()) {
                lane.tryHand(nothing); // the worker spins until a payload comes; after it, it sees the close
            }
            return mp.isTerminated();
        }, mp::toString);
        assertTrue(mp.awaitTermination(10, TimeUnit.SECONDS), "not terminated: " + mp);
        assertAll(
                () -> assertTrue(secondRanIn.get() != firstRanIn.get(), "the task round robin sent to sub-pool 1 ran"
                        + " on sub-pool 0's worker " + secondRanIn.get().getName() + " (running(0)=" + running0
                        + ", running(1)=" + running1 + ")"),
                () -> assertEquals(1, running1, "sub-pool 1 never started a worker for the task sent to it"));
    }

    private static PoolCore[] pools(MultiPool mp) throws ReflectiveOperationException {
        return (PoolCore[]) field(MultiPoolCore.class, "pools").get(mp.core);
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
