package io.ants4j.primitives;

import java.lang.reflect.Constructor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Run in a JVM of its own ({@link UnparkFailureTest}), with {@code --add-opens java.base/java.lang}: a
 * waiter runs on a virtual thread whose scheduler rejects its continuation once the test says so, so that
 * {@code LockSupport.unpark} of that thread throws {@link RejectedExecutionException}. That is the only way left
 * on JDK 25 to make an unpark throw; on JDK 21 an {@code OutOfMemoryError} escapes the unpark of a virtual
 * thread, which the CHANGELOG (Unreleased, Fixed) says every primitive was hardened against: "Waking several
 * parked threads (WaitGroup, Cond.broadcast, Mutex, RWMutex, WeightedSemaphore, TaskGroup): if unparking one
 * throws ..., the others are still unparked ... before the error propagates." The thread whose unpark fails is
 * lost (its scheduler never runs it again); what each probe checks is what the primitive does to everyone else.
 * Prints {@code OK} last, or {@code FAIL: } and what went wrong.
 * <ul>
 *   <li>{@code rwmutex-write-unlock}: the write {@code unlock()} that lets in a reader whose unpark throws. The
 *       lost reader's read hold is given back by another thread (the lock is not owned); then the lock is free
 *       and the write {@code tryLock()} must take it.
 *   <li>{@code rwmutex-writer-gives-up}: a writer interrupted while it waits for a reader lets in the reader it
 *       held back, whose unpark throws; once the readers' holds are given back the write {@code tryLock()} must
 *       take the free lock.
 *   <li>{@code taskgroup-interrupted-submitter}: a {@link TaskGroup} submitter handed a slot and interrupted before
 *       it runs again passes the slot on to the next in line, whose unpark throws; {@code go} must still throw
 *       {@code RejectedExecutionException} caused by an {@code InterruptedException} with the interrupt status set
 *       again (TaskGroup javadoc).
 *   <li>{@code cond-over-mutex}: {@link Cond#await(long, TimeUnit)} over a {@link Mutex} whose {@code unlock()}
 *       releases the lock and then throws an {@link Error} (unparking the waiter it woke failed): the Cond javadoc
 *       says "OutOfMemoryError (or any other error) if the wait cannot be set up or continued; the lock is held
 *       again", so the caller's {@code finally} releases its own hold, not another thread's.
 *   <li>{@code singleflight-run}: a {@link SingleFlight#run} function returns while a thread and a future wait
 *       for it and a second thread, pushed last, is lost; the caller that ran the function must get its
 *       {@code Result}, the other thread and the future too.
 *   <li>{@code once-value}: a {@link Once#value} supplier returns while two threads wait for it, the later one
 *       lost; the other waiter must still get the value, and the caller that ran the supplier too.
 *   <li>{@code rwmutex-interrupted-writer-keeps-interrupt}: a writer interrupted in {@code lockInterruptibly} while
 *       it waits for a reader lets in the reader it held back, whose unpark throws: whatever {@code lockInterruptibly}
 *       then throws, the interrupt it consumed must not be lost (as {@code TaskGroup.go} keeps it, CHANGELOG).
 *   <li>{@code semaphore-interrupted-head-keeps-interrupt}: the same for {@link WeightedSemaphore#acquire}: an
 *       interrupted head waiter leaves and grants the waiter behind it, whose unpark throws.
 *   <li>{@code cond-over-mutex-runtime-exception}: {@link Cond#await(long, TimeUnit)} over a {@link Mutex} whose
 *       {@code unlock()} releases the lock and then throws a {@code RuntimeException} (the unpark's
 *       {@code RejectedExecutionException}, the stand-in every other probe uses): the lock must be held again.
 * </ul>
 */
final class UnparkFailureProbe {
    private static final long WAIT_MS = 5_000;

    private UnparkFailureProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "rwmutex-write-unlock" -> rwMutexWriteUnlock();
            case "rwmutex-writer-gives-up" -> rwMutexWriterGivesUp();
            case "once-value" -> onceValue();
            case "singleflight-run" -> singleFlightRun();
            case "cond-over-mutex" -> condOverMutex(true);
            case "cond-over-mutex-runtime-exception" -> condOverMutex(false);
            case "rwmutex-interrupted-writer-keeps-interrupt" -> rwMutexInterruptedWriterKeepsInterrupt();
            case "semaphore-interrupted-head-keeps-interrupt" -> semaphoreInterruptedHeadKeepsInterrupt();
            case "cond-over-reentrant-lock" -> condOverReentrantLock();
            case "cond-over-jdk-write-lock" -> condOverJdkWriteLock();
            case "cond-over-rwmutex-write-view" -> condOverRwMutexWriteView();
            case "taskgroup-interrupted-submitter" -> taskGroupInterruptedSubmitter();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    /** A scheduler for virtual threads that runs each continuation on a new platform thread until told to reject. */
    static final class RejectingScheduler implements Executor {
        volatile boolean reject;
        /** Throw an Error rather than a RejectedExecutionException: as JDK 21's OutOfMemoryError, it escapes the unpark. */
        volatile boolean error;

        @Override
        public void execute(Runnable continuation) {
            if (reject) {
                if (error) {
                    throw new InternalError("injected: the virtual thread's scheduler fails");
                }
                throw new RejectedExecutionException("injected: the virtual thread's scheduler rejects it");
            }
            Thread carrier = new Thread(continuation, "carrier");
            carrier.setDaemon(true);
            carrier.start();
        }
    }

    /** A scheduler for virtual threads that keeps the continuations submitted while {@code hold} is set. */
    static final class HoldingScheduler implements Executor {
        volatile boolean hold;
        final java.util.concurrent.LinkedBlockingQueue<Runnable> held = new java.util.concurrent.LinkedBlockingQueue<>();

        @Override
        public void execute(Runnable continuation) {
            if (hold) {
                held.add(continuation);
                return;
            }
            Thread carrier = new Thread(continuation, "carrier");
            carrier.setDaemon(true);
            carrier.start();
        }

        /** Runs the continuations held, on new carriers, and stops holding. */
        void runHeld() {
            hold = false;
            for (Runnable r; (r = held.poll()) != null;) {
                Thread carrier = new Thread(r, "carrier");
                carrier.setDaemon(true);
                carrier.start();
            }
        }
    }

    /** Starts {@code body} on a virtual thread scheduled by {@code scheduler} (JDK-internal builder). */
    static Thread startVirtual(Executor scheduler, Runnable body) throws Exception {
        Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
        Constructor<?> withScheduler = builder.getDeclaredConstructor(Executor.class);
        withScheduler.setAccessible(true);
        Thread.Builder.OfVirtual virtual = (Thread.Builder.OfVirtual) withScheduler.newInstance(scheduler);
        return virtual.name("lost-waiter").start(body);
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

    static boolean parked(Thread t) {
        return t.getState() == Thread.State.WAITING;
    }

    /** Runs {@code call} on a daemon thread; its result, or {@code null} if it has not returned within WAIT_MS. */
    static <T> T within(Supplier<T> call) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(call.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        try {
            return result.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            return null;
        }
    }

    private static String rwMutexWriteUnlock() throws Exception {
        RWMutex rw = new RWMutex();
        RejectingScheduler scheduler = new RejectingScheduler();
        rw.writeLock().lock();
        Thread lost = startVirtual(scheduler, () -> rw.readLock().lock());
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the reader did not park behind the writer";
        }
        scheduler.reject = true;
        String unlock;
        try {
            rw.writeLock().unlock();
            unlock = "returned";
        } catch (RejectedExecutionException expected) {
            unlock = "threw " + expected.getMessage(); // the error propagates after the others are woken
        }
        System.out.println("write unlock " + unlock + "; " + rw);
        rw.readLock().unlock(); // the lost reader's hold, given back by another thread: the lock is not owned
        System.out.println("after the lost reader's hold is given back: " + rw + ", readers=" + rw.readers());
        Boolean taken = within(() -> rw.writeLock().tryLock());
        if (taken == null) {
            return "FAIL: writeLock().tryLock() on a free RWMutex (" + rw + ") did not return within " + WAIT_MS
                    + " ms: the write unlock whose reader's unpark threw left the writers' inner Mutex held";
        }
        return taken ? "OK" : "FAIL: writeLock().tryLock() on a free RWMutex returned false";
    }

    /**
     * This thread holds a read lock of {@code rw}; a writer waits for it in {@code lockInterruptibly}, a virtual
     * reader (whose unpark throws) parks behind the writer, and the writer is interrupted: it gives up and lets
     * that reader in. Returns the writer's outcome ({@code OK}: InterruptedException; else what it did, with its
     * interrupt status), or {@code FAIL: setup...}.
     */
    private static String interruptAWriterWithALostReaderBehindIt(RWMutex rw) throws Exception {
        RejectingScheduler scheduler = new RejectingScheduler();
        rw.readLock().lock(); // held by this thread: the writer waits for it
        CompletableFuture<String> writerOutcome = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try {
                rw.writeLock().lockInterruptibly();
                writerOutcome.complete("acquired, interrupted=" + Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                writerOutcome.complete("OK");
            } catch (Throwable t) {
                writerOutcome.complete("threw " + t + ", interrupted=" + Thread.currentThread().isInterrupted());
            }
        });
        writer.setDaemon(true);
        writer.start();
        if (!until(() -> rw.toString().endsWith("writer pending]") && parked(writer))) {
            return "FAIL: setup: the writer did not wait for the reader";
        }
        Thread lost = startVirtual(scheduler, () -> rw.readLock().lock());
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the second reader did not park behind the waiting writer";
        }
        scheduler.reject = true;
        writer.interrupt();
        String outcome = writerOutcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
        System.out.println("interrupted writer: " + outcome + "; " + rw);
        return outcome;
    }

    private static String rwMutexWriterGivesUp() throws Exception {
        RWMutex rw = new RWMutex();
        String outcome = interruptAWriterWithALostReaderBehindIt(rw);
        if (outcome.startsWith("FAIL")) {
            return outcome;
        }
        rw.readLock().unlock(); // this thread's hold
        rw.readLock().unlock(); // the lost reader's hold, let in by the writer that gave up
        System.out.println("after both read holds are given back: " + rw + ", readers=" + rw.readers());
        Boolean taken = within(() -> rw.writeLock().tryLock());
        if (taken == null) {
            return "FAIL: writeLock().tryLock() on a free RWMutex (" + rw + ") did not return within " + WAIT_MS
                    + " ms: the writer that gave up, whose held-back reader's unpark threw, left the writers' inner"
                    + " Mutex held";
        }
        return taken ? "OK" : "FAIL: writeLock().tryLock() on a free RWMutex returned false";
    }

    private static String taskGroupInterruptedSubmitter() throws Exception {
        TaskGroup<String> group = TaskGroup.create(1);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        group.go(() -> {
            running.countDown();
            finish.await();
            return "first";
        });
        if (!running.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "FAIL: setup: the first task did not start";
        }
        HoldingScheduler holding = new HoldingScheduler();
        CompletableFuture<String> submitterOutcome = new CompletableFuture<>();
        Thread submitter = startVirtual(holding, () -> {
            try {
                group.go(() -> "second");
                submitterOutcome.complete("go returned, interrupted=" + Thread.currentThread().isInterrupted());
            } catch (Throwable t) {
                submitterOutcome.complete("go threw " + t + " caused by " + t.getCause()
                        + ", interrupted=" + Thread.currentThread().isInterrupted());
            }
        });
        if (!until(() -> parked(submitter))) {
            return "FAIL: setup: the submitter did not wait";
        }
        RejectingScheduler rejecting = new RejectingScheduler();
        Thread lost = startVirtual(rejecting, () -> group.go(() -> "third"));
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the second submitter did not wait";
        }
        holding.hold = true;
        rejecting.reject = true;
        finish.countDown(); // the first task returns: its slot is handed to the submitter, whose run is held
        if (!until(() -> !holding.held.isEmpty())) {
            return "FAIL: setup: the submitter was not handed the slot";
        }
        submitter.interrupt(); // before it runs again: it must be rejected and pass the slot on
        holding.runHeld();
        String outcome = submitterOutcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
        System.out.println("interrupted submitter: " + outcome);
        // The exception may be the unpark's (an error propagates once the others are woken); the interrupt
        // status must be set again whatever is thrown.
        boolean rejected = outcome.startsWith("go threw java.util.concurrent.RejectedExecutionException");
        return rejected && outcome.endsWith("interrupted=true") ? "OK"
                : "FAIL: an interrupted submitter handed a slot must be rejected with its interrupt status set again"
                        + " (TaskGroup.go javadoc); got: " + outcome;
    }

    private static String condOverMutex(boolean error) throws Exception {
        Mutex mutex = new Mutex();
        return condOver(mutex, mutex::isLocked, () -> mutex.toString().endsWith("waiters=1]"), error);
    }

    private static String condOverJdkWriteLock() throws Exception {
        java.util.concurrent.locks.ReentrantReadWriteLock rwl = new java.util.concurrent.locks.ReentrantReadWriteLock();
        return condOver(rwl.writeLock(), rwl::isWriteLockedByCurrentThread, () -> rwl.getQueueLength() == 1, true);
    }

    private static String condOverRwMutexWriteView() throws Exception {
        RWMutex rw = new RWMutex();
        return condOver(rw.writeLock(), () -> true, () -> true, true);
    }

    private static String condOverReentrantLock() throws Exception {
        java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        return condOver(lock, lock::isHeldByCurrentThread, () -> lock.getQueueLength() == 1, true);
    }

    /**
     * A Cond over {@code mutex}, whose unlock in await releases it and then fails to wake the virtual thread
     * queued on it (with an Error if {@code error}, else the scheduler's RejectedExecutionException): await must
     * throw with the lock held again ({@code heldHere}), and no other thread get it.
     */
    private static String condOver(java.util.concurrent.locks.Lock mutex, java.util.function.BooleanSupplier heldHere,
            java.util.function.BooleanSupplier oneQueued, boolean error) throws Exception {
        Cond cond = new Cond(mutex);
        RejectingScheduler scheduler = new RejectingScheduler();
        scheduler.error = error;
        mutex.lock();
        Thread lost = startVirtual(scheduler, mutex::lock);
        if (!until(() -> parked(lost) && oneQueued.getAsBoolean())) {
            return "FAIL: setup: the waiter did not queue on the lock (" + mutex + ")";
        }
        scheduler.reject = true;
        String outcome;
        try {
            outcome = "returned " + cond.await(100, TimeUnit.MILLISECONDS);
        } catch (Throwable t) {
            outcome = "threw " + t;
        }
        boolean held = heldHere.getAsBoolean();
        System.out.println("Cond.await: " + outcome + "; then " + mutex);
        // The caller now unlocks in its finally: if the await left the lock free, another thread may hold it by then.
        CountDownLatch otherHolds = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            if (mutex.tryLock()) {
                otherHolds.countDown();
            }
        });
        other.setDaemon(true);
        other.start();
        boolean otherGotIt = otherHolds.await(1, TimeUnit.SECONDS);
        if (held && !otherGotIt) {
            return "OK";
        }
        return "FAIL: Cond.await " + outcome + " with the lock not held again (" + mutex + " right after)"
                + (otherGotIt ? "; another thread then took the mutex while this thread, inside its critical"
                        + " section, still expects to hold it (its finally unlock() would release that thread's hold)"
                        : "");
    }

    private static String onceValue() throws Exception {
        RejectingScheduler scheduler = new RejectingScheduler();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Supplier<String> value = Once.value(() -> {
            running.countDown();
            try {
                finish.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return "value";
        });
        CompletableFuture<String> firstCaller = new CompletableFuture<>();
        Thread first = new Thread(() -> {
            try {
                firstCaller.complete("returned " + value.get());
            } catch (Throwable t) {
                firstCaller.complete("threw " + t);
            }
        });
        first.setDaemon(true);
        first.start();
        if (!running.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "FAIL: setup: the supplier did not start";
        }
        CompletableFuture<String> waiterGot = new CompletableFuture<>();
        Thread waiter = new Thread(() -> waiterGot.complete(value.get()));
        waiter.setDaemon(true);
        waiter.start();
        if (!until(() -> parked(waiter))) {
            return "FAIL: setup: the waiter did not park";
        }
        Thread lost = startVirtual(scheduler, value::get); // pushed last: the first to be unparked
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the second waiter did not park";
        }
        scheduler.reject = true;
        finish.countDown();
        String firstOutcome = firstCaller.get(WAIT_MS, TimeUnit.MILLISECONDS);
        System.out.println("the caller that ran the supplier: " + firstOutcome);
        String got;
        try {
            got = waiterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            return "FAIL: a caller of Once.value waiting for the supplier was never woken after it returned ("
                    + value + ", waiter " + waiter.getState() + "); the caller that ran it " + firstOutcome;
        }
        if (!"value".equals(got) || !"returned value".equals(firstOutcome)) {
            return "FAIL: waiter got " + got + ", the caller that ran the supplier " + firstOutcome;
        }
        return "OK";
    }

    private static String singleFlightRun() throws Exception {
        RejectingScheduler scheduler = new RejectingScheduler();
        SingleFlight<String, String> flight = new SingleFlight<>();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CompletableFuture<String> runnerGot = new CompletableFuture<>();
        Thread runner = new Thread(() -> {
            try {
                runnerGot.complete("returned " + flight.run("key", () -> {
                    running.countDown();
                    finish.await();
                    return "value";
                }));
            } catch (Throwable t) {
                runnerGot.complete("threw " + t);
            }
        });
        runner.setDaemon(true);
        runner.start();
        if (!running.await(WAIT_MS, TimeUnit.MILLISECONDS)) {
            return "FAIL: setup: the function did not start";
        }
        CompletableFuture<SingleFlight.Result<String>> joined = flight.submit("key", () -> "not called");
        CompletableFuture<String> waiterGot = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                waiterGot.complete("returned " + flight.run("key", () -> "not called"));
            } catch (Throwable t) {
                waiterGot.complete("threw " + t);
            }
        });
        waiter.setDaemon(true);
        waiter.start();
        if (!until(() -> parked(waiter))) {
            return "FAIL: setup: the waiter did not park";
        }
        Thread lost = startVirtual(scheduler, () -> {
            try {
                flight.run("key", () -> "not called");
            } catch (Exception e) {
                // lost: never woken
            }
        });
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the lost waiter did not park";
        }
        scheduler.reject = true;
        finish.countDown();
        String runnerOutcome;
        String waiterOutcome;
        String joinedOutcome;
        try {
            runnerOutcome = runnerGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            runnerOutcome = "nothing (hung)";
        }
        try {
            waiterOutcome = waiterGot.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            waiterOutcome = "nothing (never woken)";
        }
        try {
            joinedOutcome = "returned " + joined.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException hung) {
            joinedOutcome = "nothing (never completed)";
        } catch (java.util.concurrent.ExecutionException e) {
            joinedOutcome = "threw " + e.getCause();
        }
        String expected = "returned " + new SingleFlight.Result<>("value", true);
        if (!expected.equals(runnerOutcome) || !expected.equals(waiterOutcome) || !expected.equals(joinedOutcome)) {
            return "FAIL: the function returned \"value\"; the caller that ran it " + runnerOutcome
                    + "; the waiting thread " + waiterOutcome + "; the joined future " + joinedOutcome;
        }
        return "OK";
    }

    private static String rwMutexInterruptedWriterKeepsInterrupt() throws Exception {
        RWMutex rw = new RWMutex();
        String outcome = interruptAWriterWithALostReaderBehindIt(rw);
        if (outcome.startsWith("FAIL")) {
            return outcome;
        }
        return outcome.equals("OK") || outcome.endsWith("interrupted=true") ? "OK"
                : "FAIL: writeLock().lockInterruptibly(), interrupted while waiting for a reader, " + outcome
                        + ": the interrupt it consumed is lost (Lock.lockInterruptibly: an interrupted acquisition"
                        + " throws InterruptedException; TaskGroup.go keeps the interrupt in the same case)";
    }

    private static String semaphoreInterruptedHeadKeepsInterrupt() throws Exception {
        WeightedSemaphore sem = new WeightedSemaphore(2);
        RejectingScheduler scheduler = new RejectingScheduler();
        sem.acquire(2); // all permits held here
        sem.release(1); // one free: the head (wants 2) waits, the one behind it (wants 1) waits behind the head
        CompletableFuture<String> headOutcome = new CompletableFuture<>();
        Thread head = new Thread(() -> {
            try {
                sem.acquire(2);
                headOutcome.complete("acquired, interrupted=" + Thread.currentThread().isInterrupted());
            } catch (InterruptedException e) {
                headOutcome.complete("OK");
            } catch (Throwable t) {
                headOutcome.complete("threw " + t + ", interrupted=" + Thread.currentThread().isInterrupted());
            }
        });
        head.setDaemon(true);
        head.start();
        if (!until(() -> parked(head))) {
            return "FAIL: setup: the head waiter did not park";
        }
        Thread lost = startVirtual(scheduler, () -> {
            try {
                sem.acquire(1);
            } catch (InterruptedException e) {
                // not interrupted
            }
        });
        if (!until(() -> parked(lost))) {
            return "FAIL: setup: the second waiter did not park behind the head";
        }
        scheduler.reject = true;
        head.interrupt(); // the head leaves: the one behind it fits the free permit and is granted it
        String outcome = headOutcome.get(WAIT_MS, TimeUnit.MILLISECONDS);
        System.out.println("interrupted head: " + outcome + "; " + sem);
        return outcome.equals("OK") || outcome.endsWith("interrupted=true") ? "OK"
                : "FAIL: WeightedSemaphore.acquire, interrupted while waiting, " + outcome
                        + ": the interrupt it consumed is lost (its javadoc: InterruptedException if the thread is"
                        + " interrupted while waiting; TaskGroup.go keeps the interrupt in the same case)";
    }
}
