package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The life cycle of the pools: release, reboot, tune, termination, and their background threads. */
class LifecycleTest {

    // ---------------------------------------------------------------- background threads

    @Test
    void interruptedPeriodicTaskParksAgain() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PeriodicTask task = PeriodicTask.start("test-periodic", TimeUnit.HOURS.toNanos(1), runs::incrementAndGet,
                System.getLogger(LifecycleTest.class.getName()));
        Thread t = task.thread();
        try {
            eventually("parked", () -> t.getState() == Thread.State.TIMED_WAITING);
            t.interrupt();
            // a busy loop never clears the flag and is mostly RUNNABLE
            eventually("interrupt consumed and parked again",
                    () -> !t.isInterrupted() && t.getState() == Thread.State.TIMED_WAITING,
                    () -> t + " interrupted=" + t.isInterrupted() + " state=" + t.getState());
            assertEquals(0, runs.get(), "the period has not passed");
        } finally {
            task.stop();
        }
        t.join(WAIT);
        assertFalse(t.isAlive(), "stop() ends the thread");
    }
}
