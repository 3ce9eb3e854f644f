package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Performs exactly one action: the port of Go's {@code sync.Once}, with {@link #func} and
 * {@link #value} for Go's {@code OnceFunc} and {@code OnceValue}.
 *
 * <pre>{@code
 * private final Once init = new Once();
 *
 * void handle(Request r) {
 *     init.run(this::loadConfig);   // the first caller loads; the others wait for it
 *     ...
 * }
 * }</pre>
 *
 * <p>The first call of {@link #run} runs its action; every other call, concurrent or later,
 * returns only after that action has returned, and runs nothing. If the action throws, the
 * throwable propagates to the caller that ran it, and the {@code Once} is done all the same (Go's
 * rule: a failed initialization is not retried). Calling {@code run} on the same {@code Once}
 * from inside its own action throws {@link IllegalStateException} (Go deadlocks).
 *
 * <p><b>Memory consistency effects:</b> actions of the action <i>happen-before</i> the return of
 * every call of {@code run} on the same {@code Once}, and {@link #isDone} returning {@code true}.
 * After completion, {@code run} is a single acquire read: no lock, no allocation.
 */
public final class Once {
    /*
     * Implementation notes.
     *
     * done is written once, with release semantics, after the action returned or threw; the
     * fast path is one acquire read of it. The slow path is the once-only call of func and value
     * (Lazy, below) with the action given by the run that claims it: one state word that the first
     * caller claims with a CAS, a stack of waiters pushed on it, all unparked by the getAndSet that
     * completes the call. Unlike a lock (Go's mutex), whose unlock wakes
     * one waiter that must wake the next, no waiter depends on another's wake-up: one that the JDK
     * cannot unpark (on JDK 21 an OutOfMemoryError can escape the unpark of a virtual thread) is lost
     * alone. The state's bottom is the calling thread, which tells a recursive call apart from a
     * concurrent one: run() detects self-recursion instead of deadlocking.
     *
     * What marks an action done (done here, the state of Lazy, the fast-path fields of func and
     * value) runs after the action, on a heap it may have exhausted; the first run in the JVM of a
     * VarHandle call site links it, which allocates, so class initialization runs each path once
     * on throwaway instances (linkStateChanges), or, if that ran out of memory, the first
     * constructor, func or value does (CallSiteLinking).
     */

    private static final VarHandle DONE;

    /** Links the call sites before any Once has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(Once.class, "done", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LINKING.attempt();
    }

    /**
     * Runs once a throwaway {@code Once}, {@link #func} and {@link #value}. The first run of each
     * {@code VarHandle} call site in the JVM links it, which allocates, and what marks an action
     * done runs after the action: on a heap the action left exhausted, its {@code OutOfMemoryError}
     * would leave a {@code Once} to run its action again, or a function's call in progress for good
     * (every later caller waiting for ever).
     */
    private static void linkStateChanges() {
        new Once().run(() -> { });
        func(() -> { }).run();
        value(() -> Boolean.TRUE).get();
    }

    @SuppressWarnings("unused") // accessed through DONE
    private volatile boolean done;

    /** The call of the first action; its function is given by the {@code run} that claims it. */
    private final Lazy call = new Lazy(null);

    /** Creates a {@code Once} that has not run anything yet. */
    public Once() {
        LINKING.ensure();
    }

    /**
     * Runs {@code action} if and only if no call of {@code run} on this {@code Once} has run one
     * before; otherwise waits until that action has returned.
     *
     * @param action the action; it is not called if this {@code Once} is done
     * @throws NullPointerException if {@code action} is null
     * @throws IllegalStateException if called from inside this {@code Once}'s own action
     */
    public void run(Runnable action) {
        Objects.requireNonNull(action, "action");
        if (!(boolean) DONE.getAcquire(this)) {
            runSlow(action);
        }
    }

    /**
     * Returns whether the action has run (returned or thrown).
     *
     * @return {@code true} once the action has completed
     */
    public boolean isDone() {
        return (boolean) DONE.getAcquire(this);
    }

    private void runSlow(Runnable action) {
        try {
            call.runOnce(action);
        } finally {
            if (call.isComplete()) {
                DONE.setRelease(this, true);
            }
        }
    }

    /**
     * Returns a {@link Runnable} that runs {@code action} only the first time it is called: Go's
     * {@code OnceFunc}. Concurrent callers wait for the first call to finish (uninterruptibly: an
     * interrupt is kept, not acted on). If {@code action} throws, every call, the first and all
     * later ones, throws that same throwable instance. Calling the runnable from inside
     * {@code action} throws {@link IllegalStateException} (Go deadlocks). The returned runnable
     * drops its reference to {@code action} once it has run. It works even if it reaches other
     * threads through a data race. It costs two small objects and no lock.
     *
     * @param action the action to run once
     * @return a runnable that runs {@code action} at most once
     * @throws NullPointerException if {@code action} is null
     */
    public static Runnable func(Runnable action) {
        LINKING.ensure();
        return new OnceFunc(Objects.requireNonNull(action, "action"));
    }

    /**
     * Returns a {@link Supplier} that calls {@code supplier} only the first time it is called and
     * then returns the same value every time: Go's {@code OnceValue}. Concurrent callers wait for
     * the first call to finish (uninterruptibly: an interrupt is kept, not acted on). If
     * {@code supplier} throws, every call throws that same throwable instance. Calling the
     * returned supplier from inside {@code supplier} throws {@link IllegalStateException} (Go
     * deadlocks). The returned supplier drops its reference to {@code supplier} once it has run.
     * Once the value is computed, a call is one acquire read (a few reads if the value is
     * {@code null}; no lock, no allocation either way). The returned supplier works even if it
     * reaches other threads through a data race. It costs two small objects and no lock.
     *
     * @param supplier computes the value; may return {@code null}
     * @param <T> the type of the value
     * @return a supplier of the value computed once
     * @throws NullPointerException if {@code supplier} is null
     */
    public static <T> Supplier<T> value(Supplier<T> supplier) {
        LINKING.ensure();
        return new OnceValue<>(Objects.requireNonNull(supplier, "supplier"));
    }

    /**
     * Returns a string identifying this {@code Once} and whether it is done.
     *
     * @return e.g. {@code "Once@1b6d3586[done]"}
     */
    @Override
    public String toString() {
        return super.toString() + (isDone() ? "[done]" : "[not done]");
    }

    /**
     * Go's {@code OnceFunc}: {@link #run} is one acquire read of {@code succeeded} once the action
     * has returned (a boolean, which JMH measured cheaper than a compare with a sentinel); until
     * then, and for ever if it threw, calls go to {@link Lazy}. The flag starts at its default, so
     * a racily published instance takes the slow path.
     */
    private static final class OnceFunc implements Runnable {
        private static final VarHandle SUCCEEDED;

        static {
            try {
                SUCCEEDED = MethodHandles.lookup().findVarHandle(OnceFunc.class, "succeeded", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Lazy lazy;
        @SuppressWarnings("unused") // accessed through SUCCEEDED
        private volatile boolean succeeded;

        OnceFunc(Runnable action) {
            this.lazy = new Lazy(action);
        }

        @Override
        public void run() {
            if (!(boolean) SUCCEEDED.getAcquire(this)) {
                lazy.call(true);
                SUCCEEDED.setRelease(this, true);
            }
        }

        @Override
        public String toString() {
            return super.toString() + "[" + lazy.describe(true) + "]";
        }
    }

    /**
     * Go's {@code OnceValue}: {@link #get} is the shape of a volatile holder's, one acquire read of
     * {@code value} and a test for null. {@code value} is set from the result once a call has
     * returned it; a {@code null} result, a failure and an unfinished computation leave it unset,
     * so those calls go to {@link Lazy} (a few reads once it is complete). The field starts at its
     * default, so a racily published instance takes the slow path.
     */
    private static final class OnceValue<T> implements Supplier<T> {
        private static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(OnceValue.class, "value", Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Lazy lazy;
        @SuppressWarnings("unused") // accessed through VALUE
        private volatile Object value;

        OnceValue(Supplier<? extends T> supplier) {
            this.lazy = new Lazy(supplier);
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get() {
            Object v = VALUE.getAcquire(this);
            return v != null ? (T) v : getSlow();
        }

        @SuppressWarnings("unchecked")
        private T getSlow() {
            Object v = lazy.call(false);
            if (v != null) {
                VALUE.setRelease(this, v);
            }
            return (T) v;
        }

        @Override
        public String toString() {
            return super.toString() + "[" + lazy.describe(false) + "]";
        }
    }

    /**
     * The once-only call behind {@link Once#run}, {@link OnceFunc} and {@link OnceValue}: one state word, no lock.
     *
     * <p>{@code state} is {@code null} before the first call. The first caller claims the call
     * with a CAS from {@code null} to its own {@link Thread}, takes the function out of
     * {@code function} (dropping the reference; {@code Once.run} passes its action instead) and
     * calls it. A thread that finds the call running pushes a {@link Waiter} on {@code state}
     * with a CAS, so the word is a stack of waiters with the running thread at its bottom, and
     * parks until the call is complete (a thread that finds itself at the bottom is calling
     * recursively, and throws). The running thread stores the result or the throwable in
     * {@code outcome}, then swaps {@code state} to {@link #RETURNED} or {@link #THREW} (a
     * volatile write, after which no push can succeed) and unparks every waiter of the stack it
     * swapped out. Nothing is allocated after the claim, so an {@link OutOfMemoryError} cannot
     * leave a claimed call without an outcome; a waiter's node is allocated before it changes
     * anything.
     *
     * <p>Racy publication: the owner reaches this object through a final field, so a thread that
     * sees the owner sees {@code function} as the constructor wrote it (JLS 17.5), and
     * {@code state} starts at its default, {@code null}, which is what it means.
     *
     * <p>Happens-before: the outcome is written before the release of {@code state}, read after
     * an acquire read of it.
     */
    private static final class Lazy {
        private static final VarHandle STATE;
        /** {@code state} once the function has returned; {@code outcome} is the result. */
        private static final Object RETURNED = new Object();
        /** {@code state} once the function has thrown; {@code outcome} is the throwable. */
        private static final Object THREW = new Object();

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Lazy.class, "state", Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The {@link Runnable} or {@link Supplier}, until the thread that calls it takes it out. */
        private Object function;
        /** {@code null}, the calling thread under a stack of {@link Waiter}s, {@link #RETURNED} or {@link #THREW}. */
        @SuppressWarnings("unused") // accessed through STATE
        private volatile Object state;
        /** The result or the throwable; published by the release of {@code state}. */
        private Object outcome;

        Lazy(Object function) {
            this.function = function;
        }

        /** A thread waiting for the call; {@code next} is the next waiter, or the calling thread. */
        private static final class Waiter {
            final Thread thread;
            Object next;
            /** The calling thread, the bottom of the stack, copied up so that finding it takes one read. */
            Object caller;

            Waiter(Thread thread) {
                this.thread = thread;
            }
        }

        /**
         * Calls the function if no thread has, else waits until the call is complete; returns its
         * result ({@code null} for a {@link Runnable}) or throws what it threw.
         */
        Object call(boolean runnable) {
            Thread self = Thread.currentThread();
            for (;;) {
                Object s = STATE.getAcquire(this);
                if (s == RETURNED) {
                    return outcome;
                }
                if (s == THREW) {
                    throw Once.<RuntimeException>sneakyThrow((Throwable) outcome);
                }
                if (s == null) {
                    if (STATE.compareAndSet(this, null, self)) {
                        Object f = function;
                        function = null; // dropped before the call, as Go's OnceFunc drops f
                        return callFunction(f, runnable);
                    }
                } else if (caller(s) == self) {
                    throw new IllegalStateException("Once.func or Once.value called from inside its own function");
                } else {
                    awaitCompletion(self);
                }
            }
        }

        /**
         * {@link Once#run}'s call: runs {@code action} if no thread has run one, else waits until that call is
         * complete. Only the thread that ran the action throws what it threw; for every other call a
         * completed call is done, however it ended (Go's {@code Once}: a panicking f counts as returned).
         */
        void runOnce(Runnable action) {
            Thread self = Thread.currentThread();
            for (;;) {
                Object s = STATE.getAcquire(this);
                if (s == RETURNED || s == THREW) {
                    return;
                }
                if (s == null) {
                    if (STATE.compareAndSet(this, null, self)) {
                        callFunction(action, true);
                        return;
                    }
                } else if (caller(s) == self) {
                    throw new IllegalStateException("Once.run called from inside its own action");
                } else {
                    awaitCompletion(self);
                }
            }
        }

        /** Whether the call has returned or thrown. */
        boolean isComplete() {
            Object s = STATE.getAcquire(this);
            return s == RETURNED || s == THREW;
        }

        private Object callFunction(Object f, boolean runnable) {
            Object result = null;
            Throwable thrown = null;
            try {
                if (runnable) {
                    ((Runnable) f).run();
                } else {
                    result = ((Supplier<?>) f).get();
                }
            } catch (Throwable t) {
                thrown = t;
            }
            outcome = thrown == null ? result : thrown;
            Object waiters = STATE.getAndSet(this, thrown == null ? RETURNED : THREW);
            for (Object w = waiters; w instanceof Waiter waiter; w = waiter.next) {
                try {
                    LockSupport.unpark(waiter.thread);
                } catch (RuntimeException | Error e) {
                    // Not rethrown: every call's outcome is the function's, and the waiters after this one are
                    // still woken. (On JDK 21 an OutOfMemoryError can escape the unpark of a virtual thread.)
                }
            }
            if (thrown != null) {
                throw Once.<RuntimeException>sneakyThrow(thrown);
            }
            return result;
        }

        /** Pushes a waiter and parks until the call is complete; keeps an interrupt for later. */
        private void awaitCompletion(Thread self) {
            Waiter node = new Waiter(self);
            boolean interrupted = false;
            try {
                for (;;) {
                    Object s = STATE.getAcquire(this);
                    if (s == RETURNED || s == THREW) {
                        return;
                    }
                    node.next = s;
                    node.caller = caller(s);
                    if (STATE.compareAndSet(this, s, node)) {
                        break;
                    }
                }
                for (Object s = STATE.getAcquire(this); s != RETURNED && s != THREW; s = STATE.getAcquire(this)) {
                    LockSupport.park(this);
                    interrupted |= Thread.interrupted();
                }
            } finally {
                if (interrupted) {
                    self.interrupt();
                }
            }
        }

        /** The thread at the bottom of a running call's state: the one calling the function. */
        private static Object caller(Object s) {
            return s instanceof Waiter w ? w.caller : s;
        }

        /** "not computed", "failed: " and the throwable, or "done" (a func) or "value=" and the value. */
        String describe(boolean runnable) {
            Object s = STATE.getAcquire(this);
            return s == THREW ? "failed: " + outcome
                    : s != RETURNED ? "not computed"
                    : runnable ? "done" : "value=" + outcome;
        }
    }

    /** Rethrows {@code t} unchanged, checked or not: the very same throwable on every call. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }
}
