package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.HoldingScheduler;
import static io.ants4j.primitives.UnparkFailureProbe.RejectingScheduler;
import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own by {@link WaitGroupNextRoundTest}, as {@link LostWaiterProbe}; prints {@code OK} last,
 * or {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code add-starting-the-next-round}: a round of a {@link WaitGroup} ends ({@code done()} brings the counter to
 *       zero) with one waiter, a virtual thread the JDK cannot unpark; before the thread that ended the round has
 *       released it (it is held, spinning for the queue's lock), another thread calls {@code add(1)} for the next
 *       round. That add completes the release itself, and unparking the lost waiter throws: the add must still be
 *       made (the lost waiter is lost alone; the add is not misuse).
 * </ul>
 */
final class WaitGroupNextRoundProbe {
    private static final long WAIT_MS = 5_000;

    private WaitGroupNextRoundProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "add-starting-the-next-round" -> addStartingTheNextRound();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static String addStartingTheNextRound() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        RejectingScheduler rejecting = new RejectingScheduler();
        Thread lost = startVirtual(rejecting, wg::awaitUninterruptibly);
        if (!until(() -> parked(lost) && wg.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the waiter did not queue (" + wg + ")";
        }
        Field queueField = WaitGroup.class.getDeclaredField("queue");
        queueField.setAccessible(true);
        WaitQueue queue = (WaitQueue) queueField.get(wg);
        HoldingScheduler holding = new HoldingScheduler();
        CompletableFuture<String> doneOutcome = new CompletableFuture<>();
        queue.lock.lock(); // the thread that ends the round spins for it in its release
        try {
            startVirtual(holding, () -> {
                try {
                    wg.done();
                    doneOutcome.complete("returned");
                } catch (Throwable t) {
                    doneOutcome.complete("threw " + t);
                }
            });
            if (!until(() -> wg.count() == 0)) {
                return "FAIL: setup: done() did not end the round (" + wg + ")";
            }
            holding.hold = true; // its next yield or park between attempts at the lock is held
            if (!until(() -> !holding.held.isEmpty())) {
                return "FAIL: setup: the thread that ended the round was not held (" + wg + ")";
            }
        } finally {
            queue.lock.unlock();
        }
        if (!wg.toString().endsWith("count=0, waiters=1]")) {
            return "FAIL: setup: the round was released already (" + wg + ")";
        }
        rejecting.reject = true;
        String addOutcome;
        try {
            wg.add(1); // the next round
            addOutcome = "returned";
        } catch (Throwable t) {
            addOutcome = "threw " + t;
        }
        int countAfterAdd = wg.count();
        holding.runHeld();
        String done = doneOutcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
        System.out.println("add(1) " + addOutcome + ", count after it " + countAfterAdd + "; done() " + done + "; " + wg);
        if (addOutcome.equals("returned") && countAfterAdd == 1) {
            return "OK";
        }
        return "FAIL: WaitGroup.add(1) for the next round, made while the previous round's release was pending, "
                + addOutcome + " and the counter is " + countAfterAdd + " after it (expected 1): the failure to wake a"
                + " lost waiter of the previous round reached the next round's add, which was not made";
    }
}
