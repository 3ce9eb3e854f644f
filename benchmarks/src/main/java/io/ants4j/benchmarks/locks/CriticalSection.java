package io.ants4j.benchmarks.locks;

import org.openjdk.jmh.infra.Blackhole;

/**
 * The critical section of the lock benchmarks, chosen by their {@code section} parameter:
 * {@code empty} (lock and unlock only), {@code increment} ({@code counter++} of a shared
 * {@code long} on a cache line of its own) or {@code long} ({@code counter++} and about 1 µs of work).
 */
final class CriticalSection {
    /** {@link Blackhole#consumeCPU} tokens of the long section: about 1 µs (2 ns a token here, best of 200 × 1,000). */
    static final long LONG_SECTION_TOKENS = 500;

    private final boolean increment;
    private final long work;
    private final PaddedCounter shared = new PaddedCounter();

    CriticalSection(String section) {
        switch (section) {
            case "empty" -> {
                increment = false;
                work = 0;
            }
            case "increment" -> {
                increment = true;
                work = 0;
            }
            case "long" -> {
                increment = true;
                work = LONG_SECTION_TOKENS;
            }
            default -> throw new IllegalArgumentException("section: " + section);
        }
    }

    /** Runs the section; the caller holds the lock. */
    void run() {
        if (increment) {
            shared.value++;
        }
        if (work != 0) {
            Blackhole.consumeCPU(work);
        }
    }

    @SuppressWarnings("unused") // padding
    static final class PaddedCounter {
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        long value;
        long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    }
}
