package io.ants4j.primitives;

import static io.ants4j.primitives.Threads.get;
import static io.ants4j.primitives.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class OnceTest {
    private int published; // written by the once action, read after run returns

    /** Go's TestOnce: many callers, one action, every caller sees its effect on return. */
    @Test
    void runsExactlyOnceAndEveryCallerSeesTheEffect() throws Exception {
        Once once = new Once();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        List<Threads.Task<Integer>> callers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            callers.add(start(Thread.ofVirtual(), () -> {
                gate.await();
                once.run(() -> {
                    runs.incrementAndGet();
                    published = 42;
                });
                return published;
            }));
        }
        gate.countDown();
        for (var caller : callers) {
            assertEquals(42, get(caller.result()));
        }
        assertEquals(1, runs.get());
        assertTrue(once.isDone());
    }

    @Test
    void concurrentCallersWaitForTheActionToReturn() throws Exception {
        Once once = new Once();
        CountDownLatch inAction = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        var first = start(() -> {
            once.run(() -> {
                inAction.countDown();
                try {
                    finish.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            return "first";
        });
        assertTrue(inAction.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        var second = start(() -> {
            once.run(() -> fail("the second action must not run"));
            return "second";
        });
        Threads.untilParked(second.thread());
        Threads.assertNotDone(second.result());
        assertFalse(once.isDone());
        finish.countDown();
        assertEquals("first", get(first.result()));
        assertEquals("second", get(second.result()));
    }

    /** Go's TestOncePanic: a panicking action still completes the Once. */
    @Test
    void throwingActionCompletesTheOnce() {
        Once once = new Once();
        IllegalStateException boom = new IllegalStateException("boom");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> once.run(() -> {
            throw boom;
        })));
        assertTrue(once.isDone());
        once.run(() -> fail("Once.run called the action again"));
    }

    @Test
    void recursiveRunThrowsInsteadOfDeadlocking() {
        Once once = new Once();
        IllegalStateException[] inner = new IllegalStateException[1];
        once.run(() -> inner[0] = assertThrows(IllegalStateException.class, () -> once.run(() -> { })));
        assertTrue(inner[0].getMessage().contains("inside its own action"), inner[0].getMessage());
        assertTrue(once.isDone());
    }

    @Test
    void funcRunsOnceAndRethrowsTheSameThrowable() {
        AtomicInteger calls = new AtomicInteger();
        Runnable ok = Once.func(calls::incrementAndGet);
        ok.run();
        ok.run();
        assertEquals(1, calls.get());

        RuntimeException boom = new RuntimeException("boom");
        Runnable failing = Once.func(() -> {
            calls.incrementAndGet();
            throw boom;
        });
        for (int i = 0; i < 3; i++) {
            assertSame(boom, assertThrows(RuntimeException.class, failing::run));
        }
        assertEquals(2, calls.get());
    }

    @Test
    void valueReturnsTheSameInstanceToAllThreads() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Supplier<Object> value = Once.value(() -> {
            calls.incrementAndGet();
            return new Object();
        });
        Object first = value.get();
        for (int i = 0; i < 4; i++) {
            assertSame(first, get(start(Thread.ofVirtual(), value::get).result()));
        }
        assertEquals(1, calls.get());
        assertNull(Once.value(() -> null).get());
    }

    @Test
    void valueRethrowsTheSameCheckedThrowable() {
        IOException io = new IOException("disk");
        Supplier<String> value = Once.value(() -> {
            throw sneaky(io);
        });
        for (int i = 0; i < 3; i++) {
            Throwable t = assertThrows(Throwable.class, value::get);
            assertSame(io, t);
        }
    }

    @Test
    void wrappedFunctionBecomesUnreachableAfterTheFirstCall() {
        Object payload = new Object();
        WeakReference<Object> ref = new WeakReference<>(payload);
        Supplier<Object> value = Once.value(captureOnly(payload));
        payload = null;
        assertTrue(value.get() instanceof String);
        assertCollected(ref);

        Object action = new Object();
        WeakReference<Object> actionRef = new WeakReference<>(action);
        Runnable func = Once.func(runnableCapturing(action));
        action = null;
        func.run();
        assertCollected(actionRef);
        func.run();
    }

    /**
     * A thread that gets hold of a new func/value through a data race may see none of the writes
     * of its constructor except those to final fields (JLS 17.5). Such a view, made here by
     * resetting every other instance field to its default, must still compute the value (not
     * return a default for it) and run the supplier it was given.
     */
    @Test
    void racilyPublishedInstanceStillComputes() throws Throwable {
        AtomicInteger calls = new AtomicInteger();
        Object computed = new Object();
        Supplier<Object> value = Once.value(() -> {
            calls.incrementAndGet();
            return computed;
        });
        forgetNonFinalFields(value);
        assertSame(computed, value.get());
        assertSame(computed, value.get());

        Runnable func = Once.func(calls::incrementAndGet);
        forgetNonFinalFields(func);
        func.run();
        func.run();
        assertEquals(2, calls.get());
    }

    @Test
    void nullValueIsComputedOnce() {
        AtomicInteger calls = new AtomicInteger();
        Supplier<Object> value = Once.value(() -> {
            calls.incrementAndGet();
            return null;
        });
        for (int i = 0; i < 3; i++) {
            assertNull(value.get());
        }
        assertEquals(1, calls.get());
        assertTrue(value.toString().endsWith("[value=null]"), value.toString());
    }

    /** Many callers race for a value, again and again: one call, one instance, every caller sees it. */
    @Test
    void racingCallersOfValueGetTheOneInstance() throws Exception {
        for (int round = 0; round < 300; round++) {
            AtomicInteger calls = new AtomicInteger();
            Supplier<int[]> value = Once.value(() -> {
                calls.incrementAndGet();
                return new int[] {42};
            });
            CountDownLatch gate = new CountDownLatch(1);
            List<Threads.Task<int[]>> callers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                callers.add(start(i % 2 == 0 ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true), () -> {
                    gate.await();
                    return value.get();
                }));
            }
            gate.countDown();
            int[] first = get(callers.get(0));
            assertEquals(42, first[0]);
            for (var caller : callers) {
                assertSame(first, get(caller));
            }
            assertEquals(1, calls.get(), "round " + round);
        }
    }

    /**
     * Callers of a func or value that is being computed wait for the computation, however many, and
     * return its result; an interrupt does not end the wait (as in Once.run) but is kept.
     */
    @Test
    void concurrentCallersOfValueWaitUninterruptiblyForTheFirstCall() throws Exception {
        CountDownLatch computing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Supplier<String> value = Once.value(() -> {
            calls.incrementAndGet();
            computing.countDown();
            try {
                assertTrue(finish.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return "computed";
        });
        var first = start(value::get);
        assertTrue(computing.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(value.toString().endsWith("[not computed]"), value.toString());
        List<Threads.Task<String>> waiters = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Thread.Builder builder = i % 2 == 0 ? Thread.ofPlatform().daemon(true) : Thread.ofVirtual();
            waiters.add(start(builder, () -> value.get() + (Thread.currentThread().isInterrupted() ? ", interrupted" : "")));
        }
        for (var waiter : waiters) {
            Threads.untilParked(waiter.thread());
        }
        waiters.get(0).thread().interrupt();
        waiters.get(1).thread().interrupt();
        Threads.untilParked(waiters.get(0).thread());
        Threads.untilParked(waiters.get(1).thread());
        for (var waiter : waiters) {
            Threads.assertNotDone(waiter.result());
        }
        finish.countDown();
        assertEquals("computed", get(first));
        for (int i = 0; i < waiters.size(); i++) {
            assertEquals(i < 2 ? "computed, interrupted" : "computed", get(waiters.get(i)));
        }
        assertEquals(1, calls.get());
        assertTrue(value.toString().endsWith("[value=computed]"), value.toString());
    }

    /** The same for a func that fails: every waiter gets the very throwable the first call threw. */
    @Test
    void concurrentCallersOfAFailingFuncGetItsThrowable() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        IllegalStateException boom = new IllegalStateException("boom");
        Runnable func = Once.func(() -> {
            running.countDown();
            try {
                assertTrue(finish.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            throw boom;
        });
        var first = start(() -> {
            func.run();
            return "returned";
        });
        assertTrue(running.await(Threads.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        List<Threads.Task<String>> waiters = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waiters.add(start(() -> {
                func.run();
                return "returned";
            }));
        }
        for (var waiter : waiters) {
            Threads.untilParked(waiter.thread());
        }
        finish.countDown();
        assertSame(boom, Threads.failure(first.result()));
        for (var waiter : waiters) {
            assertSame(boom, Threads.failure(waiter.result()));
        }
        assertTrue(func.toString().endsWith("[failed: " + boom + "]"), func.toString());
    }

    /**
     * A func or value called from inside its own function throws IllegalStateException instead
     * of deadlocking (Go deadlocks); unless the function catches it, it is then the function's
     * failure, which every later call throws.
     */
    @Test
    void recursiveCallThrowsInsteadOfDeadlocking() {
        List<Supplier<Object>> self = new ArrayList<>();
        IllegalStateException[] inner = new IllegalStateException[1];
        Supplier<Object> value = Once.value(() -> {
            inner[0] = assertThrows(IllegalStateException.class, () -> self.get(0).get());
            return "outer";
        });
        self.add(value);
        assertEquals("outer", value.get());
        assertTrue(inner[0].getMessage().contains("inside its own"), inner[0].getMessage());

        List<Runnable> selfFunc = new ArrayList<>();
        Runnable func = Once.func(() -> selfFunc.get(0).run());
        selfFunc.add(func);
        var e = assertThrows(IllegalStateException.class, func::run);
        assertSame(e, assertThrows(IllegalStateException.class, func::run));
    }

    /**
     * A func or value costs two small objects, as Go's do: the wrapper and its state (the
     * function must be reachable through a final field, for racy publication, and dropped after
     * the call). It used to be six, a whole Once with its ReentrantLock among them. Measured with
     * the thread's allocation counter over many creations and first calls, all kept reachable.
     */
    @Test
    void funcAndValueCostTwoSmallObjects() {
        Supplier<Object> supplier = () -> "v";
        Runnable action = () -> { };
        int n = 10_000;
        Object[] kept = new Object[n];
        for (int round = 0; round < 3; round++) { // the last round counts, after the JIT has compiled the loops
            long before = allocatedBytes();
            for (int i = 0; i < n; i++) {
                Supplier<Object> value = Once.value(supplier);
                value.get();
                kept[i] = value;
            }
            long valueBytes = (allocatedBytes() - before) / n;
            before = allocatedBytes();
            for (int i = 0; i < n; i++) {
                Runnable func = Once.func(action);
                func.run();
                kept[i] = func;
            }
            long funcBytes = (allocatedBytes() - before) / n;
            if (round == 2) {
                assertTrue(valueBytes <= 64, "Once.value and its first get allocate " + valueBytes + " bytes");
                assertTrue(funcBytes <= 64, "Once.func and its first run allocate " + funcBytes + " bytes");
            }
        }
    }

    @Test
    void nullArgumentsThrow() {
        assertThrows(NullPointerException.class, () -> new Once().run(null));
        assertThrows(NullPointerException.class, () -> Once.func(null));
        assertThrows(NullPointerException.class, () -> Once.value(null));
    }

    /**
     * The bytes the current thread has allocated so far: com.sun.management.ThreadMXBean, reached
     * reflectively because this module does not read java.management (a read edge is added).
     */
    private static long allocatedBytes() {
        try {
            Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            return (long) Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes")
                    .invoke(threads);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Resets every non-final instance field of {@code o} to its type's default value. */
    private static void forgetNonFinalFields(Object o) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(o.getClass(), MethodHandles.lookup());
        for (Field f : o.getClass().getDeclaredFields()) {
            if ((f.getModifiers() & (Modifier.STATIC | Modifier.FINAL)) == 0) {
                lookup.unreflectVarHandle(f).setVolatile(o, MethodHandles.zero(f.getType()).invoke());
            }
        }
    }

    private static Supplier<Object> captureOnly(Object payload) {
        return () -> "computed from " + payload.hashCode();
    }

    private static Runnable runnableCapturing(Object payload) {
        return () -> payload.hashCode();
    }

    private static void assertCollected(WeakReference<?> ref) {
        for (int i = 0; i < 100 && ref.get() != null; i++) {
            System.gc();
        }
        assertNull(ref.get(), "the wrapped function is still reachable");
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
