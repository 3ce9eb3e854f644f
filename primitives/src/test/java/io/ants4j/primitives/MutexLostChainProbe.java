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
 *   <li>{@code normal-wake-through-many-lost-waiters}: a {@link Mutex} in normal mode with many virtual threads
 *       queued at the head whose unparks will throw and a platform thread behind them; one unlock, called on a
 *       thread with the platform's default stack, must wake the platform waiter past all of them.</li>
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
            case "normal-wake-through-many-lost-waiters" -> throughManyLostWaiters();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static String throughManyLostWaiters() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        SwitchingScheduler scheduler = new SwitchingScheduler();
        for (int i = 0; i < LOST; i++) {
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
                : "FAIL: in normal mode, with " + LOST + " lost waiters"
                        + " ahead of a platform one, the unlock " + unlocked + " and the platform waiter got " + got
                        + " (CHANGELOG, Fixed: \"a Mutex whose woken waiter could not be unparked wakes later"
                        + " waiters\")";
    }
}
