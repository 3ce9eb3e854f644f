package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.HoldingScheduler;
import static io.ants4j.primitives.UnparkFailureProbe.RejectingScheduler;
import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where an unpark that throws (the JDK 25 stand-in, a virtual thread whose scheduler rejects its continuation, for
 * JDK 21's {@code OutOfMemoryError}) could break a contract for the threads that are not lost.
 * Run in a JVM of its own by {@link LostWaiterTest}, as {@link UnparkFailureProbe}. Prints {@code OK}
 * last, or {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code mutex-interrupted-waiter-keeps-interrupt}: a {@link Mutex#lockInterruptibly()} waiter chosen by an
 *       {@code unlock()} in the instant it is interrupted resigns the wake-up and wakes the next waiter, whose
 *       unpark throws: the interrupt it consumed must not be lost (as the RWMutex writer, WeightedSemaphore and
 *       TaskGroup.go keep it, CHANGELOG Unreleased, Fixed).
 *   <li>{@code rwmutex-writer-on-inner-mutex-keeps-interrupt}: the same for a writer in
 *       {@code writeLock().lockInterruptibly()} that waits for another writer (on the writers' inner Mutex).
 *   <li>{@code waitgroup-interrupted-waiter-keeps-interrupt}: a {@link WaitGroup#await()} waiter interrupted after
 *       the round ended and before the round was released completes the release itself, and unparking the other
 *       waiter throws: the javadoc says its wait succeeded ("await() returns normally with the interrupt status
 *       set"); whatever is thrown, the interrupt must not be lost.
 *   <li>{@code taskgroup-cancel-interrupts-running-task}: {@link TaskGroup#cancel()} while a thread whose unpark
 *       throws waits in {@code get()} of a running task's Future: the task must still be interrupted.
 *   <li>{@code taskgroup-future-cancel-interrupts-running-task}: the same through that Future's {@code cancel(true)}.
 *   <li>{@code taskgroup-future-wakes-every-getter}: a task returns while a thread and then a lost one wait in its
 *       Future's {@code get()}: the other thread must get the result (CHANGELOG: "Waking several parked threads
 *       (... TaskGroup): if unparking one throws ..., the others are still unparked").
 *   <li>{@code mutex-lost-wake-up-still-wakes-later-waiters}: an {@code unlock()} (normal mode) wakes a waiter
 *       whose unpark throws; later, with the lock free again, a waiter that queued since must still be woken by
 *       the next {@code unlock()} (as RWMutex was fixed so that a lost reader no longer makes "every later writer
 *       wait for ever").
 *   <li>{@code once-run-wakes-every-waiter}: {@link Once#run} whose action returns while a lost thread and then
 *       another wait for it: the caller that ran the action must return normally and the other waiter return.
 * </ul>
 */
final class LostWaiterProbe {
    private static final long WAIT_MS = 5_000;

    private LostWaiterProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "mutex-interrupted-waiter-keeps-interrupt" -> mutexInterruptedWaiterKeepsInterrupt();
            case "rwmutex-writer-on-inner-mutex-keeps-interrupt" -> rwMutexWriterOnInnerMutexKeepsInterrupt();
            case "waitgroup-interrupted-waiter-keeps-interrupt" -> waitGroupInterruptedWaiterKeepsInterrupt();
            case "taskgroup-cancel-interrupts-running-task" -> taskGroupCancelInterruptsRunningTask(true);
            case "taskgroup-future-cancel-interrupts-running-task" -> taskGroupCancelInterruptsRunningTask(false);
            case "once-run-wakes-every-waiter" -> onceRunWakesEveryWaiter();
            case "mutex-lost-wake-up-still-wakes-later-waiters" -> mutexLostWakeUpStillWakesLaterWaiters();
            case "taskgroup-future-wakes-every-getter" -> taskGroupFutureWakesEveryGetter();
            case "waitgroup-wakes-a-waiter-queued-after-a-lost-one" -> waitGroupWakesTheOtherWaiter(true);
            case "waitgroup-wakes-a-waiter-queued-before-a-lost-one" -> waitGroupWakesTheOtherWaiter(false);
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    /** What an interruptible acquisition ended with: "OK" for InterruptedException, else what and the interrupt status. */
    private interface Acquisition {
        void run() throws InterruptedException;
    }

    private static Runnable recording(Acquisition acquisition, CompletableFuture<String> outcome) {
        return () -> {
            try {
                acquisition.run();
                outcome.complete("acquired, interrupted=" + Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                outcome.complete("OK");
            } catch (Throwable t) {
                outcome.complete("threw " + t + ", interrupted=" + Thread.currentThread().isInterrupted());
            }
        };
    }

    /**
     * {@code inner} is held by this thread. A virtual thread whose continuations can be held ({@code acquire}, an
     * interruptible acquisition that queues on {@code inner}) waits, a lost one ({@code lost}) queues behind it; the
     * first is interrupted and, while its continuation is held, {@code unlock} chooses it. When it runs it sees the
     * interrupt first, finds its node granted, resigns, and wakes the lost one. Returns its outcome.
     */
    private static String interruptTheChosenWaiter(Mutex inner, Acquisition acquire, Runnable lostBody, Runnable unlock)
            throws Exception {
        HoldingScheduler holding = new HoldingScheduler();
        RejectingScheduler rejecting = new RejectingScheduler();
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Thread waiter = startVirtual(holding, recording(acquire, outcome));
        if (!until(() -> parked(waiter) && inner.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the interruptible waiter did not queue (" + inner + ")";
        }
        Thread lost = startVirtual(rejecting, lostBody);
        if (!until(() -> parked(lost) && inner.toString().endsWith("waiters=2]"))) {
            return "FAIL: setup: the second waiter did not queue behind the first (" + inner + ")";
        }
        holding.hold = true;
        rejecting.reject = true;
        waiter.interrupt(); // unparks it: its continuation is held, it has not seen the interrupt yet
        if (!until(() -> !holding.held.isEmpty())) {
            return "FAIL: setup: the interrupt did not unpark the waiter";
        }
        unlock.run(); // chooses the waiter at the head: its node is granted (its unpark is a no-op: already unparked)
        holding.runHeld();
        String result;
        try {
            result = outcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            result = "nothing (hung)";
        }
        System.out.println("interrupted waiter: " + result + "; " + inner);
        return result;
    }

    /**
     * A round of a {@link WaitGroup} ends with a lost waiter and a platform one queued ({@code lostFirst}: the lost
     * one first): {@code done()} must wake the other all the same (WaitQueue.unparkAll: "If an unpark throws, the
     * walk still unparks the others").
     */
    private static String waitGroupWakesTheOtherWaiter(boolean lostFirst) throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        RejectingScheduler scheduler = new RejectingScheduler();
        CountDownLatch woken = new CountDownLatch(1);
        Runnable awaitLost = wg::awaitUninterruptibly;
        Runnable awaitOther = () -> {
            wg.awaitUninterruptibly();
            woken.countDown();
        };
        Thread[] waiters = new Thread[2];
        for (int i = 0; i < 2; i++) {
            boolean lost = (i == 0) == lostFirst;
            if (lost) {
                waiters[i] = startVirtual(scheduler, awaitLost);
            } else {
                waiters[i] = new Thread(awaitOther);
                waiters[i].setDaemon(true);
                waiters[i].start();
            }
            Thread queued = waiters[i];
            if (!until(() -> parked(queued))) {
                return "FAIL: setup: waiter " + i + " did not park (" + wg + ")";
            }
        }
        scheduler.reject = true;
        String outcome;
        try {
            wg.done();
            outcome = "returned";
        } catch (Throwable t) {
            outcome = "threw " + t;
        }
        return woken.await(WAIT_MS, TimeUnit.MILLISECONDS) ? "OK"
                : "FAIL: WaitGroup.done() " + outcome + "; the other waiter was never woken (" + wg + ")";
    }

    private static String mutexInterruptedWaiterKeepsInterrupt() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        String outcome = interruptTheChosenWaiter(m, m::lockInterruptibly, m::lock, m::unlock);
        if (outcome.startsWith("FAIL")) {
            return outcome;
        }
        return outcome.equals("OK") || outcome.endsWith("interrupted=true") ? "OK"
                : "FAIL: Mutex.lockInterruptibly(), interrupted as unlock() chose it, " + outcome
                        + ": the interrupt it consumed is lost (Lock.lockInterruptibly: an interrupted acquisition"
                        + " throws InterruptedException; RWMutex's writer, WeightedSemaphore and TaskGroup.go keep the"
                        + " interrupt when passing on what they were given throws)";
    }

    private static String rwMutexWriterOnInnerMutexKeepsInterrupt() throws Exception {
        RWMutex rw = new RWMutex();
        Field writers = RWMutex.class.getDeclaredField("writers");
        writers.setAccessible(true);
        Mutex inner = (Mutex) writers.get(rw);
        rw.writeLock().lock();
        String outcome = interruptTheChosenWaiter(inner, () -> rw.writeLock().lockInterruptibly(),
                () -> rw.writeLock().lock(), () -> rw.writeLock().unlock());
        if (outcome.startsWith("FAIL")) {
            return outcome;
        }
        return outcome.equals("OK") || outcome.endsWith("interrupted=true") ? "OK"
                : "FAIL: RWMutex writeLock().lockInterruptibly(), waiting for another writer and interrupted as its"
                        + " unlock() chose it, " + outcome + ": the interrupt it consumed is lost (the writer that"
                        + " waits for readers keeps it in the same case: rwmutex-interrupted-writer-keeps-interrupt)";
    }

    private static String waitGroupInterruptedWaiterKeepsInterrupt() throws Exception {
        WaitGroup wg = new WaitGroup();
        wg.add(1);
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                wg.await();
                outcome.complete("returned, interrupted=" + Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                outcome.complete("threw InterruptedException, interrupted=" + Thread.currentThread().isInterrupted());
            } catch (Throwable t) {
                outcome.complete("threw " + t + ", interrupted=" + Thread.currentThread().isInterrupted());
            }
        });
        waiter.setDaemon(true);
        waiter.start();
        if (!until(() -> parked(waiter) && wg.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the waiter did not register (" + wg + ")";
        }
        RejectingScheduler rejecting = new RejectingScheduler();
        Thread lost = startVirtual(rejecting, wg::awaitUninterruptibly);
        if (!until(() -> parked(lost) && wg.toString().endsWith("waiters=2]"))) {
            return "FAIL: setup: the second waiter did not register (" + wg + ")";
        }
        rejecting.reject = true;
        Field queueField = WaitGroup.class.getDeclaredField("queue");
        queueField.setAccessible(true);
        WaitQueue queue = (WaitQueue) queueField.get(wg);
        HoldingScheduler holding = new HoldingScheduler();
        Thread adder;
        queue.lock.lock(); // the round's adder ends the round, then waits for this lock to release it
        try {
            adder = startVirtual(holding, wg::done);
            if (!until(() -> wg.count() == 0)) {
                return "FAIL: setup: done() did not end the round (" + wg + ")";
            }
            holding.hold = true; // the adder spins for the queue's lock: its next yield or park is held
            if (!until(() -> !holding.held.isEmpty())) {
                return "FAIL: setup: the adder was not held";
            }
            waiter.interrupt(); // the waiter leaves: it finds the round ended, not released, and releases it
        } finally {
            queue.lock.unlock();
        }
        String result;
        try {
            result = outcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            result = "nothing (hung)";
        }
        holding.runHeld();
        System.out.println("interrupted waiter: " + result + "; " + wg + "; adder " + adder.getState());
        return result.endsWith("interrupted=true") ? "OK"
                : "FAIL: WaitGroup.await(), interrupted after its round ended and before the round was released, "
                        + result + ": its javadoc says \"If the count reached zero before it could leave, its wait"
                        + " succeeded: ... await() returns normally with the interrupt status set\"; the interrupt it"
                        + " consumed is lost when releasing the other waiter throws";
    }

    /**
     * Starts a thread waiting in {@code future.get()} whose unpark throws from the moment it parked; returns whether
     * it parked in time.
     */
    private static boolean lostGetterParked(Future<?> future) throws Exception {
        RejectingScheduler rejecting = new RejectingScheduler();
        Thread lost = startVirtual(rejecting, () -> {
            try {
                future.get();
            } catch (Exception e) {
                // lost: never woken
            }
        });
        if (!until(() -> parked(lost))) {
            return false;
        }
        rejecting.reject = true;
        return true;
    }

    private static String taskGroupCancelInterruptsRunningTask(boolean wholeGroup) throws Exception {
        TaskGroup<String> group = TaskGroup.create();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        CompletableFuture<String> taskSaw = new CompletableFuture<>();
        Future<String> future = group.go(() -> {
            running.countDown();
            try {
                never.await(4 * WAIT_MS, TimeUnit.MILLISECONDS);
                taskSaw.complete("never interrupted");
                return "ended by its own timeout";
            } catch (InterruptedException e) {
                taskSaw.complete("interrupted");
                throw e;
            }
        });
        if (!running.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "FAIL: setup: the task did not start";
        }
        if (!lostGetterParked(future)) {
            return "FAIL: setup: the thread calling get() did not park";
        }
        String cancel;
        try {
            if (wholeGroup) {
                group.cancel();
            } else {
                future.cancel(true);
            }
            cancel = "returned";
        } catch (Throwable t) {
            cancel = "threw " + t;
        }
        String saw;
        try {
            saw = taskSaw.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
            saw = "still running, not interrupted, " + WAIT_MS + " ms later";
        }
        String what = wholeGroup ? "TaskGroup.cancel()" : "the task's Future.cancel(true)";
        System.out.println(what + " " + cancel + "; the running task: " + saw + "; future cancelled="
                + future.isCancelled() + "; " + group);
        if (saw.equals("interrupted")) {
            return "OK";
        }
        return "FAIL: " + what + " " + cancel + " (unparking the thread in the Future's get() threw) and the running"
                + " task was " + saw + (wholeGroup
                        ? ": TaskGroup javadoc: cancel() \"interrupts the tasks that run ... Every task is cancelled"
                                + " ... all the same\"; close() waits for such a task until it ends by itself"
                        : ": TaskGroup javadoc: \"cancel(true) throws what interrupting the task's thread throws, once"
                                + " the Future is cancelled\": the task's thread is never interrupted");
    }

    private static String onceRunWakesEveryWaiter() throws Exception {
        Once once = new Once();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<String> firstCaller = new CompletableFuture<>();
        Thread first = new Thread(() -> {
            try {
                once.run(() -> {
                    running.countDown();
                    try {
                        finish.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                firstCaller.complete("returned");
            } catch (Throwable t) {
                firstCaller.complete("threw " + t);
            }
        });
        first.setDaemon(true);
        first.start();
        if (!running.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "FAIL: setup: the action did not start";
        }
        RejectingScheduler rejecting = new RejectingScheduler();
        Thread lost = startVirtual(rejecting, () -> once.run(() -> { }));
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the lost caller did not park";
        }
        CompletableFuture<String> waiterGot = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            once.run(() -> waiterGot.complete("ran the action a second time"));
            waiterGot.complete("returned");
        });
        waiter.setDaemon(true);
        waiter.start();
        if (!until(() -> parked(waiter))) {
            return "FAIL: setup: the waiter did not park";
        }
        rejecting.reject = true;
        finish.countDown();
        String firstOutcome;
        try {
            firstOutcome = firstCaller.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            firstOutcome = "nothing (hung)";
        }
        String waiterOutcome;
        try {
            waiterOutcome = waiterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            waiterOutcome = "nothing: still " + waiter.getState() + " " + WAIT_MS + " ms after the action returned";
        }
        System.out.println("the caller that ran the action: " + firstOutcome + "; the waiter: " + waiterOutcome
                + "; " + once);
        if (firstOutcome.equals("returned") && waiterOutcome.equals("returned")) {
            return "OK";
        }
        return "FAIL: the action returned; the caller that ran it " + firstOutcome + ", the other waiter "
                + waiterOutcome + " (Once javadoc: \"every other call, concurrent or later, returns only after that"
                + " action has returned\"; Once.value was fixed for the same case: \"wake every other waiter and give"
                + " the caller that ran the function its outcome\")";
    }

    private static String taskGroupFutureWakesEveryGetter() throws Exception {
        TaskGroup<String> group = TaskGroup.create();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Future<String> future = group.go(() -> {
            running.countDown();
            finish.await();
            return "result";
        });
        if (!running.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "FAIL: setup: the task did not start";
        }
        CompletableFuture<String> getterGot = new CompletableFuture<>();
        Thread getter = new Thread(() -> {
            try {
                getterGot.complete("got " + future.get());
            } catch (Throwable t) {
                getterGot.complete("threw " + t);
            }
        });
        getter.setDaemon(true);
        getter.start();
        if (!until(() -> parked(getter))) {
            return "FAIL: setup: the getter did not park";
        }
        if (!lostGetterParked(future)) {
            return "FAIL: setup: the lost getter did not park";
        }
        finish.countDown();
        String got;
        try {
            got = getterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            got = "nothing: still " + getter.getState() + " " + WAIT_MS + " ms after the task returned";
        }
        System.out.println("the other getter: " + got + "; future done=" + future.isDone() + "; " + group);
        return got.equals("got result") ? "OK"
                : "FAIL: the task returned \"result\"; a thread waiting in its Future's get() got " + got
                        + " (CHANGELOG: \"Waking several parked threads (... TaskGroup): if unparking one throws ...,"
                        + " the others are still unparked\")";
    }

    private static String mutexLostWakeUpStillWakesLaterWaiters() throws Exception {
        Mutex m = new Mutex();
        m.lock();
        RejectingScheduler rejecting = new RejectingScheduler();
        Thread lost = startVirtual(rejecting, m::lock);
        if (!until(() -> parked(lost) && m.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the lost waiter did not queue (" + m + ")";
        }
        rejecting.reject = true;
        String unlock;
        try {
            m.unlock();
            unlock = "returned";
        } catch (Throwable t) {
            unlock = "threw " + t; // the unpark's error propagates: the lost thread was chosen and is lost
        }
        System.out.println("unlock waking the lost waiter " + unlock + "; " + m);
        if (!m.tryLock()) {
            return "FAIL: setup: the lock is not free after the unlock (" + m + ")";
        }
        CompletableFuture<String> waiterGot = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            m.lock();
            waiterGot.complete("acquired");
            m.unlock();
        });
        waiter.setDaemon(true);
        waiter.start();
        if (!until(() -> parked(waiter) && m.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the later waiter did not queue (" + m + ")";
        }
        m.unlock(); // the lock is free: the later waiter must be woken
        String got;
        try {
            got = waiterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            got = "nothing: still " + waiter.getState() + " " + WAIT_MS + " ms after the unlock, the mutex " + m;
        }
        System.out.println("later waiter: " + got);
        return got.equals("acquired") ? "OK"
                : "FAIL: after an unlock whose woken waiter's unpark threw, a waiter that queued later got " + got
                        + ": no unlock wakes a waiter any more (Mutex javadoc: unlock \"Releases the lock, waking a"
                        + " waiter if there is one and nobody else is about to take the lock\"; the lost thread is not"
                        + " about to take it)";
    }
}
