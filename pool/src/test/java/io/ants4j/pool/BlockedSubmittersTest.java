package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static io.ants4j.pool.TestSupport.occupy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.PoolKinds.Kind;
import io.ants4j.pool.PoolKinds.Tested;
import io.ants4j.pool.PoolKinds.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Submitters blocked waiting for a worker: served first come, first served, and rejected by a release even when
 * a reboot follows at once.
 */
class BlockedSubmittersTest {

    /** Rounds of the tests whose failure on a broken pool depends on timing. */
    private static final int ROUNDS = 10;

    private static PoolOptions options(Threads threads) {
        return PoolOptions.builder().disablePurge(true)
                .threadFactory(threads.factory((t, e) -> { })).build();
    }

    /**
     * A pool of capacity 1 of each kind; a multi-pool has a single sub-pool, since the order of waiters is kept
     * per sub-pool (round robin spreads submitters over the sub-pools).
     */
    private static Tested singleWorker(Kind kind, Threads threads) {
        PoolOptions o = options(threads);
        return switch (kind) {
            case POOL, POOL_WITH_FUNC -> kind.make(1, o);
            case MULTI_POOL -> {
                MultiPool p = MultiPool.newMultiPool(1, 1, LoadBalancing.ROUND_ROBIN, o);
                yield new Tested(p, p::execute, p::tryExecute);
            }
            case MULTI_POOL_WITH_FUNC -> {
                MultiPoolWithFunc<Runnable> p = MultiPoolWithFunc.newMultiPool(1, 1, Runnable::run,
                        LoadBalancing.ROUND_ROBIN, o);
                yield new Tested(p, p::invoke, p::tryInvoke);
            }
        };
    }

    static Stream<Arguments> kindsAndThreads() {
        return PoolKinds.kindsAndThreads();
    }

    /**
     * Starts {@code n} submitters one after the other, each blocked (counted in {@code waiting()}) before the
     * next starts; submitter {@code i} submits {@code task.apply(i)}. Returns the threads, which end when their
     * submission returns.
     */
    private static List<Thread> blockInOrder(Tested t, int n, java.util.function.IntFunction<Runnable> task,
                                             AtomicReference<Throwable> failure) {
        List<Thread> submitters = new ArrayList<>();
        int before = t.pool().waiting();
        for (int i = 1; i <= n; i++) {
            Runnable r = task.apply(i);
            submitters.add(Thread.ofPlatform().name("s" + i).start(() -> {
                try {
                    t.submit().accept(r);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
            int expected = before + i;
            eventually("s" + i + " blocked", () -> t.pool().waiting() == expected, () -> Probe.describe(t.pool()));
        }
        return submitters;
    }

    private static void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread th : threads) {
            assertTrue(th.join(WAIT), th + " still blocked");
        }
    }

    /**
     * A worker that frees is handed to the submitter that has waited longest, and one that tries without waiting
     * meanwhile gets nothing until every blocked submitter is served: three submitters blocked in the order s1,
     * s2, s3 run in that order, before a newcomer that keeps trying as the worker frees.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("kindsAndThreads")
    void aFreedWorkerGoesToTheLongestWaiterNotToANewcomer(Kind kind, Threads threads) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Tested t = singleWorker(kind, threads);
            List<String> order = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch go = occupy(t.submit(), 1);
            List<Thread> submitters = blockInOrder(t, 3, i -> () -> order.add("s" + i), failure);
            AtomicInteger tries = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            Thread newcomer = Thread.ofPlatform().name("newcomer").start(() -> {
                while (!stop.get()) {
                    tries.incrementAndGet();
                    if (t.trySubmit().test(() -> order.add("newcomer"), Duration.ZERO)) {
                        return;
                    }
                    Thread.onSpinWait();
                }
            });
            eventually("the newcomer tries", () -> tries.get() > 0);
            go.countDown();
            joinAll(submitters);
            eventually("four tasks ran", () -> order.size() == 4, order::toString);
            stop.set(true);
            assertTrue(newcomer.join(WAIT));
            assertEquals(List.of("s1", "s2", "s3", "newcomer"), order, "round " + round);
            assertEquals(null, failure.get());
            t.pool().releaseTimeout(WAIT);
        }
    }

    /**
     * {@code tune} gives its new slots to the submitters that have waited longest: raised by two, it lets s1 and
     * s2 in, while s3 waits on.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("kindsAndThreads")
    void tuneServesTheLongestWaitersFirst(Kind kind, Threads threads) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Tested t = singleWorker(kind, threads);
            List<String> served = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch go = occupy(t.submit(), 1);
            List<Thread> submitters = blockInOrder(t, 3, i -> () -> {
                served.add("s" + i);
                block(go);
            }, failure);
            t.pool().tune(3);
            eventually("two submitters served", () -> served.size() == 2, served::toString);
            assertEquals(Set.of("s1", "s2"), Set.copyOf(served), "round " + round);
            assertEquals(1, t.pool().waiting(), "s3 waits on");
            go.countDown();
            joinAll(submitters);
            eventually("s3 served", () -> served.size() == 3, served::toString);
            assertEquals("s3", served.get(2));
            assertEquals(null, failure.get());
            t.pool().releaseTimeout(WAIT);
        }
    }

    /**
     * A release wakes every blocked submitter with {@link PoolClosedException}, even when a reboot follows before
     * they could run: the submission was rejected when the pool closed, and its task never runs.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("kindsAndThreads")
    void aSubmitterBlockedBeforeReleaseAndRebootIsRejected(Kind kind, Threads threads) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            Tested t = kind.make(2, options(threads));
            CountDownLatch go = occupy(t.submit(), 2);
            AtomicBoolean ran = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> submitter = blockInOrder(t, 1, i -> () -> ran.set(true), failure);
            t.pool().release();
            t.pool().reboot();
            for (Thread th : submitter) {
                assertTrue(th.join(WAIT.dividedBy(2)), "round " + round + ": the submitter waits on after the reboot");
            }
            assertInstanceOf(PoolClosedException.class, failure.get(), "round " + round);
            go.countDown();
            t.pool().releaseTimeout(WAIT);
            assertFalse(ran.get(), "the rejected task ran");
        }
    }
}
