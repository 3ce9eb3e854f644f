package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.pool.ShutdownNowLoggerFixtures.FailingCloseChannel;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code invokeAny} returns the result of the task that completed normally and cancels the others; an interrupted
 * {@code invokeAll} throws {@link InterruptedException} and cancels the tasks not done (Pool javadoc: "Returns the
 * result of a task that completed normally, and cancels the others"; "if interrupted while waiting, for a worker
 * or for the tasks; the tasks not done are cancelled"; ExecutorService: "Upon normal or exceptional return, tasks
 * that have not completed are cancelled"). Cancelling a running task interrupts its thread, and
 * {@code Thread.interrupt()} can throw (what closing the interruptible channel the task is blocked on throws;
 * ShutdownNowInterruptThrowsTest, where {@code shutdownNow} copes with it). An interrupt that throws neither ends
 * the walk, leaving the tasks after it to run on, nor replaces the call's outcome.
 */
class BulkCallsCancelEveryTaskWhenAnInterruptThrowsTest {

    @Test
    void invokeAnyReturnsTheWinnersResultAndCancelsEveryOtherTask() throws Exception {
        Pool pool = Pool.newPool(3);
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch otherRunning = new CountDownLatch(1);
        CountDownLatch otherInterrupted = new CountDownLatch(1);
        Callable<String> blockedOnTheChannel = () -> {
            channel.blockUntil(release);
            return "channel";
        };
        Callable<String> other = () -> {
            otherRunning.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                otherInterrupted.countDown();
            }
            return "other";
        };
        Callable<String> winner = () -> {
            await(channel.blocked);
            await(otherRunning);
            return "winner";
        };
        AtomicReference<Object> outcome = new AtomicReference<>();
        try {
            outcome.set(pool.invokeAny(List.of(blockedOnTheChannel, other, winner)));
        } catch (Throwable t) {
            outcome.set(t);
        }
        boolean interrupted = otherInterrupted.await(5, TimeUnit.SECONDS);
        release.countDown();
        pool.close();
        assertAll(
                () -> assertEquals("winner", outcome.get(), "invokeAny did not return the result of the task that"
                        + " completed normally"),
                () -> assertTrue(interrupted, "a task still running when invokeAny returned was never cancelled"
                        + " (not interrupted within 5 s)"));
    }

    @Test
    void interruptedInvokeAllThrowsInterruptedExceptionAndCancelsEveryTaskNotDone() throws Exception {
        Pool pool = Pool.newPool(2);
        FailingCloseChannel channel = new FailingCloseChannel();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch otherRunning = new CountDownLatch(1);
        CountDownLatch otherInterrupted = new CountDownLatch(1);
        Callable<String> blockedOnTheChannel = () -> {
            channel.blockUntil(release);
            return "channel";
        };
        Callable<String> other = () -> {
            otherRunning.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                otherInterrupted.countDown();
            }
            return "other";
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                pool.invokeAll(List.of(blockedOnTheChannel, other));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        await(channel.blocked);
        await(otherRunning);
        caller.interrupt(); // invokeAll waits for the tasks: it throws InterruptedException and cancels them
        caller.join(TimeUnit.SECONDS.toMillis(10));
        boolean interrupted = otherInterrupted.await(5, TimeUnit.SECONDS);
        release.countDown();
        pool.close();
        assertAll(
                () -> assertTrue(thrown.get() instanceof InterruptedException, "the interrupted invokeAll threw "
                        + thrown.get() + " instead of InterruptedException"),
                () -> assertTrue(interrupted, "a task not done when invokeAll was interrupted was never cancelled"
                        + " (not interrupted within 5 s)"));
    }
}
