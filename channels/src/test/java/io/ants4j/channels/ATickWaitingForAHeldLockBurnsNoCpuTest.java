package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 67. Contract: the timer thread "does not spin/burn CPU while a tick waits for a lock held for seconds"
 * (Go's timer goroutine blocks on the channel's runtime lock, which sleeps on a futex after a short spin). A
 * Chan.after(20 ms) whose channel's lock the test holds (a preempted receiver) for 2 s past its deadline: the tick is
 * pending, and the timer thread's CPU time over those 2 s (ThreadMXBean) must stay under 2% of them (40 ms).
 */
class ATickWaitingForAHeldLockBurnsNoCpuTest {
    private static final long HOLD_NANOS = TimeUnit.SECONDS.toNanos(2);

    @Test
    void theTimerThreadSleepsWhileAPendingTicksChannelIsLocked() throws Exception {
        Threads.untilNoTimerPending();
        Chan<Instant> c = new Chan<>(1); // what Chan.after(20 ms) makes
        Timers.Timer t = Timers.after(c, TimeUnit.MILLISECONDS.toNanos(20));
        Thread timer = Timers.thread();
        assertNotNull(timer);
        long cpu;
        long wall;
        c.lock.lock();
        try {
            Threads.until("the tick is pending", () -> t.pendingTick != null);
            long cpu0 = cpuTime(timer);
            long wall0 = System.nanoTime();
            // hold the lock for HOLD_NANOS: a timed wait on a latch nobody counts down (a bounded wait, not a sleep
            // waiting for another thread)
            new java.util.concurrent.CountDownLatch(1).await(HOLD_NANOS, TimeUnit.NANOSECONDS);
            cpu = cpuTime(timer) - cpu0;
            wall = System.nanoTime() - wall0;
        } finally {
            c.lock.unlock();
        }
        assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the pending tick was never sent");
        System.out.printf("timer thread CPU while the tick waited: %.1f ms in %.1f ms (%.1f%%)%n", cpu / 1e6,
                wall / 1e6, 100.0 * cpu / wall);
        assertTrue(cpu < wall / 50, String.format("while a Chan.after tick waited %.0f ms for its channel's lock, the "
                + "timer thread used %.1f ms of CPU (%.1f%% of a core): it polls the lock every 100 us", wall / 1e6,
                cpu / 1e6, 100.0 * cpu / wall));
    }

    /**
     * The thread's CPU time, from ThreadMXBean.getThreadCpuTime (by reflection: the module does not read
     * java.management, and core reflection needs no readability).
     */
    static long cpuTime(Thread t) throws ReflectiveOperationException {
        Class<?> factory = Class.forName("java.lang.management.ManagementFactory");
        Object mx = factory.getMethod("getThreadMXBean").invoke(null);
        Method m = Class.forName("java.lang.management.ThreadMXBean").getMethod("getThreadCpuTime", long.class);
        long ns = (Long) m.invoke(mx, t.threadId());
        if (ns < 0) {
            throw new IllegalStateException("no CPU time measured for " + t);
        }
        return ns;
    }
}
