package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 44, passing control. TaskGroup.java (class javadoc, Rounds): "await and close called from one of the
 * group's own tasks wait for that task too: await until the thread is interrupted (a cancellation of the group
 * interrupts the task: await then throws InterruptedException)"; and (Failure and cancellation) "The interrupt with
 * which a cancellation ... stops a running task is cleared when the task returns, so it does not reach what the
 * executor's thread runs next". On a one-thread executor: the inner await ends by InterruptedException, the outer
 * await throws CancellationException, and the executor's next task finds no interrupt.
 */
class AnAwaitFromInsideAGroupsTaskEndsOnCancellationTest {

    @Test
    void anInnerAwaitEndsByInterruptAndTheInterruptDoesNotReachTheExecutorsNextTask() throws Exception {
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            TaskGroup<String> group = TaskGroup.create(-1, one);
            CountDownLatch awaiting = new CountDownLatch(1);
            CompletableFuture<Throwable> inner = new CompletableFuture<>();
            Future<String> f = group.go(() -> {
                awaiting.countDown();
                try {
                    group.await();
                    inner.complete(null);
                } catch (Throwable t) {
                    inner.complete(t);
                }
                return "returned";
            });
            assertTrue(awaiting.await(20, TimeUnit.SECONDS));
            group.cancel();
            Throwable t = Threads.get(inner);
            assertTrue(t instanceof InterruptedException, "the inner await ended with " + t);
            assertThrows(CancellationException.class, group::await);
            assertTrue(f.isCancelled());
            Future<Boolean> next = one.submit(() -> Thread.currentThread().isInterrupted());
            assertFalse(next.get(20, TimeUnit.SECONDS), "the cancellation's interrupt reached the executor's next task");
        } finally {
            one.shutdownNow();
        }
    }
}
