package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * One thread of the pool outlives its worker for a long time (here: the factory's thread goes on after the worker's
 * run returns, until the test lets it end; the same holds for a dying worker's uncaught-exception handler that takes
 * its time, or a worker thread the JDK cannot unpark, which README "Failures" says keeps "a worker's stop that
 * awaitTermination waits for"). Meanwhile the pool is used as usual: released and rebooted, one task a cycle.
 *
 * <p>Contract: the brief's "memory leaks"; {@code ExitedThreads} bounds the background threads a pool keeps
 * ("never more than about four times the threads still alive plus a small constant, however often a pool is released
 * and rebooted while nobody awaits its termination"), and {@code WorkerPool} promises nothing that needs the workers
 * whose threads have ended.
 *
 * <p>What happened: the list of exited workers that awaitTermination joins ({@code ExitedThreads.head}, linked
 * through {@code Worker.nextExited}) forgets only a prefix of ended threads; behind the one lingering thread at its
 * head every later exited worker stays linked, with its ended thread, however many there are: the list grows by one
 * worker per cycle without bound while that one thread lives.
 */
class TheExitedWorkersListDoesNotGrowBehindALingeringThreadTest {

    private static final int CYCLES = 500;

    @Test
    void exitedWorkersWhoseThreadsEndedAreForgottenBehindALingeringOne() throws Exception {
        CountDownLatch lingerOver = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        ThreadFactory lingering = r -> {
            boolean lingers = first.compareAndSet(true, false);
            return Thread.ofPlatform().daemon(true).unstarted(() -> {
                r.run();
                if (lingers) { // the first thread of the pool goes on a while after its worker ended
                    try {
                        lingerOver.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
        };
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true).threadFactory(lingering).build());
        try {
            for (int i = 0; i < CYCLES; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(10, TimeUnit.SECONDS));
                awaitIdle(pool);
                pool.release(); // retires the idle worker: its thread ends at once
                pool.reboot();
            }
            pool.release();
            int linked = exitedLinked(pool);
            int alive = exitedAlive(pool);
            assertTrue(linked <= 4 * alive + 16, "after " + CYCLES + " release/reboot cycles the pool keeps " + linked
                    + " exited workers linked, of which " + alive + " with a thread still alive; " + pool);
        } finally {
            lingerOver.countDown();
        }
    }

    /** Waits (bounded) until the pool's one worker is idle, so that release retires it. */
    private static void awaitIdle(Pool pool) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.idle() != 1) {
            assertTrue(System.nanoTime() - deadline < 0, "the worker never went idle: " + pool);
            Thread.onSpinWait();
        }
    }

    private static Worker exitedHead(Pool pool) throws ReflectiveOperationException {
        Field core = AbstractWorkerPool.class.getDeclaredField("core");
        core.setAccessible(true);
        Field exited = PoolCore.class.getDeclaredField("exited");
        exited.setAccessible(true);
        Field head = ExitedThreads.class.getDeclaredField("head");
        head.setAccessible(true);
        return (Worker) head.get(exited.get(core.get(pool)));
    }

    private static int exitedLinked(Pool pool) throws ReflectiveOperationException {
        int n = 0;
        for (Worker w = exitedHead(pool); w != null; w = w.nextExited) {
            n++;
        }
        return n;
    }

    private static int exitedAlive(Pool pool) throws ReflectiveOperationException {
        int n = 0;
        for (Worker w = exitedHead(pool); w != null; w = w.nextExited) {
            if (w.thread().isAlive()) {
                n++;
            }
        }
        return n;
    }
}
