package io.ants4j.systematic.lincheck;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * How much each Lincheck test explores: by default the budget CI runs on every build, with
 * {@code -Dlincheck.full=true} ten times the scenarios and ten times the interleavings of each.
 *
 * <p>A test generates random scenarios: a few operations run sequentially, then a parallel part of
 * {@code threads} threads with {@code actorsPerThread} operations each, then a few more
 * sequentially. Lincheck's model checker runs the parallel part in up to {@code interleavings}
 * different interleavings, switching threads at shared-memory accesses, lock operations and
 * parks, and checks that every outcome is that of some order of the operations that keeps each
 * thread's order and real time (linearizability) against the test's sequential specification.
 * On a failure it prints the scenario, the results and the interleaving, step by step.
 */
final class LincheckBudget {
    /** {@code -Dlincheck.full=true}: the full budget. */
    static final boolean FULL = Boolean.getBoolean("lincheck.full");

    private static final int SCALE = FULL ? 10 : 1;

    private LincheckBudget() {
    }

    /**
     * Model checking of {@code scenarios} random scenarios (none: only the custom ones a test
     * adds), each in up to {@code interleavings} interleavings; both times ten in the full run.
     *
     * @throws IllegalStateException if the JVM sees more than one processor: the primitives then
     *     spin-wait before they park (WaitGroup 2^10 times), and the model checker explores every
     *     spin, each a scheduling point, or reports a livelock; the build runs these tests with
     *     {@code -XX:ActiveProcessorCount=1}
     */
    static ModelCheckingOptions modelChecking(int scenarios, int interleavings) {
        int processors = Runtime.getRuntime().availableProcessors();
        if (processors != 1) {
            throw new IllegalStateException("Lincheck tests need -XX:ActiveProcessorCount=1 (see lincheck-tests/pom.xml); "
                    + "this JVM sees " + processors + " processors");
        }
        return new ModelCheckingOptions()
                .iterations(scenarios * SCALE)
                .invocationsPerIteration(interleavings * SCALE);
    }
}
