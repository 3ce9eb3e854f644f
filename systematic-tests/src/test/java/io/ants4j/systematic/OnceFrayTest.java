package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.primitives.Once;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
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

    /**
     * The waiters of {@link Once#func} and {@link Once#value} wait uninterruptibly ("an interrupt is kept, not
     * acted on"): a caller runs the function, which blocks until released; two more callers wait for it, one of
     * them interrupted while it waits (racing the release). Invariants: both waiters return only once the
     * function has returned, with its value (a func's waiters normally), the interrupted one with its interrupt
     * status set, the other one and the releasing thread without.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void funcAndValueWaitersKeepAnInterrupt() throws Exception {
        Object result = new Object();
        waitersKeepAnInterrupt(finished -> {
            Supplier<Object> value = Once.value(() -> {
                finished.run();
                return result;
            });
            return () -> assertSame(result, value.get(), "a caller of Once.value got another value");
        });
        waitersKeepAnInterrupt(finished -> Once.func(finished)::run);
    }

    /**
     * The scenario of {@link #funcAndValueWaitersKeepAnInterrupt}: {@code once} makes the Once.func or
     * Once.value under test, given the function's body, and returns a call of it.
     */
    private static void waitersKeepAnInterrupt(java.util.function.Function<Runnable, FrayThreads.Body> once)
            throws Exception {
        AtomicBoolean entered = new AtomicBoolean();
        AtomicBoolean returned = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        FrayThreads.Body call = once.apply(() -> {
            entered.set(true);
            try {
                release.await(); // untimed: the main thread releases it
            } catch (InterruptedException e) {
                throw new AssertionError("nobody interrupts the caller that runs the function", e);
            }
            returned.set(true);
        });
        Thread runner = start("runner", call);
        until("the runner is in the function", entered::get);
        FrayThreads.interruptKeptThroughAnUninterruptibleWait(() -> {
            call.run();
            assertTrue(returned.get(), "a waiter returned before the function had returned");
        }, release::countDown);
        join(runner);
    }

    /**
     * Calling the runnable of {@link Once#func} (the supplier of {@link Once#value}) from inside its own
     * function "throws IllegalStateException (Go deadlocks)", also while other callers wait for it: two threads
     * call it; the one that runs the function waits until the other is parked waiting, then calls it again,
     * which throws {@code IllegalStateException} at once. The function then returns, and both calls return.
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aRecursiveCallThrowsWhileOthersWait() throws InterruptedException {
        AtomicReference<Runnable> func = new AtomicReference<>();
        func.set(Once.func(() -> recursiveCallThrows(() -> func.get().run())));
        callTwice(() -> func.get().run());
        AtomicReference<Supplier<String>> value = new AtomicReference<>();
        value.set(Once.value(() -> {
            recursiveCallThrows(() -> value.get().get());
            return "v";
        }));
        callTwice(() -> assertEquals("v", value.get().get()));
    }

    /**
     * Calling {@link Once#run} on the same {@code Once} from inside its own action "throws
     * IllegalStateException (Go deadlocks)" (the class javadoc), also while another caller waits parked on it
     * (its node then lies on the state above the running thread): two threads call {@code run}; the one that
     * runs the action waits until the other is parked, then calls {@code run} again, which throws at once. The
     * action then returns, and both calls return, the action run once (coverage review 8, mutant O-R:
     * {@code runOnce} comparing the state itself with the calling thread, not the caller under the waiters'
     * stack, so that the recursive call waited for itself; {@code aRecursiveCallThrowsWhileOthersWait} covers
     * only {@code func} and {@code value}).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aRecursiveRunThrowsWhileOthersWait() throws InterruptedException {
        Once once = new Once();
        AtomicInteger runs = new AtomicInteger();
        Runnable action = () -> {
            runs.incrementAndGet();
            recursiveCallThrows(() -> once.run(() -> runs.addAndGet(100)));
        };
        callTwice(() -> once.run(action));
        assertEquals(1, runs.get(), "the action ran other than once");
        assertTrue(once.isDone(), once::toString);
    }

    /**
     * A recursive {@code run} that threw leaves the {@code Once} running, not done, until the action itself returns
     * (the class javadoc: "every other call, concurrent or later, returns only after that action has returned";
     * {@code isDone}: "{@code true} once the action has completed"): a's action calls {@code run} on the same
     * {@code Once}, which throws {@code IllegalStateException}; the action then finds {@code isDone()} false and
     * starts a late caller c, and returns only once c is parked (or, wrongly, has returned). c's {@code run} returns
     * only after the action returned. Coverage review 21, mutant O-D: {@code runSlow} setting {@code done} in its
     * {@code finally} whatever the state of the call, so that the recursive call's failure marked the Once done while
     * its action ran: survived every other OnceFrayTest (the recursive ones look at {@code isDone} only at the end).
     */
    @FrayTest(iterations = 50 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aRecursiveRunThatThrewLeavesTheOnceRunningUntilItsActionReturns() throws InterruptedException {
        Once once = new Once();
        AtomicBoolean returned = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<Thread> late = new AtomicReference<>();
        Thread a = start("a", () -> once.run(() -> {
            runs.incrementAndGet();
            assertThrows(IllegalStateException.class, () -> once.run(() -> runs.addAndGet(100)),
                    "a recursive run did not throw");
            assertFalse(once.isDone(), "isDone() true while the action still runs (a recursive run threw)");
            Thread c = start("c", () -> {
                once.run(() -> runs.addAndGet(10));
                assertTrue(returned.get(), "a late run() returned before the action had returned");
            });
            late.set(c);
            until("c parks or returns", () -> {
                Thread.State st = c.getState();
                return st == Thread.State.WAITING || st == Thread.State.TERMINATED;
            });
            returned.set(true);
        }));
        join(a);
        until("c is started", () -> late.get() != null);
        join(late.get());
        assertEquals(1, runs.get(), "the action ran other than once");
        assertTrue(once.isDone(), once::toString);
    }

    private void callTwice(FrayThreads.Body call) throws InterruptedException {
        callers.set(null);
        Thread a = start("a", call);
        Thread b = start("b", call);
        callers.set(new Thread[] {a, b});
        join(a, b);
    }

    /** The two threads of callTwice, once both are started. */
    private final AtomicReference<Thread[]> callers = new AtomicReference<>();

    private void recursiveCallThrows(Runnable recursiveCall) {
        until("both callers are started", () -> callers.get() != null);
        for (Thread t : callers.get()) {
            if (t != Thread.currentThread()) {
                FrayThreads.untilParked(t);
            }
        }
        assertThrows(IllegalStateException.class, recursiveCall::run, "a recursive call did not throw");
    }
}
