package io.ants4j.pool;

import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Run in a JVM of its own ({@link PoolUnparkFailureTest}), with {@code --add-opens java.base/java.lang}: a blocked
 * submitter runs on a virtual thread whose scheduler rejects its continuation once the probe says so, so that
 * {@code LockSupport.unpark} of that thread throws {@link RejectedExecutionException} (the JDK 25 stand-in for the
 * {@code OutOfMemoryError} that JDK 21 lets escape the unpark of a virtual thread; the primitives' probe,
 * {@code UnparkFailureProbe}, uses the same). That submitter is lost; the probe checks what the pool does to
 * everyone else. Prints {@code OK} last, or {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code release}: two submitters wait in a full pool, the first of them lost; {@code release()} must still
 *       answer the second with {@link PoolClosedException} (WorkerPool.release: "blocked submitters ... wake up
 *       with PoolClosedException ...: their tasks never run") and stop the purger and ticker.</li>
 *   <li>{@code shutdown-now}: the same state; {@code shutdownNow()} must still interrupt the running task
 *       (AbstractPoolExecutor.shutdownNow: "Releases the pool and interrupts the running tasks").</li>
 *   <li>{@code tune}: two submitters wait in a full pool of capacity 1, the first of them lost; {@code tune(3)}
 *       must still serve the second (WorkerPool.tune: "Growing serves up to that many more blocked submitters,
 *       those that have waited longest first").</li>
 *   <li>{@code tune-then-release}: the same {@code tune(3)}, then the busy task ends and the pool is released: no
 *       worker is left, so the pool must terminate (WorkerPool.isTerminated: "it is closed and no worker is
 *       left"; awaitTermination returns true once it has terminated and every thread of it has ended).</li>
 *   <li>{@code close-lost-idle-worker}: a pool whose one worker (a virtual thread of the user's factory) is idle
 *       and cannot be unparked any more; {@code close()} must return once the pool has terminated
 *       (WorkerPool.close: "Releases the pool and waits until it has terminated").</li>
 *   <li>{@code hand-off-lost-worker}: the same idle worker, handed a task: the submit throws, the task never runs;
 *       the pool, released, must terminate (WorkerPool.isTerminated: "it is closed and no worker is left").</li>
 * </ul>
 */
final class PoolUnparkFailureProbe {
    private static final long WAIT_MS = 5_000;

    private PoolUnparkFailureProbe() {
    }

    public static void main(String[] args) {
        String result;
        try {
            result = switch (args[0]) {
                case "release" -> release();
                case "tune" -> tune();
                case "shutdown-now" -> shutdownNow();
                case "tune-then-release" -> tuneThenRelease();
                case "close-lost-idle-worker" -> closeWithALostIdleWorker();
                case "hand-off-lost-worker" -> handOffToALostWorker();
                default -> "FAIL: unknown probe " + args[0];
            };
        } catch (Throwable t) {
            result = "FAIL: the probe threw " + t;
        }
        System.out.println(result);
        System.out.flush();
        Runtime.getRuntime().halt(0); // threads left parked for ever must not keep the JVM alive
    }

    /** A scheduler for virtual threads that runs each continuation on a new platform thread until told to reject. */
    static final class RejectingScheduler implements Executor {
        volatile boolean reject;

        @Override
        public void execute(Runnable continuation) {
            if (reject) {
                throw new RejectedExecutionException("injected: the virtual thread's scheduler rejects it");
            }
            Thread carrier = new Thread(continuation, "carrier");
            carrier.setDaemon(true);
            carrier.start();
        }
    }

    /** Starts {@code body} on a virtual thread scheduled by {@code scheduler} (JDK-internal builder). */
    static Thread startVirtual(Executor scheduler, Runnable body) throws Exception {
        Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
        Constructor<?> withScheduler = builder.getDeclaredConstructor(Executor.class);
        withScheduler.setAccessible(true);
        Thread.Builder.OfVirtual virtual = (Thread.Builder.OfVirtual) withScheduler.newInstance(scheduler);
        return virtual.name("lost-submitter").start(body);
    }

    static boolean until(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0L) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /** The pool with a busy worker and two blocked submitters, the first lost; what the second one got. */
    private static final class Scenario {
        final PoolCore core;
        final CountDownLatch gate = new CountDownLatch(1);
        final CountDownLatch busyInterrupted = new CountDownLatch(1);
        final AtomicBoolean secondRan = new AtomicBoolean();
        final AtomicReference<Object> secondOutcome = new AtomicReference<>();
        final CountDownLatch secondReturned = new CountDownLatch(1);

        Scenario(int capacity) throws Exception {
            core = new PoolCore("unpark", capacity, PoolOptions.builder().expiryDuration(Duration.ofSeconds(10))
                    .build(), task -> ((Runnable) task).run(), new SpinningWorkers());
            CountDownLatch busy = new CountDownLatch(capacity);
            for (int i = 0; i < capacity; i++) {
                core.dispatch((Runnable) () -> {
                    busy.countDown();
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        busyInterrupted.countDown();
                    }
                }, false, 0L);
            }
            if (!busy.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the workers did not start: " + core);
            }
            RejectingScheduler scheduler = new RejectingScheduler();
            Thread lost = startVirtual(scheduler, () -> {
                try {
                    core.dispatch((Runnable) () -> { }, false, 0L);
                } catch (Throwable ignored) {
                    // lost: nobody looks
                }
            });
            if (!until(() -> core.waiting() == 1 && lost.getState() == Thread.State.WAITING)) {
                throw new IllegalStateException("the lost submitter did not block: " + core);
            }
            Thread second = new Thread(() -> {
                try {
                    secondOutcome.set(core.dispatch((Runnable) () -> secondRan.set(true), false, 0L));
                } catch (Throwable t) {
                    secondOutcome.set(t);
                }
                secondReturned.countDown();
            }, "second-submitter");
            second.setDaemon(true);
            second.start();
            if (!until(() -> core.waiting() == 2 && second.getState() == Thread.State.WAITING)) {
                throw new IllegalStateException("the second submitter did not block: " + core);
            }
            scheduler.reject = true; // from now on, unparking the lost submitter throws
        }
    }

    private static String release() throws Exception {
        Scenario s = new Scenario(1);
        Throwable releaseThrew = null;
        try {
            s.core.release();
        } catch (Throwable t) {
            releaseThrew = t;
        }
        boolean answered = s.secondReturned.await(WAIT_MS, TimeUnit.MILLISECONDS);
        int background = s.core.backgroundThreads().size();
        String state = s.core.toString();
        s.gate.countDown(); // the busy task ends: its worker retires in the closed pool
        boolean returnedLater = s.secondReturned.await(WAIT_MS, TimeUnit.MILLISECONDS);
        boolean ok = answered && s.secondOutcome.get() instanceof PoolClosedException && !s.secondRan.get()
                && background == 0;
        return ok ? "OK" : "FAIL: release() (which threw " + releaseThrew + ") with the first waiter lost: the second"
                + " waiter " + (answered ? "got " + s.secondOutcome.get()
                : "was still blocked " + WAIT_MS + " ms later (" + state + ")")
                + "; once the busy task ended it " + (returnedLater ? "got " + s.secondOutcome.get() : "was blocked")
                + " and its task " + (s.secondRan.get() ? "RAN in the released pool" : "did not run")
                + "; purger and ticker still running after release: " + background + " (" + s.core + ")";
    }

    private static String tune() throws Exception {
        Scenario s = new Scenario(1);
        Throwable tuneThrew = null;
        try {
            s.core.tune(3); // two more slots: one for each waiter
        } catch (Throwable t) {
            tuneThrew = t;
        }
        boolean served = s.secondReturned.await(WAIT_MS, TimeUnit.MILLISECONDS);
        boolean ran = until(s.secondRan::get);
        String state = s.core.toString();
        s.gate.countDown();
        return served && Boolean.TRUE.equals(s.secondOutcome.get()) && ran ? "OK"
                : "FAIL: tune(3) (which threw " + tuneThrew + ") of a full pool of capacity 1 with two waiters, the"
                + " first lost: the second waiter " + (served ? "got " + s.secondOutcome.get()
                : "was still blocked " + WAIT_MS + " ms later") + ", its task ran: " + ran + " (" + state + ")";
    }

    private static String shutdownNow() throws Exception {
        Scenario s = new Scenario(1);
        Throwable threw = null;
        try {
            s.core.shutdownNow();
        } catch (Throwable t) {
            threw = t;
        }
        boolean interrupted = s.busyInterrupted.await(WAIT_MS, TimeUnit.MILLISECONDS);
        boolean answered = s.secondReturned.await(WAIT_MS, TimeUnit.MILLISECONDS);
        String state = s.core.toString();
        s.gate.countDown();
        return interrupted && answered && s.secondOutcome.get() instanceof PoolClosedException ? "OK"
                : "FAIL: shutdownNow() (which threw " + threw + ") with the first of two waiters lost: the running"
                + " task was interrupted: " + interrupted + "; the second waiter " + (answered ? "got "
                + s.secondOutcome.get() : "was still blocked " + WAIT_MS + " ms later") + " (" + state + ")";
    }

    private static String tuneThenRelease() throws Exception {
        Scenario s = new Scenario(1);
        Throwable tuneThrew = null;
        try {
            s.core.tune(3); // a slot for each waiter: the first is lost with the slot granted to it
        } catch (Throwable t) {
            tuneThrew = t;
        }
        boolean served = s.secondReturned.await(WAIT_MS, TimeUnit.MILLISECONDS) && until(s.secondRan::get);
        s.gate.countDown(); // the busy task ends: two workers alive, both idle
        boolean idle = until(() -> s.core.idle() == 2);
        String before = s.core.toString();
        s.core.release();
        boolean terminated = s.core.awaitTermination(TimeUnit.MILLISECONDS.toNanos(WAIT_MS));
        return served && idle && terminated ? "OK"
                : "FAIL: tune(3) (which threw " + tuneThrew + ") with the first of two waiters lost, then release()"
                + " once both workers were idle (" + idle + ", " + before + "): awaitTermination(" + WAIT_MS
                + " ms) = " + terminated + ", isTerminated = " + s.core.isTerminated() + ", running = "
                + s.core.running() + " with no worker task left (" + s.core + ")";
    }

    /** A pool of one virtual worker on {@code scheduler}, idle on the queue; null if it did not get there. */
    private static Pool poolWithIdleWorker(RejectingScheduler scheduler) throws Exception {
        Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
        Constructor<?> withScheduler = builder.getDeclaredConstructor(Executor.class);
        withScheduler.setAccessible(true);
        java.util.concurrent.ThreadFactory virtual = ((Thread.Builder.OfVirtual) withScheduler.newInstance(scheduler))
                .name("lost-worker").factory();
        AtomicReference<Thread> workerThread = new AtomicReference<>();
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true).threadFactory(r -> {
            Thread t = virtual.newThread(r);
            workerThread.set(t);
            return t;
        }).build());
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        boolean idle = ran.await(WAIT_MS, TimeUnit.MILLISECONDS)
                && until(() -> pool.idle() == 1 && workerThread.get().getState() == Thread.State.WAITING);
        return idle ? pool : null;
    }

    private static String handOffToALostWorker() throws Exception {
        RejectingScheduler scheduler = new RejectingScheduler();
        Pool pool = poolWithIdleWorker(scheduler);
        if (pool == null) {
            return "FAIL: the worker did not go idle";
        }
        scheduler.reject = true; // from now on, unparking the idle worker throws
        AtomicBoolean ran = new AtomicBoolean();
        Throwable submitThrew = null;
        try {
            pool.execute(() -> ran.set(true));
        } catch (Throwable t) {
            submitThrew = t;
        }
        pool.release();
        boolean terminated = until(pool::isTerminated);
        return terminated ? "OK"
                : "FAIL: a submit handed its task to an idle worker it could not unpark (it threw " + submitThrew
                + ", task ran: " + ran.get() + "); released, the pool had not terminated " + WAIT_MS
                + " ms later though no worker of it can run (" + pool + ")";
    }

    private static String closeWithALostIdleWorker() throws Exception {
        RejectingScheduler scheduler = new RejectingScheduler();
        Pool pool = poolWithIdleWorker(scheduler);
        if (pool == null) {
            return "FAIL: the worker did not go idle";
        }
        scheduler.reject = true; // from now on, unparking the idle worker throws
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Throwable> closeThrew = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            try {
                pool.close();
            } catch (Throwable t) {
                closeThrew.set(t);
            }
            closed.countDown();
        }, "closer");
        closer.setDaemon(true);
        closer.start();
        boolean returned = closed.await(WAIT_MS, TimeUnit.MILLISECONDS);
        return returned && closeThrew.get() == null ? "OK"
                : "FAIL: close() of a pool whose idle worker cannot be unparked " + (returned ? "threw " + closeThrew.get()
                : "had not returned " + WAIT_MS + " ms later, though isTerminated() = " + pool.isTerminated())
                + " (" + pool + ")";
    }
}
