package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import io.ants4j.primitives.MutexLostHandOffProbe.SwitchingScheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Run in a JVM of its own by {@link MutexHandOffUnparkThrowsAfterQueueingTest}; prints {@code OK} last, or
 * {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code hand-off-unpark-throws-but-the-thread-runs}: a {@link Mutex} in starvation mode with a virtual thread
 *       at the head and two platform threads behind it. The unlock hands the lock to the head, whose scheduler queues
 *       its continuation and then throws (as JDK 21's ForkJoinPool does when it has queued a task and cannot start a
 *       worker thread: an OutOfMemoryError escapes execute, and the task runs later on a carrier it has). Whatever
 *       the unlock does about the waiter it could not unpark, when the head's continuation then runs, two threads
 *       must never hold the lock at once (a take-over "in the lost thread's stead", tried once, let them).</li>
 * </ul>
 */
final class MutexHandOffUnparkThrowsAfterQueueingProbe {
    private static final long WAIT_MS = 5_000;

    private MutexHandOffUnparkThrowsAfterQueueingProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "hand-off-unpark-throws-but-the-thread-runs" -> handOffUnparkThrowsButTheThreadRuns();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static Thread platform(Runnable body) {
        Thread t = new Thread(body);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static String handOffUnparkThrowsButTheThreadRuns() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        SwitchingScheduler scheduler = new SwitchingScheduler();
        CompletableFuture<String> headGot = new CompletableFuture<>();
        Thread head = startVirtual(scheduler, () -> {
            m.lock();
            headGot.complete("acquired");
        });
        if (!until(() -> parked(head) && m.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the first waiter did not queue (" + m + ")";
        }
        long queued = System.nanoTime();
        long past = 3 * Mutex.STARVATION_THRESHOLD_NANOS;
        until(() -> System.nanoTime() - queued > past);
        scheduler.mode = SwitchingScheduler.HOLD;
        m.unlock();
        if (!until(() -> !scheduler.held.isEmpty())) {
            return "FAIL: setup: the unlock did not wake the first waiter (" + m + ")";
        }
        if (!m.tryLock()) {
            return "FAIL: setup: the lock could not be taken again (" + m + ")";
        }
        scheduler.runHeld();
        if (!until(() -> parked(head) && m.toString().endsWith("[locked, starving, waiters=1]"))) {
            return "FAIL: setup: the beaten waiter did not turn starvation mode on (" + m + ")";
        }
        CompletableFuture<String> firstGot = new CompletableFuture<>();
        CountDownLatch firstMayUnlock = new CountDownLatch(1);
        Thread first = platform(() -> {
            m.lock();
            firstGot.complete("acquired");
            try {
                firstMayUnlock.await(WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!until(() -> parked(first) && m.toString().endsWith("waiters=2]"))) {
            return "FAIL: setup: the second waiter did not queue (" + m + ")";
        }
        Thread second = platform(m::lock);
        if (!until(() -> parked(second) && m.toString().endsWith("waiters=3]"))) {
            return "FAIL: setup: the third waiter did not queue (" + m + ")";
        }
        long allQueued = System.nanoTime();
        until(() -> System.nanoTime() - allQueued > past); // the platform waiters have waited over 1 ms too
        scheduler.mode = SwitchingScheduler.HOLD_THEN_THROW;
        String unlock;
        try {
            m.unlock(); // hands the lock to the head: its continuation is queued, and execute throws
            unlock = "returned";
        } catch (Throwable t) {
            unlock = "threw " + t;
        }
        String got;
        try {
            got = firstGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            return "OK"; // the unlock did not hand the lock on past the head: not the case this probe checks
        }
        String whileFirstHolds = m.toString();
        scheduler.runHeld(); // the head's continuation runs, as the pool's task it queued does later
        String headOutcome;
        try {
            headOutcome = headGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException waits) {
            headOutcome = null;
        }
        String after = m.toString();
        firstMayUnlock.countDown();
        if (headOutcome == null) {
            return "OK"; // the head waits for the lock the next waiter holds
        }
        return "FAIL: the unlock whose hand-off unpark threw (" + unlock + ") handed the lock on to the next waiter,"
                + " which " + got + " it (" + whileFirstHolds + "); then the head's queued continuation ran and its"
                + " lock() returned too: two threads hold the Mutex at once (the mutex now " + after + "; the third"
                + " waiter is " + second.getState() + ")";
    }
}
