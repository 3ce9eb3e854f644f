package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.Once;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link Once}, {@link Once#func} and {@link Once#value}, explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class OnceFrayTest {
    /** The action runs exactly once, and every run() returns only after it returned (and sees its effects). */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void runsOnceAndEveryCallerSeesIt() throws InterruptedException {
        Once once = new Once();
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        FrayThreads.Body caller = () -> {
            once.run(() -> {
                runs.incrementAndGet();
                Thread.yield(); // callers arrive while the action runs
                finished.incrementAndGet();
            });
            assertEquals(1, finished.get(), "run() returned before the action had returned");
            assertTrue(once.isDone());
        };
        join(start("a", caller), start("b", caller), start("c", caller));
        assertEquals(1, runs.get(), "the action ran more than once");
    }

    /**
     * A failing action: its throwable goes to the caller that ran it, the Once is done all the same (not
     * retried), and the callers that waited for it return normally.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aFailedActionIsNotRetried() throws InterruptedException {
        Once once = new Once();
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger thrown = new AtomicInteger();
        FrayThreads.Body caller = () -> {
            try {
                once.run(() -> {
                    runs.incrementAndGet();
                    Thread.yield();
                    throw new IllegalStateException("action failed");
                });
            } catch (IllegalStateException e) {
                assertEquals("action failed", e.getMessage());
                thrown.incrementAndGet();
            }
            assertTrue(once.isDone(), "run() returned before the failed action was done");
        };
        join(start("a", caller), start("b", caller), start("c", caller));
        assertEquals(1, runs.get(), "a failed action was retried");
        assertEquals(1, thrown.get(), "the failure reached a caller that did not run the action");
    }

    /**
     * Once.value: the supplier runs once, every caller gets its value; if it throws, every call throws that
     * same instance and the supplier is not called again. Once.func likewise.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void valueAndFuncRunOnce() throws InterruptedException {
        AtomicInteger computed = new AtomicInteger();
        Supplier<Object> value = Once.value(() -> {
            computed.incrementAndGet();
            Thread.yield();
            return new Object();
        });
        AtomicInteger failed = new AtomicInteger();
        Runnable failing = Once.func(() -> {
            failed.incrementAndGet();
            Thread.yield();
            throw new IllegalStateException("func failed");
        });
        AtomicReference<Object> seen = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        FrayThreads.Body caller = () -> {
            Object v = value.get();
            seen.compareAndSet(null, v);
            assertSame(seen.get(), v, "two callers got different values");
            IllegalStateException e = assertThrows(IllegalStateException.class, failing::run);
            failure.compareAndSet(null, e);
            assertSame(failure.get(), e, "two callers got different throwables");
        };
        join(start("a", caller), start("b", caller));
        assertEquals(1, computed.get());
        assertEquals(1, failed.get());
    }
}
