package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Run under the pool module's {@code ThreadHoldingDebugger}
 * ({@link AReceiveOfTheStaleTickOverlappingTheFullChannelCheckTest}), which holds the thread named {@code receiver}
 * in {@code Chan.takeBuffered} (the slot cleared, the count not yet lowered; the line given as {@code debug.line}),
 * as a preemption there would. A ticker of 300 ms puts its first tick in its channel (capacity 1); a receiver starts
 * to receive it and is held there, the channel's lock held; the ticker is reset to 1 s on a thread of its own, whose
 * look at the stale tick waits for the lock. The new period's first tick falls due and looks at the channel. The
 * probe prints {@code OUTCOME}, which lets the receiver go (it gets the old tick), joins the reset (the channel is
 * empty when it returns), then prints {@code TICK arrived} if a tick comes within 500 ms, else {@code TICK none}
 * (the next is due a period after the one dropped).
 */
final class AReceiveOfTheStaleTickOverlappingTheFullChannelCheckProbe {
    private AReceiveOfTheStaleTickOverlappingTheFullChannelCheckProbe() {
    }

    public static void main(String[] args) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Ticker ticker = new Ticker(Duration.ofMillis(300));
        Chan<Instant> c = ticker.chan();
        Timers.Timer old = ticker.timer;
        while (c.len() == 0 || old.pendingTick != null) {
            check(System.nanoTime() < deadline, "no first tick");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        AtomicReference<Instant> got = new AtomicReference<>();
        Thread receiver = Thread.ofPlatform().name("receiver").start(() -> got.set(c.poll()));
        untilIn(receiver, "takeBuffered", deadline);
        long resetAt = System.nanoTime();
        Thread resetter = Thread.ofPlatform().name("resetter").start(() -> ticker.reset(Duration.ofSeconds(1)));
        while (ticker.timer == old) {
            check(System.nanoTime() < deadline, "the reset installed no timer");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        Timers.Timer fresh = ticker.timer;
        long due = fresh.when;
        while (fresh.when == due || (fresh.pendingTick != null && !fresh.retried)) { // fired, dropped or tried
            check(System.nanoTime() < deadline, "the new timer's first tick was not looked at");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        check(resetter.isAlive(), "the reset returned while the receiver held the lock");
        System.out.println("STATE the new period's first tick " + (fresh.pendingTick == null ? "dropped"
                : "kept pending") + ", " + c.len() + " counted in the channel");
        System.out.println("OUTCOME the receiver let go");
        System.out.flush();
        receiver.join(TimeUnit.SECONDS.toMillis(30));
        resetter.join(TimeUnit.SECONDS.toMillis(30));
        check(!receiver.isAlive() && !resetter.isAlive(), "the receive or the reset never returned");
        long returned = System.nanoTime();
        System.out.println("STATE the receiver got " + got.get() + "; the reset returned "
                + TimeUnit.NANOSECONDS.toMillis(returned - resetAt) + " ms after it started, " + c.len()
                + " in the channel");
        Instant tick = c.poll(500, TimeUnit.MILLISECONDS);
        long since = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - resetAt);
        System.out.println(tick != null ? "TICK arrived " + since + " ms after the reset started"
                : "TICK none " + since + " ms after the reset started (a period is 1000 ms)");
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
