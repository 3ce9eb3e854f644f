package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.Mutex;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Mutex#tryLock()} while a waiter gives up: one thread waits in
 * {@code lockInterruptibly()} for the lock held since the start; another unlocks, interrupts the
 * waiter and calls {@code tryLock()}. Proves: a waiter interrupted after {@code unlock} chose it
 * either takes the lock or throws {@link InterruptedException} without it, and in the second case
 * the lock is free for everyone: a {@code tryLock()} that started after the {@code unlock}
 * returned succeeds. One fixed scenario, every interleaving Lincheck finds within the budget.
 */
public class MutexInterruptedWaiterLincheckTest {
    private final Mutex mutex = new Mutex();
    /** The thread inside {@link #lockInterruptibly}, guarded by {@code this}. */
    private Thread waiter;
    /** Whether {@link #interruptWaiter} has run, guarded by {@code this}. */
    private boolean interruptRequested;

    @Operation
    public void lock() {
        mutex.lock();
    }

    /**
     * The waiter's {@code lockInterruptibly()}: interrupted on entry if {@link #interruptWaiter}
     * came first, and its interrupt status cleared on exit, so no interrupt outlives the call.
     */
    @Operation
    public void lockInterruptibly() throws InterruptedException {
        synchronized (this) {
            waiter = Thread.currentThread();
            if (interruptRequested) {
                waiter.interrupt();
            }
        }
        try {
            mutex.lockInterruptibly();
        } finally {
            synchronized (this) {
                waiter = null;
            }
            Thread.interrupted();
        }
    }

    @Operation
    public void interruptWaiter() {
        synchronized (this) {
            interruptRequested = true;
            if (waiter != null) {
                waiter.interrupt();
            }
        }
    }

    @Operation
    public void unlock() {
        mutex.unlock();
    }

    @Operation
    public boolean tryLock() {
        return mutex.tryLock();
    }

    @Test
    void modelChecking() throws NoSuchMethodException {
        ExecutionScenario scenario = new ExecutionScenario(
                List.of(actor("lock")),
                List.of(List.of(actor("lockInterruptibly")),
                        List.of(actor("unlock"), actor("interruptWaiter"), actor("tryLock"))),
                List.of(),
                null);
        LincheckBudget.modelChecking(0, 2_000).addCustomScenario(scenario)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    private static Actor actor(String operation) throws NoSuchMethodException {
        return new Actor(MutexInterruptedWaiterLincheckTest.class.getMethod(operation), List.of());
    }

    /**
     * The sequential lock, with the interrupt: {@code lockInterruptibly()} throws once
     * {@code interruptWaiter()} has run, takes a free lock otherwise, and cannot be placed where
     * the lock is held (it would wait there).
     */
    public static final class Spec {
        private boolean held;
        private boolean interruptRequested;

        public void lock() {
            if (held) {
                throw new IllegalStateException("would wait");
            }
            held = true;
        }

        public void lockInterruptibly() throws InterruptedException {
            if (interruptRequested) {
                throw new InterruptedException();
            }
            lock();
        }

        public void interruptWaiter() {
            interruptRequested = true;
        }

        public void unlock() {
            if (!held) {
                throw new IllegalMonitorStateException();
            }
            held = false;
        }

        public boolean tryLock() {
            if (held) {
                return false;
            }
            held = true;
            return true;
        }
    }
}
