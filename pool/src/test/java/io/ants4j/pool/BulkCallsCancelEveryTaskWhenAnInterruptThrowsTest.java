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

    /**
     * Two tasks until {@link #release}: one blocked on a channel whose close (the interrupt's) throws, the other in
     * an interruptible wait that records its interrupt.
     */
    private static final class Tasks {
        final FailingCloseChannel channel = new FailingCloseChannel();
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch otherRunning = new CountDownLatch(1);
        final CountDownLatch otherInterrupted = new CountDownLatch(1);
        final Callable<String> blockedOnTheChannel = () -> {
            channel.blockUntil(release);
            return "channel";
        };
        final Callable<String> other = () -> {
            otherRunning.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                otherInterrupted.countDown();
            }
            return "other";
        };
    }

    @Test
    void invokeAnyReturnsTheWinnersResultAndCancelsEveryOtherTask() throws Exception {
        Pool pool = Pool.newPool(3);
        Tasks tasks = new Tasks();
        Callable<String> winner = () -> {
            await(tasks.channel.blocked);
            await(tasks.otherRunning);
            return "winner";
        };
        AtomicReference<Object> outcome = new AtomicReference<>();
        try {
            outcome.set(pool.invokeAny(List.of(tasks.blockedOnTheChannel, tasks.other, winner)));
        } catch (Throwable e) {
            outcome.set(e);
        }
        boolean interrupted = tasks.otherInterrupted.await(5, TimeUnit.SECONDS);
        tasks.release.countDown();
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
        Tasks tasks = new Tasks();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread caller = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                pool.invokeAll(List.of(tasks.blockedOnTheChannel, tasks.other));
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        await(tasks.channel.blocked);
        await(tasks.otherRunning);
        caller.interrupt(); // invokeAll waits for the tasks: it throws InterruptedException and cancels them
        caller.join(TimeUnit.SECONDS.toMillis(10));
        boolean interrupted = tasks.otherInterrupted.await(5, TimeUnit.SECONDS);
        tasks.release.countDown();
        pool.close();
        assertAll(
                () -> assertTrue(thrown.get() instanceof InterruptedException, "the interrupted invokeAll threw "
                        + thrown.get() + " instead of InterruptedException"),
                () -> assertTrue(interrupted, "a task not done when invokeAll was interrupted was never cancelled"
                        + " (not interrupted within 5 s)"));
    }
}
