package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * Whatever a task throws reaches the panic handler, or the logger (README: "Whatever a task throws, Errors
 * included, goes to PoolOptions.panicHandler, or is logged at ERROR"; Pool: "whatever a task throws goes to the
 * panic handler, or is logged at ERROR"). {@code PoolCore.runPayload} counts the failure before it reports it,
 * in one {@code try}: when the counter cannot allocate its cell ({@link LongAdder#increment()} allocates a
 * {@code Cell} under contention, so it can throw {@link OutOfMemoryError}, the case the code's own comment names:
 * "a counter could not allocate its cell: the statistics lose one task"), the report is skipped as well and the
 * task's throwable vanishes: neither the handler nor the logger ever sees it. Statistics may lose a count; the
 * failure report may not be lost with it.
 *
 * <p>The counter's allocation failure is injected through reflection, as {@link WorkerExitOutOfMemoryTest} injects
 * the live set's.
 */
class TaskFailureReportedWhenItsCounterCannotAllocateTest {

    /** A counter whose next {@code increment} fails as a {@code LongAdder} out of memory for its cell does. */
    private static final class FailingCounter extends LongAdder {
        private static final long serialVersionUID = 1L;
        final AtomicBoolean armed = new AtomicBoolean(true);

        @Override
        public void increment() {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("Java heap space (injected: LongAdder cell for the failed count)");
            }
            super.increment();
        }
    }

    @Test
    void aTaskFailureReachesThePanicHandlerWhenCountingItRunsOutOfMemory() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        PoolCore core = new PoolCore("failed-counter", 1, PoolOptions.builder().disablePurge(true)
                .panicHandler(handled::add).threadFactory(Thread.ofPlatform().daemon(true).factory()).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
        Field failed = PoolCore.class.getDeclaredField("failed");
        failed.setAccessible(true);
        failed.set(core, new FailingCounter());

        IllegalStateException failure = new IllegalStateException("the task's failure");
        assertTrue(core.dispatch((Runnable) () -> {
            throw failure;
        }, false, 0L));
        CountDownLatch next = new CountDownLatch(1);
        assertTrue(core.dispatch((Runnable) next::countDown, false, 0L)); // one worker: after the failed task
        await(next);

        core.release();
        boolean terminated = core.awaitTermination(TimeUnit.SECONDS.toNanos(10));
        assertAll(
                () -> assertEquals(List.of(failure), handled, "the panic handler did not get the task's failure"
                        + " (counting it threw the injected OutOfMemoryError)"),
                () -> assertTrue(terminated, "not terminated: " + core));
    }
}
