package io.ants4j.pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM of its own with a small heap ({@link SubmittedFutureOnFullHeapTest}): the first {@code Future} of the
 * JVM that completes with a thread waiting in {@code get()} is one of the pool's {@code submit}, and its task leaves
 * the heap full. The pool's {@code submit} returns a {@code FutureTask}; its completion wakes the waiting getters in
 * {@code finishCompletion}, whose {@code VarHandle} call site ({@code weakCompareAndSet(this, q, null)}) is not the
 * one a getter runs to queue itself, and is first run there, after the state was set: on a full heap its
 * {@code OutOfMemoryError} leaves the future done and its getter parked for good. Prints {@code OK} if the getter
 * returns, else {@code FAILED: } and what happened. {@code -linked}: a {@code FutureTask} with a waiting getter is
 * completed first, with memory to spare (the control).
 */
final class SubmittedFutureOnFullHeapProbe {
    private static final long WAIT_SECONDS = 10;

    private static volatile boolean taskEnded;

    private SubmittedFutureOnFullHeapProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].endsWith("-linked")) {
            FutureTask<String> warm = new FutureTask<>(() -> "warm");
            Thread getter = Thread.ofPlatform().start(() -> get(warm));
            until(() -> parkedOn(getter, warm));
            warm.run();
            getter.join();
        }
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true)
                .threadFactory(r -> Thread.ofPlatform().daemon(true).unstarted(r)).build());
        CountDownLatch warmedUp = new CountDownLatch(1);
        pool.execute(warmedUp::countDown); // a worker has run a task and gone idle: the pool's own paths are linked
        warmedUp.await();
        new FutureTask<>(() -> "set").run(); // a FutureTask's set and run are linked; its waking of getters is not

        Thread[] getter = new Thread[1];
        Future<?>[] future = new Future<?>[1];
        CountDownLatch submitted = new CountDownLatch(1);
        Runnable body = () -> {
            try {
                submitted.await();
            } catch (InterruptedException e) {
                return;
            }
            until(() -> parkedOn(getter[0], future[0]));
            LifecycleOutOfMemoryProbe.fillHeap(); // the task leaves the heap full behind it
            taskEnded = true;
        };
        future[0] = pool.submit(body, "done");
        getter[0] = Thread.ofPlatform().daemon(true).start(() -> get(future[0]));
        submitted.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (getter[0].isAlive() && System.nanoTime() - deadline < 0L) {
            Thread.onSpinWait();
        }
        LifecycleOutOfMemoryProbe.freeHeap();
        boolean returned = getter[0].join(java.time.Duration.ofSeconds(2));
        System.out.println(returned ? "OK" : "FAILED: the task of pool.submit ended (" + taskEnded + "), its future is "
                + "done: " + future[0].isDone() + ", but the thread waiting in get() was not woken: "
                + getter[0].getState() + ", parked on the future: " + parkedOn(getter[0], future[0]));
        System.exit(0);
    }

    private static void get(Future<?> f) {
        try {
            f.get();
        } catch (Exception e) {
            // done all the same
        }
    }

    private static boolean parkedOn(Thread t, Object blocker) {
        return t != null && t.getState() == Thread.State.WAITING && LockSupport.getBlocker(t) == blocker;
    }

    private static void until(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0L) {
            Thread.yield();
        }
    }
}
