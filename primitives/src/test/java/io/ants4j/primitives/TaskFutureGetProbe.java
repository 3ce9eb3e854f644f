package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.HoldingScheduler;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TaskGroup} task's {@code Future} whose computation completes while a thread waits in its
 * {@code get(timeout)}, and whose completing thread is slow to run {@code done()} (here: held by its virtual
 * thread's scheduler while it waits for the getters' queue lock, which the probe holds for a moment; in the wild:
 * preempted between {@code FutureTask}'s state write and {@code done()}). Run in a JVM of its own by
 * {@link TaskFutureGetTest} (needs {@code --add-opens java.base/java.lang}). Prints {@code OK} last, or
 * {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code timed-get-after-completion}: the getter's deadline passes after {@code isDone()} returned
 *       {@code true}: {@link Future#get(long, TimeUnit)} "waits if necessary for at most the given time for the
 *       computation to complete, and then retrieves its result": it must return the result
 *       ({@code FutureTask} re-reads its state when the time is up), not throw {@code TimeoutException}.
 *   <li>{@code interrupted-get-after-completion}: the thread waiting in {@link Future#get()} is interrupted after
 *       {@code isDone()} returned {@code true}: no wait was necessary any more ("Waits if necessary for the
 *       computation to complete, and then retrieves its result"), and {@code FutureTask.get()} returns the result
 *       (its awaitDone: "We may have already promised (via isDone) that we are done so never return empty-handed
 *       or throw InterruptedException"); it must not throw {@code InterruptedException}.
 * </ul>
 */
final class TaskFutureGetProbe {
    private static final long WAIT_MS = 5_000;

    private TaskFutureGetProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "timed-get-after-completion" -> getAfterCompletion(true);
            case "interrupted-get-after-completion" -> getAfterCompletion(false);
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static String getAfterCompletion(boolean timed) throws Exception {
        HoldingScheduler holding = new HoldingScheduler();
        TaskGroup<String> group = TaskGroup.create(-1, task -> {
            try {
                startVirtual(holding, task);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        CountDownLatch finish = new CountDownLatch(1);
        Future<String> future = group.go(() -> {
            finish.await();
            return "result";
        });
        long timeoutNanos = TimeUnit.SECONDS.toNanos(2);
        CompletableFuture<String> outcome = new CompletableFuture<>();
        AtomicLong getterStart = new AtomicLong();
        Thread getter = new Thread(() -> {
            try {
                getterStart.set(System.nanoTime());
                String v = timed ? future.get(timeoutNanos, TimeUnit.NANOSECONDS) : future.get();
                outcome.complete("returned " + v);
            } catch (Throwable t) {
                outcome.complete("threw " + t);
            }
        });
        getter.setDaemon(true);
        getter.start();
        Field outer = future.getClass().getDeclaredField("this$0");
        outer.setAccessible(true);
        Object member = outer.get(future);
        Field gettersField = TaskMember.class.getDeclaredField("getters");
        gettersField.setAccessible(true);
        if (!until(() -> {
            try {
                WaitQueue q = (WaitQueue) gettersField.get(member);
                return q != null && !q.isEmpty()
                        && getter.getState() == (timed ? Thread.State.TIMED_WAITING : Thread.State.WAITING);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        })) {
            return "FAIL: setup: the getter did not wait in the Future's queue";
        }
        WaitQueue q = (WaitQueue) gettersField.get(member);
        q.lock.lock(); // done() of the completing thread waits for this lock
        boolean locked = true;
        try {
            finish.countDown();
            if (!until(future::isDone)) {
                return "FAIL: setup: the task did not complete";
            }
            long doneAt = System.nanoTime();
            if (doneAt - getterStart.get() >= timeoutNanos / 2) {
                return "FAIL: setup: too slow, the task completed late in the getter's timeout";
            }
            holding.hold = true; // the completing thread's next yield in done()'s lock stays with the scheduler
            if (!until(() -> !holding.held.isEmpty())) {
                return "FAIL: setup: the completing thread did not yield";
            }
            q.lock.unlock();
            locked = false;
            if (!timed) {
                getter.interrupt();
            }
            String seen;
            try {
                seen = outcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException hung) {
                seen = "nothing (hung)";
            }
            holding.runHeld();
            String expected = "returned result";
            if (seen.equals(expected)) {
                return "OK";
            }
            return timed
                    ? "FAIL: the Future was done (isDone() true) "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos - (doneAt - getterStart.get()))
                            + " ms before the getter's timeout ran out, yet get(timeout) " + seen
                            + " (FutureTask returns the result)"
                    : "FAIL: the Future was done (isDone() true) before its getter was interrupted, yet get() "
                            + seen + " (FutureTask returns the result)";
        } finally {
            if (locked) {
                q.lock.unlock();
            }
        }
    }
}
