package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.ants4j.primitives.UnparkFailureProbe.RejectingScheduler;

/**
 * More probes of an unpark that throws, run as {@link UnparkFailureProbe}'s (a JVM of their own, with
 * {@code --add-opens java.base/java.lang}), by {@link UnparkFailureTest}. Prints {@code OK} last, or
 * {@code FAIL: } and what went wrong.
 * <ul>
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
final class UnparkFailureMoreProbe {
    private static final long WAIT_MS = 5_000;

    private UnparkFailureMoreProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result;
        try {
            result = switch (args[0]) {
                case "rwmutex-interrupted-writer-keeps-interrupt" -> rwMutexInterruptedWriterKeepsInterrupt();
                case "semaphore-interrupted-head-keeps-interrupt" -> semaphoreInterruptedHeadKeepsInterrupt();
                case "cond-over-mutex-runtime-exception" -> condOverMutexRuntimeException();
                default -> "FAIL: unknown probe " + args[0];
            };
        } catch (Throwable t) {
            result = "FAIL: the probe threw " + t;
        }
        System.out.println(result);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    private static String rwMutexInterruptedWriterKeepsInterrupt() throws Exception {
        RWMutex rw = new RWMutex();
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

    private static String condOverMutexRuntimeException() throws Exception {
        Mutex mutex = new Mutex();
        Cond cond = new Cond(mutex);
        RejectingScheduler scheduler = new RejectingScheduler(); // error stays false: RejectedExecutionException
        mutex.lock();
        Thread lost = startVirtual(scheduler, mutex::lock);
        if (!until(() -> parked(lost) && mutex.toString().endsWith("waiters=1]"))) {
            return "FAIL: setup: the waiter did not queue on the lock (" + mutex + ")";
        }
        scheduler.reject = true;
        String outcome;
        try {
            outcome = "returned " + cond.await(100, TimeUnit.MILLISECONDS);
        } catch (Throwable t) {
            outcome = "threw " + t;
        }
        System.out.println("Cond.await: " + outcome + "; then " + mutex);
        CountDownLatch otherHolds = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            if (mutex.tryLock()) {
                otherHolds.countDown();
            }
        });
        other.setDaemon(true);
        other.start();
        boolean otherGotIt = otherHolds.await(1, TimeUnit.SECONDS);
        if (mutex.isLocked() && !otherGotIt) {
            return "OK";
        }
        return "FAIL: Cond.await " + outcome + " with the Mutex not held again (" + mutex + " right after"
                + (otherGotIt ? "; another thread then took it, and the caller's finally unlock() would release that"
                        + " thread's hold)" : ")")
                + "; Cond.await javadoc: what unlock throws leaves the caller's \"holds unchanged\", and an error"
                + " thrown after it released the lock \"is thrown with the lock held again\"";
    }

}
