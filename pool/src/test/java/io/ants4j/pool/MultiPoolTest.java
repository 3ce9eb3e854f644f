package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static io.ants4j.pool.TestSupport.tasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.WaitGroup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Ports of ants' {@code TestMultiPool} and {@code TestMultiPoolWithFunc}. */
class MultiPoolTest {

    @ParameterizedTest
    @EnumSource(LoadBalancing.class)
    void multiPool(LoadBalancing lb) throws Exception {
        MultiPool mp = MultiPool.newMultiPool(10, 5, lb);
        assertEquals(50, mp.cap());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(50);
        for (int i = 0; i < 50; i++) {
            mp.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        assertEquals(0, mp.waiting());
        assertEquals(50, mp.running());
        assertEquals(0, mp.free());
        for (int i = 0; i < 10; i++) {
            assertEquals(5, mp.running(i), "sub-pool " + i);
            assertEquals(0, mp.free(i));
            assertEquals(0, mp.waiting(i));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> mp.running(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> mp.free(10));
        assertThrows(IndexOutOfBoundsException.class, () -> mp.waiting(11));
        mp.tune(10);
        assertEquals(100, mp.cap());
        assertEquals(50, mp.free());
        release.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(mp.isClosed());
        assertTrue(mp.isTerminated());
        assertThrows(PoolClosedException.class, () -> mp.execute(() -> { }));
        mp.reboot();
        assertFalse(mp.isClosed());
        Future<Integer> f = mp.submit(() -> 42);
        assertEquals(42, f.get(10, TimeUnit.SECONDS));
        assertTrue(mp.toString().startsWith(mp.name() + "[MultiPool, open, pools=10, lb=" + lb), mp.toString());
        mp.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(tasks(51, 51, 0, 1), tasks(mp.stats()));
    }

    @Test
    void roundRobinRetriesOverloadOnLeastRunning() throws Exception {
        MultiPool mp = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().nonblocking(true).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        mp.execute(() -> { // pool 0
            started.countDown();
            block(release);
        });
        await(started);
        CountDownLatch second = new CountDownLatch(1);
        mp.execute(() -> { // pool 1
            second.countDown();
            block(release);
        });
        await(second);
        // pool 0 is next in turn and full, pool 1 is full too: overload after the retry
        assertThrows(PoolOverloadException.class, () -> mp.execute(() -> { }));
        assertEquals(1, mp.stats().rejected());
        release.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void roundRobinRetryFindsFreePool() throws Exception {
        MultiPool mp = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().nonblocking(true).expiryDuration(Duration.ofMillis(100)).build());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        mp.execute(() -> { // pool 0
            started.countDown();
            block(release);
        });
        await(started);
        CountDownLatch ran = new CountDownLatch(1);
        mp.execute(ran::countDown); // pool 1
        await(ran);
        eventually("pool 1 purged", () -> mp.running(1) == 0, mp::toString);
        // next in turn is pool 0 (busy): the retry goes to the least-running pool, pool 1
        CountDownLatch ran2 = new CountDownLatch(1);
        mp.execute(ran2::countDown);
        await(ran2);
        assertEquals(0, mp.stats().rejected());
        release.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
    }

    /**
     * A round-robin multi-pool's timed calls never overrun their timeout: the second look, on the least-running
     * sub-pool, waits only for the time left ({@code MultiPoolCore.dispatch}), so {@code tryExecute}, the timed
     * {@code invokeAll} and the timed {@code invokeAny} on a multi-pool whose every worker is busy each return
     * after about their timeout T, not 2T (a second look that waited the whole timeout again took at least 2T).
     * Generous slack for a loaded machine: each call must take at least T and less than 2T - 150 ms.
     */
    @Test
    void roundRobinTimedCallsNeverOverrunTheirTimeout() throws Exception {
        MultiPool mp = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) { // round robin: one on each sub-pool
            mp.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        final long timeoutMillis = 500;
        final long boundMillis = 2 * timeoutMillis - 150;
        AtomicInteger ran = new AtomicInteger();
        long t0 = System.nanoTime();
        assertFalse(mp.tryExecute(ran::incrementAndGet, Duration.ofMillis(timeoutMillis)), mp::toString);
        assertWithin("tryExecute", t0, timeoutMillis, boundMillis);
        t0 = System.nanoTime();
        Future<Integer> f = mp.invokeAll(List.<Callable<Integer>>of(
                ran::incrementAndGet), timeoutMillis, TimeUnit.MILLISECONDS).get(0);
        assertWithin("invokeAll", t0, timeoutMillis, boundMillis);
        assertTrue(f.isCancelled(), "a task that got no worker is not cancelled: " + f);
        long t1 = System.nanoTime();
        assertThrows(TimeoutException.class, () -> mp.invokeAny(List.<Callable<Integer>>of(
                ran::incrementAndGet), timeoutMillis, TimeUnit.MILLISECONDS));
        assertWithin("invokeAny", t1, timeoutMillis, boundMillis);
        assertEquals(0, ran.get(), "a task that got no worker ran");
        release.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
    }

    private static void assertWithin(String call, long startNanos, long timeoutMillis, long boundMillis) {
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        assertTrue(elapsed >= timeoutMillis && elapsed < boundMillis, () -> call + " with a timeout of "
                + timeoutMillis + " ms returned after " + elapsed + " ms (expected [" + timeoutMillis + ", "
                + boundMillis + "))");
    }

    @Test
    void releaseTimeoutReportsEverySubPool() throws Exception {
        MultiPool mp = MultiPool.newMultiPool(3, 1, LoadBalancing.ROUND_ROBIN);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) { // pools 0 and 1 hang, pool 2 is idle
            mp.execute(() -> {
                started.countDown();
                block(release);
            });
        }
        await(started);
        TimeoutException e = assertThrows(TimeoutException.class, () -> mp.releaseTimeout(Duration.ofMillis(100)));
        assertTrue(e.getMessage().contains("pool 0") && e.getMessage().contains("pool 1")
                && !e.getMessage().contains("pool 2"), e.getMessage());
        release.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(mp.awaitTermination(1, TimeUnit.SECONDS));
    }

    @ParameterizedTest
    @EnumSource(LoadBalancing.class)
    void multiPoolWithFunc(LoadBalancing lb) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(50);
        AtomicInteger nulls = new AtomicInteger();
        MultiPoolWithFunc<Integer> mp = MultiPoolWithFunc.newMultiPool(10, 5, i -> {
            if (i == null) {
                nulls.incrementAndGet();
                return;
            }
            started.countDown();
            block(release);
        }, lb);
        for (int i = 0; i < 50; i++) {
            mp.invoke(i);
        }
        await(started);
        assertEquals(0, mp.waiting());
        assertEquals(50, mp.running());
        for (int i = 0; i < 10; i++) {
            assertEquals(5, mp.running(i));
            assertEquals(0, mp.free(i));
            assertEquals(0, mp.waiting(i));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> mp.running(10));
        mp.tune(10);
        assertEquals(100, mp.cap());
        mp.invoke(null);
        eventually("null invoked", () -> nulls.get() == 1);
        release.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
        assertThrows(PoolClosedException.class, () -> mp.invoke(1));
        mp.reboot();
        mp.invoke(null);
        eventually("null invoked again", () -> nulls.get() == 2);
        mp.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(tasks(52, 52, 0, 1), tasks(mp.stats()));
        assertTrue(mp.toString().startsWith(mp.name() + "[MultiPoolWithFunc, terminated"), mp.toString());
    }

