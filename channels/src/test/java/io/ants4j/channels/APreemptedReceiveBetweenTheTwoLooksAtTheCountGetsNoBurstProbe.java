package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run under the pool module's {@code ThreadHoldingDebugger}
 * ({@link APreemptedReceiveBetweenTheTwoLooksAtTheCountGetsNoBurstTest}), which holds the timer thread in
 * {@code Timers.fullOfNoStaleTick} once its first look at the count found the channel full (the line given as
 * {@code debug.line}), as a preemption there would. A ticker of 1 s puts its first tick in its channel (capacity 1),
 * which nobody receives; its second tick, a second later, finds the channel full and is held there. The probe is a
 * receiver preempted inside its receive: it holds the channel's lock, takes the first tick under it, prints
 * {@code OUTCOME} (the timer thread goes on, the lock still held), waits until the second tick was dropped or tried
 * the lock and kept pending, and lets the lock go. It then prints {@code TICK burst} if another tick comes within
 * 300 ms (the second tick, sent right after the first was received), else {@code TICK none} (the next one is due
 * 700 ms later at the earliest).
 */
final class APreemptedReceiveBetweenTheTwoLooksAtTheCountGetsNoBurstProbe {
    private APreemptedReceiveBetweenTheTwoLooksAtTheCountGetsNoBurstProbe() {
    }

    public static void main(String[] args) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Ticker ticker = new Ticker(Duration.ofSeconds(1));
        Chan<Instant> c = ticker.chan();
        Timers.Timer timer = ticker.timer;
        while (c.len() == 0 || timer.pendingTick != null) {
            check(System.nanoTime() < deadline, "no first tick");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        Instant first;
        long received;
        c.lock.lock(); // a receiver, preempted inside its receive
        try {
            untilIn(Timers.thread(), "fullOfNoStaleTick", deadline); // the second tick looked: the channel full
            first = c.poll(); // the receiver takes the tick that filled the channel, the lock still held
            received = System.nanoTime();
            check(first != null, "the first tick was not in the channel");
            System.out.println("OUTCOME the timer thread let go, the lock still held");
            System.out.flush();
            while (timer.pendingTick != null && !timer.retried) { // dropped, or kept for the lock and tried
                check(System.nanoTime() < deadline, "the second tick was neither dropped nor tried");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            System.out.println("STATE the second tick " + (timer.pendingTick == null ? "dropped" : "kept pending"));
        } finally {
            c.lock.unlock();
        }
        Instant next = c.poll(300, TimeUnit.MILLISECONDS);
        long gap = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - received);
        System.out.println(next != null ? "TICK burst " + next + " " + gap + " ms after the tick " + first
                + " that filled the channel (a period is 1000 ms)" : "TICK none within " + gap + " ms");
        ticker.stop();
        System.out.flush();
    }

    /** Waits until {@code t} is held (or runs) inside {@code method}. */
    private static void untilIn(Thread t, String method, long deadline) {
        while (Arrays.stream(t.getStackTrace()).noneMatch(f -> f.getMethodName().equals(method))) {
            check(System.nanoTime() < deadline, t.getName() + " never held in " + method);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("PROBE FAILED: " + what);
            System.out.flush();
            System.exit(2);
        }
    }
}
