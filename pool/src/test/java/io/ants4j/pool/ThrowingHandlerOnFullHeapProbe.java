package io.ants4j.pool;

import java.util.ResourceBundle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM of its own with a small heap ({@link ThrowingHandlerOnFullHeapTest}): a task fails and leaves the heap
 * full, and the pool's {@code panicHandler} throws too (as a handler that cannot allocate does). README "Failures":
 * "Whatever a task throws, Errors included, goes to PoolOptions.panicHandler ...; the worker survives ... A handler
 * that throws is logged once". {@code TaskFailures.report} builds the log message of a throwing handler
 * ({@code "the panicHandler of " + pool + " threw ..."}, a string concatenation whose first run links its call site)
 * outside the {@code try} that guards the logging: that {@code OutOfMemoryError} escapes {@code runPayload} (whose
 * notes say "reporting never throws") and ends the worker. The handler's failure is never logged. Prints {@code OK}
 * if the worker is alive and idle afterwards and the logger got the handler's failure, else {@code FAILED: } and
 * what happened. The logger and both throwables allocate nothing. {@code handler-returns} is the control: the
 * handler returns (and is counted as the logging); the worker survives the same full heap.
 */
final class ThrowingHandlerOnFullHeapProbe {
    private static final long WAIT_SECONDS = 20;
    private static final IllegalStateException TASK_FAILURE = new IllegalStateException("the task failed");
    private static final IllegalStateException HANDLER_FAILURE = new IllegalStateException("the handler failed");

    private static volatile int logged;
    private static volatile Throwable lastLogged;
    private static volatile Throwable uncaught;

    private ThrowingHandlerOnFullHeapProbe() {
    }

    /** Records what it is given, allocating nothing. */
    private static final class Recorder implements System.Logger {
        @Override
        public String getName() {
            return "recorder";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            lastLogged = thrown;
            logged++;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            logged++;
        }
    }

    public static void main(String[] args) throws Exception {
        boolean throwing = args[0].equals("handler-throws");
        Thread[] made = new Thread[1];
        Pool pool = Pool.newPool(1,
                PoolOptions.builder().disablePurge(true).logger(new Recorder())
                        .panicHandler(t -> {
                            if (throwing) {
                                throw HANDLER_FAILURE;
                            }
                            lastLogged = HANDLER_FAILURE; // handled: counted as the logging of the control
                            logged++;
                        })
                        .threadFactory(r -> {
                            Thread t = Thread.ofPlatform().daemon(true).name("worker").unstarted(r);
                            t.setUncaughtExceptionHandler((th, e) -> uncaught = e);
                            made[0] = t;
                            return t;
                        }).build());
        Runnable task = () -> {
            LifecycleOutOfMemoryProbe.fillHeap(); // the task leaves the heap full behind it
            throw TASK_FAILURE;
        };
        idleOrDead(made[0]); // run once before the heap is full (null: false)
        pool.execute(task);
        if (made[0] == null) {
            System.out.println("setup: the task was not handed to a new worker: " + pool);
            System.exit(0);
        }
        Thread worker = made[0];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!idleOrDead(worker) && System.nanoTime() - deadline < 0L) {
            Thread.onSpinWait();
        }
        LifecycleOutOfMemoryProbe.freeHeap();
        boolean alive = worker.isAlive();
        String result = alive && logged == 1 && lastLogged == HANDLER_FAILURE ? "OK"
                : "FAILED: a task failed on a full heap and the panicHandler " + (throwing ? "threw" : "returned")
                + "; the worker thread is alive: " + alive
                + "; the logger was called " + logged + " time(s) (with " + lastLogged + "); the worker thread's "
                + "uncaught-exception handler got " + uncaught + "; running " + pool.running() + ", " + pool.stats();
        System.out.println(result);
        System.exit(0);
    }

    /** Whether {@code worker} is parked idle on its slot or in the lane's wait, or has ended. */
    private static boolean idleOrDead(Thread worker) {
        return worker != null && (!worker.isAlive() || worker.getState() == Thread.State.WAITING
                && LockSupport.getBlocker(worker) instanceof Worker);
    }
}
