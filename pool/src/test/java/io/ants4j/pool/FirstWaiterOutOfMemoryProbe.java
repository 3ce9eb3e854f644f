package io.ants4j.pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own with a small heap ({@link FirstWaiterOutOfMemoryTest}): the JVM's first blocked submitter
 * parks on a heap with room for its waiter node but hardly more. Prints {@code OK} last, or {@code FAILED: } and
 * what happened.
 *
 * <p>{@code PoolCore.awaitTurn} reads the waiter's grant ({@code Waiters.Waiter.grant()}, a {@code VarHandle}
 * getAcquire) for the first time in the JVM there: {@code PoolCore.linkStateChanges} links {@code grantLocked} only.
 * Linking allocates, the {@code OutOfMemoryError} goes to {@code abandon}, whose {@code withdrawLocked} reads the
 * grant again through {@code Waiters.withdraw}, and throws again. The submitter is set up by a {@code Thread} whose
 * {@code isInterrupted()} (which {@code dispatch} calls just before it makes the waiter) fills the heap, keeping a
 * small piece free for the waiter node.
 */
final class FirstWaiterOutOfMemoryProbe {
    private static final long WAIT_SECONDS = 20;

    private static volatile Object reserve;
    private static volatile Throwable submitFailure;
    private static volatile boolean submitReturned;
    private static volatile boolean waiterTaskRan;

    private FirstWaiterOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result = switch (args[0]) {
            case "first-waiter-unwarmed" -> firstWaiter(false);
            case "first-waiter-warmed" -> firstWaiter(true);
            default -> "unknown probe " + args[0];
        };
        System.out.println(result);
        System.exit(0);
    }

    /** With {@code warmed}, a waiter's grant is read once first (its call site linked): the control. */
    private static String firstWaiter(boolean warmed) throws Exception {
        if (warmed) {
            new Waiters.Waiter(null).grant();
        }
        ThreadFactory platform = r -> Thread.ofPlatform().daemon(true).unstarted(r);
        PoolCore core = new PoolCore("first-waiter", 1,
                PoolOptions.builder().disablePurge(true).threadFactory(platform).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
        // what the submitter runs besides the grant, run once with memory to spare (class loading, the recorder check)
        PoolEvents.endBlocked(PoolEvents.beginBlocked(), "warm-up");
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        if (!core.dispatch((Runnable) () -> {
            busy.countDown();
            try {
                finish.await(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, false, 0L)) {
            return "setup: the first task was not accepted";
        }
        busy.await();

        Runnable waiterTask = () -> waiterTaskRan = true;
        Thread submitter = new Thread(() -> {
            try {
                core.dispatch(waiterTask, false, 0L);
                submitReturned = true;
            } catch (Throwable t) {
                submitFailure = t;
            }
        }, "first-waiter") {
            private boolean held;

            @Override
            public boolean isInterrupted() {
                if (!held && Thread.currentThread() == this && TestSupport.calledByDispatch()) {
                    held = true; // dispatch is about to make its waiter (pool lock held): fill the heap but a bit
                    System.gc();
                    reserve = new Object[16];
                    LifecycleOutOfMemoryProbe.fillHeap();
                    reserve = null; // the collection the waiter's allocation runs gives it this room
                }
                return super.isInterrupted();
            }
        };
        submitter.setDaemon(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        submitter.start();
        while (submitter.isAlive() && !(submitter.getState() == Thread.State.WAITING
                && java.util.concurrent.locks.LockSupport.getBlocker(submitter) == core)) { // parked in awaitTurn
            if (System.nanoTime() - deadline > 0L) {
                break;
            }
            Thread.onSpinWait();
        }
        LifecycleOutOfMemoryProbe.freeHeap();
        System.gc();
        if (submitter.isAlive()) { // it waits, as a submitter of a full pool does: nothing failed
            finish.countDown();
            submitter.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
            core.release();
            boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5)); // after the task, if it ran
            boolean ok = submitReturned && waiterTaskRan && submitFailure == null;
            return ok && terminated ? "OK" : "FAILED: the submitter waited, then returned: " + submitReturned
                    + ", threw: " + submitFailure + ", its task ran: " + waiterTaskRan + ", terminated: " + terminated;
        }
        long blocked = core.stats().blockedSubmits(); // counted in awaitTurn's finally: it got past its waiter
        int waitingAfter = core.waiting();
        Throwable failure = submitFailure;
        finish.countDown(); // the worker comes back: it serves a waiter if one is still listed
        Semaphore later = new Semaphore(0);
        boolean laterAccepted = core.dispatch((Runnable) later::release, true, TimeUnit.SECONDS.toNanos(5));
        boolean laterRan = laterAccepted && later.tryAcquire(5, TimeUnit.SECONDS);
        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(5));
        if (failure == null) {
            return "setup: the submitter did not fail (returned: " + submitReturned + ")";
        }
        if (waitingAfter == 0 && !waiterTaskRan && terminated) {
            return "OK"; // the submitter that failed is not listed, and its task never runs
        }
        return "FAILED: the JVM's first blocked submitter threw " + failure + " while it waited (blocked=" + blocked
                + "); then waiting()=" + waitingAfter + " with no submitter waiting; its task ran all the same when"
                + " the worker came back: " + waiterTaskRan + "; a later task ran: " + laterRan + "; terminated: "
                + terminated + "; " + core;
    }
}
