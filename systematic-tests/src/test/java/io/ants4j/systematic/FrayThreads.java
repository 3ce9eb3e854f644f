package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Helpers of the Fray tests: platform threads only (Fray hangs on virtual threads), and every wait
 * bounded. The tests run on Fray's virtual clock ({@code systemTimeDelegateType = MOCK}): every reading of
 * the clock, and every scheduling step, advances it by 0.1 ms, and when no thread can run it jumps to the
 * nearest deadline. So a bound is a deadlock detector, not a race against a real clock: a schedule in which
 * a wake-up is lost ends in the timeout, and the test says which thread was stuck. It costs about ten
 * scheduling steps per virtual millisecond, hence a short bound.
 */
final class FrayThreads {
    /** The bound of every wait of one thread for another, in virtual seconds (about 100,000 steps). */
    static final long TIMEOUT_SECONDS = 10;
    /** The bound of every polling loop: a loop that yields this often without success fails the schedule. */
    private static final int MAX_YIELDS = 100_000;

    private FrayThreads() {
    }

    /** A body that may throw: an assertion that fails in it fails the schedule (Fray reports uncaught throwables). */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    /** Starts {@code body} in a new platform thread named {@code name}. */
    static Thread start(String name, Body body) {
        return Thread.ofPlatform().name(name).start(() -> {
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(name + " threw", e);
            }
        });
    }

    /** Waits for each thread to end, failing if one has not ended within {@link #TIMEOUT_SECONDS}. */
    static void join(Thread... threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertFalse(t.isAlive(), () -> t.getName() + " did not end: stuck");
        }
    }

    /** Yields until {@code t} is parked (waiting, with or without a timeout). */
    static void untilParked(Thread t) {
        until(t.getName() + " parks", () -> {
            Thread.State s = t.getState();
            return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        });
    }

    /** Yields until {@code condition} holds; each yield is a point where Fray may run another thread. */
    static void until(String what, BooleanSupplier condition) {
        for (int i = 0; !condition.getAsBoolean(); i++) {
            if (i == MAX_YIELDS) {
                fail("gave up waiting until " + what);
            }
            Thread.yield();
        }
    }

    /**
     * An uninterruptible wait keeps an interrupt: two threads block in {@code await}, in turn; the first is
     * interrupted while it waits, racing {@code release}. Both return normally once released, the
     * interrupted one with its interrupt status set, the other one and the calling thread without.
     */
    static void interruptKeptThroughAnUninterruptibleWait(Body await, Body release) throws Exception {
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread interrupted = start("interrupted", () -> {
            await.run();
            until("the interrupt is sent", interruptSent::get);
            assertTrue(Thread.interrupted(), "returned from an uninterruptible wait without its interrupt status");
        });
        untilParked(interrupted);
        Thread other = start("not interrupted", () -> {
            await.run();
            assertFalse(Thread.currentThread().isInterrupted(), "a thread nobody interrupted has its status set");
        });
        untilParked(other);
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        release.run();
        join(interrupter, interrupted, other);
        assertFalse(Thread.currentThread().isInterrupted(), "the releasing thread got an interrupt");
    }

    /** Platform daemon workers, each added to {@code workers} as it is made. */
    static ThreadFactory recording(Queue<Thread> workers) {
        return task -> {
            Thread t = Thread.ofPlatform().daemon(true).unstarted(task);
            workers.add(t);
            return t;
        };
    }

    /** Waits until {@code n} tasks started and every worker but those running a held task is parked. */
    static void untilEveryWorkerButTheHoldersIsParked(Queue<Thread> workers, Set<Thread> holders, int n) {
        until(n + " tasks started and every other worker parked", () -> holders.size() + workers.stream()
                .filter(w -> !holders.contains(w))
                .filter(w -> w.getState() == Thread.State.WAITING || w.getState() == Thread.State.TIMED_WAITING)
                .count() == workers.size());
    }
}
