package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The worker's admission (Worker javadoc: "{@code run} goes on only if it turns it from ADMITTED to
 * RUNNING"; PoolCore: "a worker runs only once the pool has admitted it, just before Thread.start(), so it never
 * runs in a thread the factory started, unless it began there after that admission (then the thread is the
 * worker's and the start succeeded)"). The admission checks when a run begins, not in which thread: a factory that
 * also hands the worker it was given to a thread of its own, which runs it after the admission, gets the worker
 * run there, while the pool records, wakes and interrupts the thread the factory returned. That thread's own run
 * then finds the worker RUNNING and ends; the worker parks in the factory's thread, and the unpark of every later
 * hand-off goes to the ended thread: the task handed to it never runs and the pool never terminates.
 *
 * <p>The factory here returns an unstarted thread whose {@code start()} first lets the factory's own thread run the
 * worker (as {@code StartedThreadFactoryTest.GatedThread} orders a run after the admission); a factory that hands
 * the worker to an executor of its own races the same way, less often.
 */
class WorkerInAnotherThreadTest {

    /**
     * An unstarted worker thread whose start first lets {@code elsewhere} run the worker, and waits until that run
     * ends (at most 5 s: a worker that runs there parks for ever), then starts itself.
     */
    static final class HandsOffThread extends Thread {
        private final Thread elsewhere;

        HandsOffThread(Runnable worker) {
            super(worker, "returned-by-factory");
            this.elsewhere = new Thread(worker, "factorys-own-thread");
            this.elsewhere.setDaemon(true);
            setDaemon(true);
        }

        @Override
        public void start() {
            elsewhere.start(); // after the pool's admission
            try {
                elsewhere.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.start(); // succeeds: this thread was not started
        }
    }

    /** The worker runs in the thread the factory returned, never in another thread that runs its runnable. */
    @Test
    void aWorkerRunsOnlyInTheThreadTheFactoryReturned() throws InterruptedException {
        CountDownLatch firstRan = new CountDownLatch(1);
        AtomicReference<Thread> firstRanIn = new AtomicReference<>();
        AtomicReference<HandsOffThread> returned = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory platform = Thread.ofPlatform().daemon(true).factory();
        ThreadFactory factory = r -> {
            if (calls.incrementAndGet() == 1) {
                returned.set(new HandsOffThread(r));
                return returned.get();
            }
            return platform.newThread(r);
        };
        Pool pool = Pool.newPool(1, PoolOptions.builder().disablePurge(true).threadFactory(factory).build());
        pool.execute(() -> {
            firstRanIn.set(Thread.currentThread());
            firstRan.countDown();
        });
        Thread elsewhere = returned.get().elsewhere;
        assertTrue(firstRan.await(10, TimeUnit.SECONDS), "the first task did not run: " + pool);
        eventually("the worker idle after its first task", () -> pool.idle() == 1, pool::toString);
        CountDownLatch secondRan = new CountDownLatch(1);
        pool.execute(secondRan::countDown); // returns normally: the task was handed to the idle worker
        boolean ran = secondRan.await(5, TimeUnit.SECONDS);
        String state = pool + ", returned thread " + returned.get().getState() + ", " + elsewhere.getName() + " "
                + elsewhere.getState();
        pool.release();
        boolean terminated = pool.awaitTermination(5, TimeUnit.SECONDS);
        assertAll(
                () -> assertTrue(firstRanIn.get() == returned.get(), "the first task ran in " + firstRanIn.get()),
                () -> assertTrue(ran, "a task whose execute() returned normally never ran within 5 s: " + state),
                () -> assertTrue(terminated, "the pool did not terminate within 5 s of release(): " + pool + ", "
                        + elsewhere.getName() + " " + elsewhere.getState()));
    }
}
