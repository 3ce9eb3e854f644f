package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Run in a JVM of its own by {@link MutexLostHandOffTest}, as {@link LostWaiterProbe}; prints {@code OK} last, or
 * {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code starvation-hand-off-to-a-lost-waiter}: a {@link Mutex} in starvation mode, with a virtual thread
 *       (waited over 1 ms, at the head) and a platform thread behind it; the unlock hands the lock to the head, whose
 *       unpark throws (the JDK has lost that thread: it never runs). The platform waiter must still get the lock, as
 *       it does in normal mode since the CHANGELOG's fix ("a Mutex whose woken waiter could not be unparked wakes
 *       later waiters").
 * </ul>
 */
final class MutexLostHandOffProbe {
    private static final long WAIT_MS = 5_000;

    private MutexLostHandOffProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "starvation-hand-off-to-a-lost-waiter" -> starvationHandOffToALostWaiter();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    /**
     * A virtual-thread scheduler that runs continuations on new carriers, holds them, rejects them, or holds them and
     * then throws (as JDK 21's ForkJoinPool may when it queued the task and cannot start a worker thread).
     */
    static final class SwitchingScheduler implements Executor {
        static final int RUN = 0;
        static final int HOLD = 1;
        static final int REJECT = 2;
        static final int HOLD_THEN_THROW = 3;
        volatile int mode = RUN;
        final LinkedBlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

        @Override
        public void execute(Runnable continuation) {
            switch (mode) {
                case HOLD -> held.add(continuation);
                case REJECT -> throw new RejectedExecutionException("injected: the virtual thread's scheduler rejects it");
                case HOLD_THEN_THROW -> {
                    held.add(continuation);
                    // JDK 25 retries an OutOfMemoryError from execute; an InternalError stands for JDK 21's, as in UnparkFailureProbe
                    throw new InternalError("injected: the scheduler queued the continuation, then failed");
                }
                default -> carrier(continuation);
            }
        }

        void runHeld() {
            mode = RUN;
            for (Runnable r; (r = held.poll()) != null;) {
                carrier(r);
            }
        }

        private static void carrier(Runnable continuation) {
            Thread carrier = new Thread(continuation, "carrier");
            carrier.setDaemon(true);
            carrier.start();
        }
    }

    private static String starvationHandOffToALostWaiter() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        SwitchingScheduler scheduler = new SwitchingScheduler();
        Thread head = startVirtual(scheduler, m::lock);
        if (!until(() -> parked(head) && m.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the first waiter did not queue (" + m + ")";
        }
        long queued = System.nanoTime();
        long past = 3 * Mutex.STARVATION_THRESHOLD_NANOS;
        until(() -> System.nanoTime() - queued > past); // time passes: the waiter has waited over the threshold
        scheduler.mode = SwitchingScheduler.HOLD;
        m.unlock(); // wakes it (normal mode); its continuation is held
        if (!until(() -> !scheduler.held.isEmpty())) {
            return "FAIL: setup: the unlock did not wake the first waiter (" + m + ")";
        }
        if (!m.tryLock()) { // taken again before the woken waiter runs: it is beaten, having waited over 1 ms
            return "FAIL: setup: the lock could not be taken again (" + m + ")";
        }
        scheduler.runHeld();
        if (!until(() -> parked(head) && m.toString().endsWith("[locked, starving, waiters=1]"))) {
            return "FAIL: setup: the beaten waiter did not turn starvation mode on (" + m + ")";
        }
        CompletableFuture<String> laterGot = new CompletableFuture<>();
        Thread later = new Thread(() -> {
            m.lock();
            laterGot.complete("acquired");
            m.unlock();
        });
        later.setDaemon(true);
        later.start();
        if (!until(() -> parked(later) && m.toString().endsWith("waiters=2]"))) {
            return "FAIL: setup: the second waiter did not queue (" + m + ")";
        }
        scheduler.mode = SwitchingScheduler.REJECT;
        String unlock;
        try {
            m.unlock(); // hands the lock to the head, whose unpark throws: the JDK has lost it
            unlock = "returned";
        } catch (Throwable t) {
            unlock = "threw " + t;
        }
        System.out.println("unlock handing off to the lost waiter " + unlock + "; " + m);
        String got;
        try {
            got = laterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            got = "nothing: still " + later.getState() + " " + WAIT_MS + " ms after the unlock, the mutex " + m;
        }
        System.out.println("waiter behind the lost one: " + got);
        if (got.equals("acquired")) {
            return "OK";
        }
        String recovery; // the lock is not owned: could another thread give back the lost one's hold, as for RWMutex?
        try {
            m.unlock();
            recovery = "unlock() by another thread returned";
        } catch (Throwable t) {
            recovery = "unlock() by another thread threw " + t + ", tryLock() " + m.tryLock();
        }
        return got.equals("acquired") ? "OK"
                : "FAIL: in starvation mode, after the unlock whose hand-off to the head waiter threw (unlock " + unlock
                        + "), the waiter queued behind it got " + got + ": the lock stays handed to a thread that never"
                        + " runs, and nobody gets it again (" + recovery + "; CHANGELOG, Fixed: \"a Mutex whose woken waiter could not be"
                        + " unparked wakes later waiters (before, none was woken again)\"; in normal mode it does)";
    }
}
