package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run under the pool module's {@code ThreadHoldingDebugger}
 * ({@link AResetRacingTheFullChannelCheckOfItsFirstTickTest}), which holds a thread at the line given as
 * {@code debug.line}, as a preemption there would, the first time it reaches it. A ticker of 300 ms puts its first tick
 * in its channel (capacity 1), then is reset to 1 s on a thread of its own. With argument {@code timer}, the timer
 * thread is held in {@code Timers.fullOfNoStaleTick} once it has read that the channel is full: the probe holds the
 * channel's lock (a receiver preempted inside its operation), so the reset's look at the stale tick waits; the new
 * timer's first tick falls due, finds the channel full of the stale tick and is held; the probe lets the lock go, the
 * reset takes the stale tick out and returns, the channel empty. With argument {@code resetter}, the reset is held
 * inside its take of the stale tick (in {@code Chan.takeBuffered}, the slot cleared, the count not yet lowered) until
 * the new timer has fired. The probe prints {@code OUTCOME}, which lets the held thread go, then {@code TICK arrived}
 * if a tick comes within 500 ms (the tick due, sent into the empty channel), else {@code TICK none} (the next one is a
 * period later).
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
        long resetAt = System.nanoTime();
        if (args[0].equals("timer")) {
            Thread resetter;
            c.lock.lock();
            try {
                resetter = Thread.ofPlatform().name("resetter").start(() -> ticker.reset(Duration.ofSeconds(1)));
                untilIn(Timers.thread(), "fullOfNoStaleTick", deadline);
            } finally {
                c.lock.unlock();
            }
            resetter.join(TimeUnit.SECONDS.toMillis(30));
            check(!resetter.isAlive(), "the reset never returned");
            System.out.println("STATE the reset returned, " + c.len() + " in the channel");
            System.out.println("OUTCOME the timer thread let go");
        } else {
            Thread resetter = Thread.ofPlatform().name("resetter").start(() -> ticker.reset(Duration.ofSeconds(1)));
            untilIn(resetter, "takeBuffered", deadline);
            Timers.Timer next = ticker.timer;
            long due = next.when;
            while (next.when == due) { // the new timer fired: its tick looked at the channel
                check(System.nanoTime() < deadline, "the new timer never fired");
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            System.out.println("OUTCOME the resetter let go");
            System.out.flush();
            resetter.join(TimeUnit.SECONDS.toMillis(30));
            check(!resetter.isAlive(), "the reset never returned");
        }
        System.out.flush();
        Instant tick = c.poll(500, TimeUnit.MILLISECONDS);
        long since = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resetAt);
        System.out.println(tick != null ? "TICK arrived " + since + " ms after the reset"
                : "TICK none " + since + " ms after the reset (a period is 1000 ms)");
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
