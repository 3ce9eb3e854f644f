package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import io.ants4j.primitives.UnparkFailureProbe.RejectingScheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Run in a JVM of its own by {@link SemaphoreLostGrantTest}; prints {@code OK} last, or {@code FAIL: } and what went
 * wrong.
 * <ul>
 *   <li>{@code grant-to-a-lost-waiter}: a {@link WeightedSemaphore} of 1 held, a virtual thread waiting for 1 at the
 *       head (its unpark will throw: the JDK has lost it, it never runs) and a platform thread waiting for 1 behind
 *       it. The release grants the permit to the head; the platform waiter must still get it, as a {@link Mutex}'s
 *       lock handed to a lost waiter goes on to the next.</li>
 * </ul>
 */
final class SemaphoreLostGrantProbe {
    private static final long WAIT_MS = 5_000;

    private SemaphoreLostGrantProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "grant-to-a-lost-waiter" -> grantToALostWaiter();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static String grantToALostWaiter() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(1);
        sem.acquire(1);
        RejectingScheduler scheduler = new RejectingScheduler();
        Thread head = startVirtual(scheduler, () -> {
            try {
                sem.acquire(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!until(() -> parked(head))) {
            return "FAIL: setup: the first waiter did not park (" + sem + ")";
        }
        CompletableFuture<String> laterGot = new CompletableFuture<>();
        Thread later = new Thread(() -> {
            try {
                sem.acquire(1);
                laterGot.complete("acquired");
            } catch (Throwable t) {
                laterGot.complete("threw " + t);
            }
        });
        later.setDaemon(true);
        later.start();
        if (!until(() -> parked(later))) {
            return "FAIL: setup: the second waiter did not park (" + sem + ")";
        }
        scheduler.reject = true;
        String release;
        try {
            sem.release(1); // grants the head, whose unpark throws: the JDK has lost it
            release = "returned";
        } catch (Throwable t) {
            release = "threw " + t;
        }
        String got;
        try {
            got = laterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            got = "nothing: still " + later.getState() + " " + WAIT_MS + " ms after the release, the semaphore " + sem;
        }
        return got.equals("acquired") ? "OK"
                : "FAIL: after the release whose grant to the head waiter's lost thread threw (release " + release
                        + "), the waiter behind it got " + got + ": the permit stays granted to a thread that never"
                        + " runs (Mutex, CHANGELOG: \"the lock handed to that waiter goes on to the next\")";
    }
}
