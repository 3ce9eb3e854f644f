package io.ants4j.benchmarks.locks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A private copy of the spin lock ants started from (ants' {@code pkg/sync/spinlock.go} before
 * the exponential backoff was added): CAS 0 to 1, and on every failure yield once
 * ({@code runtime.Gosched()} is {@link Thread#yield()}) and try again. No backoff, no read
 * before the CAS. Only for comparison with {@code io.ants4j.primitives.SpinLock}.
 */
final class AntsPlainSpinLock {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AntsPlainSpinLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;

    void lock() {
        while (!STATE.compareAndSet(this, 0, 1)) {
            Thread.yield();
        }
    }

    void unlock() {
        state = 0; // Go's atomic.StoreUint32: a sequentially consistent store
    }
}
