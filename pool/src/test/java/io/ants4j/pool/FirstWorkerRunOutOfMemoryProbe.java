package io.ants4j.pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM of its own with a small heap ({@link FirstWorkerRunOutOfMemoryTest}): the first worker of the JVM
 * begins to run (its thread's first step into the pool) while the heap is full. Prints {@code OK} last if the task
 * that {@code dispatch} accepted for it ran, else {@code FAILED: } and what happened.
 *
 * <p>The worker is the first of the JVM, so {@code Worker.run}'s admission and {@code Worker.take}'s
 * {@code VarHandle} call sites run for the first time: {@code PoolCore.linkStateChanges} runs {@code Worker.run} on a
 * worker with no thread, which returns before the admission CAS ({@code Thread.currentThread() != thread} is true
 * first), and never runs {@code take}. The worker's thread is made by a factory that wraps the pool's runnable with
 * a prologue (waiting for a gate, as a factory that sets up a context would run code of its own first), so that the
 * heap can be filled after {@code dispatch} has started the worker and returned, and before the worker's first step.
 */
final class FirstWorkerRunOutOfMemoryProbe {
    private static final long WAIT_SECONDS = 20;

    /** What ended the worker's thread (stored without allocating), or null. */
    private static volatile Throwable workerFailure;
    /** Set by the task as it begins (a write that allocates nothing). */
    private static volatile boolean taskBegan;

    private FirstWorkerRunOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "first-worker-run-unwarmed" -> firstWorkerRun(false);
            case "first-worker-run-warmed" -> firstWorkerRun(true);
            default -> "unknown probe " + args[0];
        };
        System.out.println(result);
        System.exit(0);
    }

    /**
     * With {@code warmed}, a worker of another pool has run a task and gone idle before, with memory to spare, so
     * that every path of a worker's first steps is linked: the control, which must print OK.
     */
    private static String firstWorkerRun(boolean warmed) throws Exception {
        if (warmed) {
            PoolCore other = new PoolCore("warm-up", 1,
                    PoolOptions.builder().disablePurge(true).threadFactory(r -> gatedThread(new CountDownLatch(0), r))
                            .build(), task -> ((Runnable) task).run(), new SpinningWorkers());
            Semaphore done = new Semaphore(0);
            other.dispatch((Runnable) done::release, false, 0L);
            done.acquire();
            other.release();
            if (!other.awaitTermination(TimeUnit.SECONDS.toNanos(WAIT_SECONDS))) {
                return "setup: the warm-up pool did not terminate";
            }
        }
        CountDownLatch gate = new CountDownLatch(1);
        Thread[] made = new Thread[1];
        ThreadFactory gated = r -> {
            Thread t = gatedThread(gate, r);
            made[0] = t;
            return t;
        };
        PoolCore core = new PoolCore("first-run", 1,
                PoolOptions.builder().disablePurge(true).threadFactory(gated).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
        Semaphore ran = new Semaphore(0);
        Runnable task = () -> {
            taskBegan = true;
            ran.release();
        };
        boolean accepted = core.dispatch(task, false, 0L); // starts the worker (gated), with the task in its slot
        Thread worker = made[0];
        if (!accepted || worker == null) {
            return "setup: the task was not handed to a new worker: " + core;
        }

        // what this thread runs on the full heap, run once before (class loading, linking)
        new CountDownLatch(1).countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        idleOrDead(worker);
        LifecycleOutOfMemoryProbe.freeHeap();
        Throwable probeFailure = null;

        LifecycleOutOfMemoryProbe.fillHeap();
        try {
            gate.countDown();
            while (!idleOrDead(worker)) {
                if (System.nanoTime() - deadline > 0L) {
                    break;
                }
                Thread.onSpinWait();
            }
        } catch (Throwable t) {
            probeFailure = t;
        }
        LifecycleOutOfMemoryProbe.freeHeap();
        System.gc();
        if (probeFailure != null) {
            return "setup: the probe's own thread ran out of memory: " + LifecycleOutOfMemoryProbe.where(probeFailure) + " "
                    + java.util.Arrays.toString(probeFailure.getStackTrace());
        }

        boolean taskRan = ran.tryAcquire(5, TimeUnit.SECONDS);
        boolean workerAlive = worker.isAlive();
        int runningBefore = core.running();
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5));
        if (taskRan && terminated) {
            return "OK";
        }
        return "FAILED: dispatch accepted the task (returned true) and started the JVM's first worker; the heap was"
                + " full as that worker took its first step. Task began: " + taskBegan + "; ran: " + taskRan + "; worker thread alive: "
                + workerAlive + "; it ended on: " + LifecycleOutOfMemoryProbe.where(workerFailure) + "; running() then: " + runningBefore
                + "; terminated after release: " + terminated + "; " + core;
    }

    /**
     * A thread that waits for {@code gate} and then runs {@code r}, the pool's runnable, as a factory that runs code
     * of its own first; what {@code r} lets out is recorded in {@link #workerFailure}.
     */
    private static Thread gatedThread(CountDownLatch gate, Runnable r) {
        return Thread.ofPlatform().daemon(true).name("gated-worker").unstarted(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                return;
            }
            try {
                r.run();
            } catch (Throwable t) {
                workerFailure = t; // the pool's worker loop let it out: record it for the report
            }
        });
    }

    /** Whether {@code worker} is parked idle on its slot (after its task) or has ended. */
    private static boolean idleOrDead(Thread worker) {
        return !worker.isAlive() || worker.getState() == Thread.State.WAITING
                && LockSupport.getBlocker(worker) instanceof Worker;
    }
}