    @Test
    void manyTasksThroughMultiPool() throws Exception {
        WaitGroup wg = new WaitGroup();
        AtomicInteger count = new AtomicInteger();
        MultiPoolWithFunc<Integer> mp = MultiPoolWithFunc.newMultiPool(4, 10, i -> {
            count.incrementAndGet();
            wg.done();
        }, LoadBalancing.LEAST_TASKS);
        for (int i = 0; i < 10_000; i++) {
            wg.add(1);
            mp.invoke(i);
        }
        assertTrue(wg.await(10, TimeUnit.SECONDS));
        assertEquals(10_000, count.get());
        assertTrue(mp.running() <= 40);
        mp.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void capAndFreeSaturateAtIntegerMaxValue() {
        MultiPool huge = MultiPool.newMultiPool(2, Integer.MAX_VALUE, LoadBalancing.ROUND_ROBIN);
        assertEquals(Integer.MAX_VALUE, huge.cap(), "2 sub-pools of Integer.MAX_VALUE");
        assertEquals(Integer.MAX_VALUE, huge.free());
        assertEquals(Integer.MAX_VALUE, huge.free(1), "one sub-pool's count is exact");
        MultiPoolWithFunc<Object> tuned = MultiPoolWithFunc.newMultiPool(4, 1, x -> { }, LoadBalancing.LEAST_TASKS);
        tuned.tune(Integer.MAX_VALUE);
        assertEquals(Integer.MAX_VALUE, tuned.cap(), "4 sub-pools tuned to Integer.MAX_VALUE");
        assertEquals(Integer.MAX_VALUE, tuned.free());
        huge.release();
        tuned.release();
    }

    /** ants' {@code NewMultiPool(n, sizePerPool <= 0, ...)}: every sub-pool unlimited, as {@code NewPool(size <= 0)}. */
    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void unlimitedSubPools(int sizePerPool) throws Exception {
        MultiPool mp = MultiPool.newMultiPool(2, sizePerPool, LoadBalancing.ROUND_ROBIN);
        MultiPoolWithFunc<Runnable> fn = MultiPoolWithFunc.newMultiPool(2, sizePerPool, Runnable::run,
                LoadBalancing.LEAST_TASKS);
        for (WorkerPool p : new WorkerPool[] {mp, fn}) {
            assertEquals(-1, p.cap(), p::toString);
            assertEquals(-1, p.free(), p::toString);
            p.tune(3);
            assertEquals(-1, p.cap(), "tune is ignored for unlimited pools");
        }
        assertEquals(-1, mp.free(0));
        assertEquals(-1, fn.free(1));
        final int tasks = 64; // far more than any bound: all of them run at once
        CountDownLatch go = TestSupport.occupy(mp::execute, tasks);
        CountDownLatch go2 = TestSupport.occupy(fn::invoke, tasks);
        assertEquals(tasks, mp.running());
        assertEquals(tasks, fn.running());
        assertEquals(-1, mp.free(), "still unlimited with tasks running");
        go.countDown();
        go2.countDown();
        mp.releaseTimeout(Duration.ofSeconds(5));
        fn.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(mp.toString().contains("cap=unlimited"), mp.toString());
    }

    @Test
    void badInput() {
        IllegalArgumentException a = assertThrows(IllegalArgumentException.class,
                () -> MultiPool.newMultiPool(0, 5, LoadBalancing.ROUND_ROBIN));
        assertTrue(a.getMessage().contains("pools"), a.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> MultiPoolWithFunc.newMultiPool(-1, 5, x -> { }, LoadBalancing.LEAST_TASKS));
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class,
                () -> MultiPool.newMultiPool(2, 0, LoadBalancing.ROUND_ROBIN,
                        PoolOptions.builder().preAlloc(true).build()));
        assertTrue(b.getMessage().contains("preAlloc"), b.getMessage());
        assertThrows(NullPointerException.class, () -> MultiPool.newMultiPool(1, 1, null));
        assertThrows(NullPointerException.class,
                () -> MultiPoolWithFunc.newMultiPool(1, 1, null, LoadBalancing.ROUND_ROBIN));
        MultiPool mp = MultiPool.newMultiPool(1, 1, LoadBalancing.ROUND_ROBIN);
        assertThrows(NullPointerException.class, () -> mp.execute(null));
        mp.release();
    }
}
