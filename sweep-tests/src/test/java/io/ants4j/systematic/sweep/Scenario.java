package io.ants4j.systematic.sweep;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * One row of the allocation-failure sweep: how to make the object under test ({@link #setup}), the operation
 * run while the heap is exhausted ({@link #operation}), and the check run once the heap is free again
 * ({@link #check}): the object's invariants, and that it still works.
 *
 * <p>The operation runs on the sweep's runner thread (a platform thread reused for every run of the
 * scenario), so that the allocations it makes on that thread can be mapped and failed one by one. It must not
 * block without bound. A {@linkplain #settled settled} predicate, when given, keeps the heap exhausted after the
 * operation returns until the predicate holds (at most {@link SweepRunner#SETTLE_MILLIS}): for work the
 * operation starts on other threads (a worker, the purger). The predicate must not allocate.
 *
 * <p>{@link #failingAnAllocation()} makes a scenario fail unless at least one of the allocations mapped for its
 * operation is made to fail.
 *
 * <p>The check gets what the operation threw ({@code null} if it returned), may allocate freely, must bound
 * every wait (see {@link Probe}), must release whatever the setup made (threads, pools), and reports a broken
 * invariant by throwing ({@link AssertionError}).
 *
 * @param <S> the state a run works on
 */
record Scenario<S>(String name, Setup<S> setup, Operation<S> operation, Predicate<S> settled, Check<S> check,
                   boolean mustFailAnAllocation) {

    Scenario {
        Objects.requireNonNull(name);
        Objects.requireNonNull(setup);
        Objects.requireNonNull(operation);
        Objects.requireNonNull(check);
    }

    static <S> Scenario<S> of(String name, Setup<S> setup, Operation<S> operation, Check<S> check) {
        return new Scenario<>(name, setup, operation, null, check, false);
    }

    /** A scenario whose heap stays exhausted after the operation until {@code settled} holds. */
    static <S> Scenario<S> held(String name, Setup<S> setup, Operation<S> operation, Predicate<S> settled,
                                Check<S> check) {
        return new Scenario<>(name, setup, operation, Objects.requireNonNull(settled), check, false);
    }

    /**
     * This scenario, failing its sweep when the operation allocates and none of its mapped allocations could be
     * made to fail: a scenario whose allocation always finds memory (garbage the operation makes first, which
     * the failing allocation's collection reclaims) would otherwise pass having swept nothing. Not for a held
     * scenario (swept blindly, nothing mapped) nor for one whose allocations may wait for memory instead.
     */
    Scenario<S> failingAnAllocation() {
        if (settled != null) {
            throw new IllegalStateException("a held scenario is swept blindly: " + name);
        }
        return new Scenario<>(name, setup, operation, null, check, true);
    }

    /** Makes a fresh state, with memory to spare. */
    @FunctionalInterface
    interface Setup<S> {
        S make() throws Exception;
    }

    /** The operation under test; runs with the heap exhausted. */
    @FunctionalInterface
    interface Operation<S> {
        void run(S state) throws Throwable;
    }

    /** Checks the state after the operation, with the heap free again, and releases it. */
    @FunctionalInterface
    interface Check<S> {
        void check(S state, Throwable thrown) throws Exception;
    }
}
