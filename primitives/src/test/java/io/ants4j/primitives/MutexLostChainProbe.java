package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import io.ants4j.primitives.MutexLostHandOffProbe.SwitchingScheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Run in a JVM of its own by {@link MutexLostChainTest}, as {@link MutexLostHandOffProbe}; prints {@code OK} last,
 * or {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code starvation-hand-off-through-many-lost-waiters}: a {@link Mutex} in starvation mode with many virtual
 *       threads queued at the head whose unparks will throw (the JDK has lost them) and a platform thread behind
 *       them; one unlock, called on a thread with the platform's default stack, must hand the lock past all of the
 *       lost ones to the platform waiter.</li>
 *   <li>{@code normal-wake-through-many-lost-waiters}: the same in normal mode: the unlock's wake-up must reach the
 *       platform waiter behind the lost ones.</li>
 * </ul>
 */
final class MutexLostChainProbe {
    private static final long WAIT_MS = 20_000;
    /** Lost waiters queued ahead of the platform one. */
    private static final int LOST = 20_000;

    private MutexLostChainProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "starvation-hand-off-through-many-lost-waiters" -> throughManyLostWaiters(true);
            case "normal-wake-through-many-lost-waiters" -> throughManyLostWaiters(false);
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static String throughManyLostWaiters(boolean starving) throws Exception {
        Mutex m = new Mutex();
        m.lock();
        SwitchingScheduler scheduler = new SwitchingScheduler();
        if (starving) {
            Thread head = startVirtual(scheduler, m::lock);
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
        }
        int first = starving ? 1 : 0;
        for (int i = first; i < LOST; i++) {
            startVirtual(scheduler, m::lock);
        }
        String all = "waiters=" + LOST + "]";
        if (!until(() -> m.toString().endsWith(all))) {
            return "FAIL: setup: the lost-to-be waiters did not all queue (" + m + ")";
        }
        CompletableFuture<String> laterGot = new CompletableFuture<>();
        Thread later = new Thread(() -> {
            m.lock();
            laterGot.complete("acquired");
            m.unlock();
        });
        later.setDaemon(true);
        later.start();
        String behind = "waiters=" + (LOST + 1) + "]";
        if (!until(() -> parked(later) && m.toString().endsWith(behind))) {
            return "FAIL: setup: the platform waiter did not queue (" + m + ")";
        }
        scheduler.mode = SwitchingScheduler.REJECT;
        CompletableFuture<String> unlock = new CompletableFuture<>();
        Thread unlocker = new Thread(() -> { // the platform's default stack
            try {
                m.unlock();
                unlock.complete("returned");
            } catch (Throwable t) {
                unlock.complete("threw " + t);
            }
        }, "unlocker");
        unlocker.setDaemon(true);
        unlocker.start();
        String unlocked;
        try {
            unlocked = unlock.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            unlocked = "did not return";
        }
        String got;
        try {
            got = laterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            got = "nothing: still " + later.getState() + " " + WAIT_MS + " ms after the unlock, the mutex " + m;
        }
        return got.equals("acquired") ? "OK"
                : "FAIL: " + (starving ? "in starvation mode" : "in normal mode") + ", with " + LOST + " lost waiters"
                        + " ahead of a platform one, the unlock " + unlocked + " and the platform waiter got " + got
                        + " (CHANGELOG, Fixed: \"a Mutex whose woken waiter could not be unparked wakes later"
                        + " waiters\")";
    }
}
