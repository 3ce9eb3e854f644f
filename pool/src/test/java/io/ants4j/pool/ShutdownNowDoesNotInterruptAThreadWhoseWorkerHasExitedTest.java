package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.ResourceBundle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code shutdownNow()} walks the live workers with an iterator made before it closes the pool; an interrupt that
 * throws (README: "closing the interruptible channel a task is blocked on can") makes it call the pool's logger in
 * the middle of the walk. Meanwhile another worker's task ends, its worker is retired (the pool is closed) and
 * leaves the live set, and its thread goes on with the factory's own code after the worker's run. The walk then
 * interrupts that thread anyway: the iterator had already read the next worker.
 *
 * <p>Contracts: {@code Pool.shutdownNow()} (AbstractPoolExecutor.java:117) "Releases the pool and interrupts the
 * running tasks ... The interrupts are for the tasks of before the reboot"; {@code ExecutorService.shutdownNow}
 * "attempts to stop all actively executing tasks" (a {@code ThreadPoolExecutor} removes an exiting worker and
 * interrupts the workers under one lock, so it never interrupts a thread whose worker has left). Here the interrupt
 * reaches a thread that runs no task of the pool any more: it leaks into the code the thread runs after its worker.
 */
class ShutdownNowDoesNotInterruptAThreadWhoseWorkerHasExitedTest {

    @Test
    void aWorkerThatLeftTheLiveSetBeforeTheWalkReachedItIsNotInterrupted() throws Exception {
        AtomicReference<Thread> thrower = new AtomicReference<>(); // the first worker thread the walk interrupts
        AtomicBoolean throwOnce = new AtomicBoolean(true);
        Map<Thread, CountDownLatch> taskMayEnd = new ConcurrentHashMap<>();
        Map<Thread, CountDownLatch> workerEnded = new ConcurrentHashMap<>();
        Map<Thread, Boolean> interruptedAfter = new ConcurrentHashMap<>();
        CountDownLatch walkDone = new CountDownLatch(1);
        CountDownLatch twoRunning = new CountDownLatch(2);

        ThreadFactory factory = r -> {
            CountDownLatch ended = new CountDownLatch(1);
            Thread t = new Thread(() -> {
                r.run(); // the pool's worker
                ended.countDown();
                boolean interrupted = false; // the thread's own code after its worker: no task of the pool
                try {
                    walkDone.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                interruptedAfter.put(Thread.currentThread(), interrupted || Thread.interrupted());
            }) {
                @Override
                public void interrupt() {
                    if (throwOnce.compareAndSet(true, false)) {
                        thrower.set(this);
                        throw new IllegalStateException("injected: closing the channel the task blocks on threw");
                    }
                    super.interrupt();
                }
            };
            t.setDaemon(true);
            workerEnded.put(t, ended);
            taskMayEnd.put(t, new CountDownLatch(1));
            return t;
        };
        AtomicReference<Thread> other = new AtomicReference<>();
        System.Logger logger = new System.Logger() { // called by the walk when the first interrupt throws
            @Override
            public String getName() {
                return "pausing";
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
                Thread x = thrower.get();
                if (x == null) {
                    return;
                }
                for (Thread w : taskMayEnd.keySet()) {
                    if (w != x) {
                        other.set(w);
                    }
                }
                taskMayEnd.get(other.get()).countDown(); // the other task ends; its worker is retired and exits
                try {
                    workerEnded.get(other.get()).await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            }
        };
        Pool pool = Pool.newPool(2, PoolOptions.builder().disablePurge(true).threadFactory(factory).logger(logger)
                .build());
        Runnable task = () -> {
            twoRunning.countDown();
            try {
                taskMayEnd.get(Thread.currentThread()).await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                // interrupted by shutdownNow: ends
            }
        };
        pool.execute(task);
        pool.execute(task);
        assertTrue(twoRunning.await(10, TimeUnit.SECONDS));

        pool.shutdownNow();
        walkDone.countDown();
        taskMayEnd.values().forEach(CountDownLatch::countDown);
        assertNotNull(other.get(), "the walk's first interrupt did not throw");
        assertTrue(workerEnded.get(other.get()).await(10, TimeUnit.SECONDS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!interruptedAfter.containsKey(other.get())) {
            assertTrue(System.nanoTime() - deadline < 0, "the thread never finished its own code");
            Thread.onSpinWait();
        }
        assertFalse(interruptedAfter.get(other.get()), "shutdownNow interrupted " + other.get().getName()
                + " after its worker had ended its task, been retired and left the pool (running its factory's own"
                + " code): the interrupt leaked out of the pool; " + pool);
    }
}
