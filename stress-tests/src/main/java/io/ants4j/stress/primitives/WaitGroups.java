package io.ants4j.stress.primitives;

import io.ants4j.primitives.WaitGroup;

import java.util.concurrent.TimeUnit;

/** WaitGroup helpers of the tests. */
final class WaitGroups {

    private WaitGroups() {
    }

    /** Timed await as a result value: 1 released, 0 timed out, 2 interrupted (flag cleared). */
    static int await(WaitGroup wg, long timeout, TimeUnit unit) {
        try {
            return wg.await(timeout, unit) ? 1 : 0;
        } catch (InterruptedException e) {
            return 2;
        }
    }

    /** Checks, from a single thread after a race, that a WaitGroup is consistent and reusable. */
    static boolean reusable(WaitGroup wg) {
        try {
            if (wg.count() != 0) {
                return false;
            }
            // At zero, await returns at once.
            if (!wg.await(0, TimeUnit.NANOSECONDS)) {
                return false;
            }
            wg.add(2);
            if (wg.count() != 2) {
                return false;
            }
            // Not at zero: a timed await must time out rather than return early.
            if (wg.await(0, TimeUnit.NANOSECONDS)) {
                return false;
            }
            wg.done();
            wg.done();
            return wg.count() == 0 && wg.await(0, TimeUnit.NANOSECONDS);
        } catch (RuntimeException | InterruptedException e) {
            return false;
        }
    }
}
