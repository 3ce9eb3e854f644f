package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.WaitGroup;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/** Many submitters through a small pool: every task runs exactly once, running() never exceeds cap(). */
class StressTest {

    @Test
    void eightSubmittersHundredThousandTasksEachThroughPoolOfFour() throws Exception {
        int submitters = 8;
        int perSubmitter = 100_000;
        Pool pool = Pool.newPool(4);
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        AtomicInteger maxRunning = new AtomicInteger();
        WaitGroup tasks = new WaitGroup();
        tasks.add(submitters * perSubmitter);
        CountDownLatch go = new CountDownLatch(1);
        Thread[] threads = startSubmitters("submitter-", submitters, perSubmitter, id -> {
            TestSupport.block(go);
            pool.execute(() -> {
                runs.incrementAndGet(id);
                int r = pool.running();
                if (r > maxRunning.get()) {
                    maxRunning.accumulateAndGet(r, Math::max);
                }
                tasks.done();
            });
        });
        go.countDown();
        assertTrue(tasks.await(90, TimeUnit.SECONDS), () -> "tasks left: " + tasks.count() + " " + pool);
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(10));
        }
        for (int i = 0; i < runs.length(); i++) {
            if (runs.get(i) != 1) {
                assertEquals(1, runs.get(i), "task " + i + " ran " + runs.get(i) + " times");
            }
        }
        assertTrue(maxRunning.get() <= 4, "running() reached " + maxRunning.get());
        assertEquals(submitters * perSubmitter, pool.stats().completed());
        pool.releaseTimeout(Duration.ofSeconds(10));
    }

    /**
     * Submitters that wait with a deadline of microseconds race their timeout against a returning worker
     * taking their payload: a task is either accepted and run once, or refused and never run.
     */
    @Test
    void timedSubmittersRacingReturningWorkersLoseNothing() throws Exception {
        int submitters = 4;
        int perSubmitter = 20_000;
        Pool pool = Pool.newPool(2);
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * perSubmitter);
        AtomicInteger accepted = new AtomicInteger();
        Thread[] threads = startSubmitters("timed-submitter-", submitters, perSubmitter, id -> {
            if (pool.tryExecute(() -> runs.incrementAndGet(id), Duration.ofNanos(20_000))) {
                accepted.incrementAndGet();
            } else {
                runs.addAndGet(id, 100); // refused: must never run as well
            }
        });
        for (Thread t : threads) {
            assertTrue(t.join(TestSupport.WAIT.multipliedBy(6)), t.getName() + " still submitting");
        }
        pool.releaseTimeout(Duration.ofSeconds(10));
        int ran = 0;
        for (int i = 0; i < runs.length(); i++) {
            int r = runs.get(i);
            assertTrue(r == 1 || r == 100, "task " + i + ": " + r);
            ran += r == 1 ? 1 : 0;
        }
        assertEquals(accepted.get(), ran);
        assertEquals(submitters * perSubmitter - ran, pool.stats().rejected());
    }

    /** Starts {@code n} platform threads; thread {@code s} calls {@code submit} with ids {@code s * each ...}. */
    private static Thread[] startSubmitters(String name, int n, int each, IntConsumer submit) {
        Thread[] threads = new Thread[n];
        for (int s = 0; s < n; s++) {
            int base = s * each;
            threads[s] = Thread.ofPlatform().name(name + s).start(() -> {
                for (int i = 0; i < each; i++) {
                    submit.accept(base + i);
                }
            });
        }
        return threads;
    }

    @Test
    void concurrentSpawnersNeverExceedCapacity() throws Exception {
        // ants #374: many submitters starting workers at once must not overshoot the capacity
        for (int round = 0; round < 20; round++) {
            Pool pool = Pool.newPool(10);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger maxRunning = new AtomicInteger();
            WaitGroup started = new WaitGroup();
            WaitGroup submitters = new WaitGroup();
            for (int i = 0; i < 30; i++) {
                submitters.go(() -> pool.execute(() -> {
                    maxRunning.accumulateAndGet(pool.running(), Math::max);
                    TestSupport.block(release);
                }));
            }
            TestSupport.eventually("10 busy, 20 waiting", () -> pool.running() == 10 && pool.waiting() == 20,
                    pool::toString);
            assertTrue(maxRunning.get() <= 10, "running() reached " + maxRunning.get());
            release.countDown();
            assertTrue(submitters.await(10, TimeUnit.SECONDS));
            pool.releaseTimeout(Duration.ofSeconds(10));
            assertTrue(maxRunning.get() <= 10, "running() reached " + maxRunning.get());
            assertEquals(0, started.count());
        }
    }

    @Test
    void releaseRacingWithExecuteLosesNothing() throws Exception {
        for (int round = 0; round < 50; round++) {
            Pool pool = Pool.newPool(2);
            AtomicInteger accepted = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            WaitGroup submitters = new WaitGroup();
            for (int s = 0; s < 4; s++) {
                submitters.go(() -> {
                    for (int i = 0; i < 200; i++) {
                        try {
                            pool.execute(ran::incrementAndGet);
                            accepted.incrementAndGet();
                        } catch (PoolClosedException e) {
                            return;
                        }
                    }
                });
            }
            pool.release();
            assertTrue(submitters.await(10, TimeUnit.SECONDS));
            pool.releaseTimeout(Duration.ofSeconds(10));
            assertEquals(accepted.get(), ran.get(), "every accepted task ran");
        }
    }
}
