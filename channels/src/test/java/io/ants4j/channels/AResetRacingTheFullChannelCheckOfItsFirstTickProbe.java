package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run under the pool module's {@code ThreadHoldingDebugger} ({@link AResetRacingTheFullChannelCheckOfItsFirstTickTest}),
 * which holds the timer thread at the line of {@code Timers.fullOfNoStaleTick} given as {@code debug.line}, as a
 * preemption there would, the first time the thread reaches it (once it has read that the channel is full). A
 * ticker of 300 ms puts its first tick in its channel (capacity 1); the probe holds the channel's lock (a receiver
 * preempted inside its operation) and resets the ticker to 1 s on another thread, whose look at the stale tick then
 * waits for that lock. The new timer's first tick falls due, finds the channel full of the stale tick and is held.
 * The probe lets the lock go: the reset takes the stale tick out and returns, the channel empty. It prints
 * {@code OUTCOME}, which lets the timer thread go, then {@code TICK arrived} if a tick comes within 500 ms (the tick
 * due, sent into the empty channel), else {@code TICK none} (the next one is a period later).
 */
final class AResetRacingTheFullChannelCheckOfItsFirstTickProbe {
    private AResetRacingTheFullChannelCheckOfItsFirstTickProbe() {
    }

    public static void main(String[] args) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Ticker ticker = new Ticker(Duration.ofMillis(300));
        Chan<Instant> c = ticker.chan();
        while (c.len() == 0) { // its next tick, 300 ms later, comes after the reset below
            check(System.nanoTime() < deadline, "no first tick");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        c.lock.lock();
        Thread resetter;
        long resetAt = System.nanoTime();
        try {
            resetter = Thread.ofPlatform().name("resetter").start(() -> ticker.reset(Duration.ofSeconds(1)));
            Thread timer = Timers.thread();
            while (Arrays.stream(timer.getStackTrace()).noneMatch(f -> f.getMethodName().equals("fullOfNoStaleTick"))) {
                check(System.nanoTime() < deadline, "the new timer's tick never found the channel full");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        } finally {
            c.lock.unlock();
        }
        resetter.join(TimeUnit.SECONDS.toMillis(30));
        check(!resetter.isAlive(), "the reset never returned");
        System.out.println("STATE the reset returned, " + c.len() + " in the channel");
        System.out.println("OUTCOME the timer thread let go");
        System.out.flush();
        Instant tick = c.poll(500, TimeUnit.MILLISECONDS);
        long since = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resetAt);
        System.out.println(tick != null ? "TICK arrived " + since + " ms after the reset"
                : "TICK none " + since + " ms after the reset (a period is 1000 ms)");
        ticker.stop();
        System.out.flush();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("PROBE FAILED: " + what);
            System.out.flush();
            System.exit(2);
        }
    }
}
