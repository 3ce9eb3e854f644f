package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
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
     * fast path is one acquire read of it. The slow path is Go's: take a mutex, re-check, run the
     * action, set done in a finally block. The mutex is a ReentrantLock rather than a monitor
     * (a monitor held by a virtual thread that runs a blocking action pins its carrier on Java
     * 21) and rather than our SpinLock (the action may run for a long time); being reentrant, it
     * tells a recursive call apart from a concurrent one, which is how run() detects
     * self-recursion instead of deadlocking.
     */

    private static final VarHandle DONE;

    static {
        try {
            DONE = MethodHandles.lookup().findVarHandle(Once.class, "done", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through DONE
    private volatile boolean done;

    private final ReentrantLock lock = new ReentrantLock();

    /** Creates a {@code Once} that has not run anything yet. */
    public Once() {
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
        if (lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("Once.run called from inside its own action");
        }
        lock.lock();
        try {
            if (!(boolean) DONE.getAcquire(this)) {
                try {
                    action.run();
                } finally {
                    DONE.setRelease(this, true);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns a {@link Runnable} that runs {@code action} only the first time it is called: Go's
     * {@code OnceFunc}. Concurrent callers wait for the first call to finish. If {@code action}
     * throws, every call, the first and all later ones, throws that same throwable instance.
     * The returned runnable drops its reference to {@code action} once it has run. It works even
     * if it reaches other threads through a data race.
     *
     * @param action the action to run once
     * @return a runnable that runs {@code action} at most once
     * @throws NullPointerException if {@code action} is null
     */
    public static Runnable func(Runnable action) {
        Objects.requireNonNull(action, "action");
        return new OnceValue<Void>(() -> {
            action.run();
            return null;
        });
    }

    /**
     * Returns a {@link Supplier} that calls {@code supplier} only the first time it is called and
     * then returns the same value every time: Go's {@code OnceValue}. Concurrent callers wait for
     * the first call to finish. If {@code supplier} throws, every call throws that same throwable
     * instance. The returned supplier drops its reference to {@code supplier} once it has run.
     * Once the value is computed, a call is one acquire read (a few reads if the value is
     * {@code null}; no lock, no allocation either way). The returned supplier works even if it
     * reaches other threads through a data race.
     *
     * @param supplier computes the value; may return {@code null}
     * @param <T> the type of the value
     * @return a supplier of the value computed once
     * @throws NullPointerException if {@code supplier} is null
     */
    public static <T> Supplier<T> value(Supplier<T> supplier) {
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
     * The state behind {@link #func} and {@link #value}.
     *
     * <p>The fast path of {@link #get} is the shape of a volatile holder's: one acquire read of
     * {@code value}, which is {@code null} until the supplier has returned, and a test for null.
     * {@link #run} (for {@link #func}, whose value is always {@code null}) tests a boolean of its
     * own instead, {@code succeeded}, which JMH measured cheaper than a compare with a sentinel.
     * Both are written with release semantics after the result, so a caller that reads them set
     * sees what the supplier did. A failed or unfinished computation leaves them unset and takes
     * the slow path, which goes through {@code once} and its happens-before edge; so does every
     * call when the supplier returned {@code null}: a few more reads ({@link Once#isDone} first),
     * no lock, no allocation.
     *
     * <p>Both fast-path fields start at their defaults and the supplier is reached through a final
     * field, so an instance published through a data race works too: a thread that sees none of
     * the constructor's writes but those to final fields (JLS 17.5) reads the fast-path fields
     * unset, takes the slow path, and finds the supplier if it is the one to compute.
     */
    private static final class OnceValue<T> implements Supplier<T>, Runnable {
        private static final VarHandle VALUE;
        private static final VarHandle SUCCEEDED;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                VALUE = lookup.findVarHandle(OnceValue.class, "value", Object.class);
                SUCCEEDED = lookup.findVarHandle(OnceValue.class, "succeeded", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused") // accessed through VALUE
        private volatile Object value;
        @SuppressWarnings("unused") // accessed through SUCCEEDED
        private volatile boolean succeeded;
        private final Once once = new Once();
        /** Cleared by the first call, under {@code once}. */
        private final AtomicReference<Supplier<? extends T>> supplier;
        private Throwable failure; // published by once's release of done

        OnceValue(Supplier<? extends T> supplier) {
            this.supplier = new AtomicReference<>(supplier);
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get() {
            Object v = VALUE.getAcquire(this);
            return v != null ? (T) v : getSlow();
        }

        @Override
        public void run() {
            if (!(boolean) SUCCEEDED.getAcquire(this)) {
                getSlow();
            }
        }

        @SuppressWarnings("unchecked")
        private T getSlow() {
            if (!once.isDone()) {
                once.run(this::compute);
            }
            if (failure != null) {
                throw Once.<RuntimeException>sneakyThrow(failure);
            }
            return (T) VALUE.getAcquire(this);
        }

        private void compute() {
            Supplier<? extends T> s = supplier.getAndSet(null);
            T result;
            try {
                result = s.get();
            } catch (Throwable t) {
                failure = t;
                return;
            }
            VALUE.setRelease(this, result);
            SUCCEEDED.setRelease(this, true);
        }

        @Override
        public String toString() {
            return super.toString() + "[" + (once.isDone()
                    ? (failure != null ? "failed: " + failure : "value=" + VALUE.getAcquire(this))
                    : "not computed") + "]";
        }
    }

    /** Rethrows {@code t} unchanged, checked or not: the very same throwable on every call. */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }
}
