package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Bounded waits for the pool tests: every wait has a deadline, none uses sleep for ordering. */
final class TestSupport {
    static final Duration WAIT = Duration.ofSeconds(10);

    private TestSupport() {
    }

    /** The task counters of {@code s}, with the blocked ones, which depend on timing, set to zero. */
    static PoolStats tasks(PoolStats s) {
        return tasks(s.submitted(), s.completed(), s.failed(), s.rejected());
    }

    /** Task counters with no blocked submission. */
    static PoolStats tasks(long submitted, long completed, long failed, long rejected) {
        return new PoolStats(submitted, completed, failed, rejected, 0L, Duration.ZERO);
    }

    /** Polls {@code condition} until it holds or {@link #WAIT} passes. */
    static void eventually(String what, BooleanSupplier condition) {
        eventually(what, condition, () -> "");
    }

    static void eventually(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out waiting for: " + what + " " + state.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS),
                    "latch still at " + latch.getCount() + " after " + WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        }
    }

    /**
     * Submits {@code n} tasks that block until the latch returned opens, and waits until all of them run: a
     * pool whose workers are all busy.
     */
    static CountDownLatch occupy(Consumer<Runnable> submit, int n) {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            submit.accept(() -> {
                running.countDown();
                block(go);
            });
        }
        await(running);
        return go;
    }

    /** Awaits a latch in a task without checked exceptions (bounded). */
    static void block(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("test latch never opened");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A thread factory that records every thread it makes. */
    static final class RecordingFactory implements ThreadFactory {
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final ThreadFactory delegate;

        RecordingFactory(ThreadFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = delegate.newThread(r);
            threads.add(t);
            return t;
        }
    }

    /**
     * Whether the method that calls this one was called by {@code PoolCore.dispatch}: a submitter's {@code Thread}
     * subclass, from its {@code isInterrupted()}, learns so that dispatch is about to make its waiter.
     */
    static boolean calledByDispatch() {
        return StackWalker.getInstance()
                .walk(s -> s.skip(2).findFirst())
                .map(f -> f.getClassName().equals(PoolCore.class.getName()) && f.getMethodName().equals("dispatch"))
                .orElse(false);
    }

    /** What a {@code releaseTimeout} of a second on {@code pool} from this thread did, for a failure message. */
    static String releaseTimeoutOutcome(WorkerPool pool) {
        try {
            pool.releaseTimeout(Duration.ofSeconds(1));
            return "releaseTimeout from another thread returned";
        } catch (TimeoutException e) {
            return "releaseTimeout from another thread: " + e.getMessage();
        }
    }
}
