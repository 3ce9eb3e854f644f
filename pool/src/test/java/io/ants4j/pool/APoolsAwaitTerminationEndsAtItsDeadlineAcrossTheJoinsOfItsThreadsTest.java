package io.ants4j.pool;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A pool's timed wait for termination has one deadline for both its phases, the wait for the tasks and the joins of
 * the pool's threads: on a {@code Pool} of one whose factory's threads linger after their worker has ended, a task
 * runs until about half the timeout T of a released pool's {@code awaitTermination(T)} has passed; then the task
 * and its worker end and the thread lingers. The wait returns {@code false} before the task's end plus T, which a
 * join given the whole timeout again cannot do: the bound moves with the task's end as the machine delays it, so
 * neither a slow machine nor a fast one makes the test fail on the real code (its margin is about T/2).
 *
 * <p>Contract: {@code WorkerPool.awaitTermination}: it returns true once the pool has terminated and every thread of
 * the pool has ended, "false if the timeout elapsed before termination". Coverage review 16, mutant PA-J
 * ({@code PoolCore.awaitTermination} joining the threads against a new deadline of the whole timeout). A matter of
 * durations on the real clock: under Fray a timed {@code Thread.join}, which the second phase is, overshot a
 * 100 ms deadline by 4 to 7 s of virtual time, so no Fray test can measure it.
 */
class APoolsAwaitTerminationEndsAtItsDeadlineAcrossTheJoinsOfItsThreadsTest {
    private static final long T = 1_000;

    @Test
    void theJoinsGetOnlyTheTimeLeft() throws InterruptedException {
        CountDownLatch linger = new CountDownLatch(1);
        ThreadFactory lingering = r -> Thread.ofPlatform().unstarted(() -> {
            r.run();
            try {
                linger.await(10, SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Pool pool = Pool.newPool(1, PoolOptions.builder().threadFactory(lingering).disablePurge(true).build());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        pool.execute(() -> {
            started.countDown();
            try {
                end.await(10, SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(started.await(10, SECONDS), "the task never started");
        pool.release();
        CountDownLatch never = new CountDownLatch(1);
        AtomicLong endedAt = new AtomicLong();
        Thread ender = Thread.ofPlatform().start(() -> {
            try {
                never.await(T / 2, MILLISECONDS); // half the timeout passes
            } catch (InterruptedException e) {
                return;
            }
            endedAt.set(System.nanoTime());
            end.countDown();
        });
        try {
            long before = System.nanoTime();
            boolean terminated = pool.awaitTermination(T, MILLISECONDS);
            long returnedAt = System.nanoTime();
            assertFalse(terminated, "awaitTermination returned true while a thread of the pool was alive");
            long ended = endedAt.get(); // 0: the task outlived the wait, which then ended in its first phase
            long bound = ended + MILLISECONDS.toNanos(T);
            assertTrue(ended == 0 || returnedAt - bound < 0, () -> "awaitTermination(" + T + " ms) returned "
                    + MILLISECONDS.convert(returnedAt - before, NANOSECONDS) + " ms after its call, the task ended "
                    + MILLISECONDS.convert(ended - before, NANOSECONDS) + " ms after it");
        } finally {
            end.countDown();
            linger.countDown();
            ender.join(10_000);
        }
        assertTrue(pool.awaitTermination(10, SECONDS), pool::toString);
    }
}
