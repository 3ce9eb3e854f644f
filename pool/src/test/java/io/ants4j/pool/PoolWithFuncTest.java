package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static io.ants4j.pool.TestSupport.tasks;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.WaitGroup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Ports of ants' {@code PoolWithFunc} scenarios. */
class PoolWithFuncTest {

    @Test
    void manyInvocationsThroughSmallPool() throws Exception {
        WaitGroup wg = new WaitGroup();
        AtomicLong sum = new AtomicLong();
        PoolWithFunc<Integer> pool = PoolWithFunc.newPool(100, i -> {
            sum.addAndGet(i);
            wg.done();
        });
        int n = 10_000;
        for (int i = 1; i <= n; i++) {
            wg.add(1);
            pool.invoke(i);
        }
        assertTrue(wg.await(10, TimeUnit.SECONDS));
        assertEquals((long) n * (n + 1) / 2, sum.get());
        assertTrue(pool.running() <= 100);
        eventually("all counted", () -> tasks(pool.stats()).equals(tasks(n, n, 0, 0)), pool::toString);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void manyInvocationsThroughPreAllocatedPool() throws Exception {
        WaitGroup wg = new WaitGroup();
        AtomicInteger count = new AtomicInteger();
        PoolWithFunc<String> pool = PoolWithFunc.newPool(20, s -> {
            count.incrementAndGet();
            wg.done();
        }, PoolOptions.builder().preAlloc(true).build());
        for (int i = 0; i < 5_000; i++) {
            wg.add(1);
            pool.invoke("x");
        }
        assertTrue(wg.await(10, TimeUnit.SECONDS));
        assertEquals(5_000, count.get());
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void nullIsAValidArgument() throws Exception {
        List<Object> seen = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        PoolWithFunc<String> pool = PoolWithFunc.newPool(1, s -> {
            seen.add(s == null ? "<null>" : s);
            done.countDown();
        });
        pool.invoke(null);
        pool.invoke("a");
        pool.invoke(null);
        await(done);
        assertEquals(List.of("<null>", "a", "<null>"), seen);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void panicHandlerAndLogger() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        CountDownLatch latch = new CountDownLatch(1);
        PoolWithFunc<String> pool = PoolWithFunc.newPool(10, s -> {
            throw new IllegalStateException(s);
        }, PoolOptions.builder().panicHandler(t -> {
            handled.incrementAndGet();
            latch.countDown();
        }).build());
        pool.invoke("Oops!");
        await(latch);
        assertEquals(1, handled.get());
        eventually("failed counted", () -> pool.stats().failed() == 1);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertEquals(0, pool.running());

        RecordingLogger logger = new RecordingLogger();
        PoolWithFunc<String> logged = PoolWithFunc.newPool(10, s -> {
            throw new IllegalStateException(s);
        }, PoolOptions.builder().logger(logger).build());
        logged.invoke("Oops!");
        eventually("logged", () -> !logger.thrown.isEmpty());
        assertInstanceOf(IllegalStateException.class, logger.thrown.get(0));
        logged.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void purgeRetiresIdleWorkers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(5);
        PoolWithFunc<Integer> pool = PoolWithFunc.newPool(5, i -> {
            started.countDown();
            block(release);
        }, PoolOptions.builder().expiryDuration(Duration.ofMillis(150)).build());
        for (int i = 0; i < 5; i++) {
            pool.invoke(i);
        }
        await(started);
        assertEquals(5, pool.running());
        release.countDown();
        eventually("purged", () -> pool.running() == 0, pool::toString);
        pool.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void nonblockingAndMaxBlocking() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        Consumer<Integer> fn = i -> {
            if (i == 0) {
                started.countDown();
                block(release);
            }
        };
        PoolWithFunc<Integer> nb = PoolWithFunc.newPool(1, fn, PoolOptions.builder().nonblocking(true).build());
        nb.invoke(0);
        await(started);
        assertThrows(PoolOverloadException.class, () -> nb.invoke(1));
        release.countDown();
        nb.releaseTimeout(Duration.ofSeconds(5));

        CountDownLatch release2 = new CountDownLatch(1);
        CountDownLatch started2 = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(2);
        PoolWithFunc<Integer> mb = PoolWithFunc.newPool(1, i -> {
            if (i == 0) {
                started2.countDown();
                block(release2);
            } else {
                ran.countDown();
            }
        }, PoolOptions.builder().maxBlockingTasks(2).build());
        mb.invoke(0);
        await(started2);
        AtomicInteger overloaded = new AtomicInteger();
        WaitGroup submitters = new WaitGroup();
        for (int i = 1; i <= 5; i++) {
            int arg = i;
            submitters.go(() -> {
                try {
                    mb.invoke(arg);
                } catch (PoolOverloadException e) {
                    overloaded.incrementAndGet();
                }
            });
        }
        eventually("2 waiting, 3 rejected", () -> mb.waiting() == 2 && overloaded.get() == 3, mb::toString);
        release2.countDown();
        assertTrue(submitters.await(10, TimeUnit.SECONDS));
        await(ran);
        mb.releaseTimeout(Duration.ofSeconds(5));
    }

    @Test
    void tuneReleaseTimeoutReboot() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        PoolWithFunc<Integer> pool = PoolWithFunc.newPool(1, i -> {
            if (i == 0) {
                started.countDown();
                block(release);
            }
        });
        pool.invoke(0);
        await(started);
        pool.tune(3);
        assertEquals(3, pool.cap());
        assertEquals(2, pool.free());
        assertThrows(TimeoutException.class, () -> pool.releaseTimeout(Duration.ofMillis(50)));
        assertThrows(PoolClosedException.class, () -> pool.invoke(1));
        release.countDown();
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(pool.awaitTermination(1, TimeUnit.SECONDS));
        pool.reboot();
        assertFalse(pool.isClosed());
        CountDownLatch ran = new CountDownLatch(1);
        PoolWithFunc<CountDownLatch> p2 = PoolWithFunc.newPool(2, CountDownLatch::countDown);
        p2.invoke(ran);
        await(ran);
        p2.releaseTimeout(Duration.ofSeconds(5));
        pool.invoke(5);
        pool.releaseTimeout(Duration.ofSeconds(5));
        assertTrue(pool.toString().startsWith(pool.name() + "[PoolWithFunc, terminated"), pool.toString());
    }

    @Test
    void badInput() {
        assertThrows(NullPointerException.class, () -> PoolWithFunc.newPool(1, null));
        assertThrows(NullPointerException.class, () -> PoolWithFunc.newPool(1, x -> { }, null));
        assertThrows(IllegalArgumentException.class,
                () -> PoolWithFunc.newPool(-1, x -> { }, PoolOptions.builder().preAlloc(true).build()));
    }
}
