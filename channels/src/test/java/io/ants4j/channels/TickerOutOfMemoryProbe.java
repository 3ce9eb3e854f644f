package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own with a small heap ({@link TimersKeepSendingAfterTheTimerThreadRanOutOfMemoryTest}): a 1 ms ticker
 * and a {@code Chan.after(3 s)}, both made with memory to spare; the heap is filled for 2 s (the timer thread runs out
 * of memory in a tick) and freed. Argument {@code ticker}: prints {@code OK} if the ticker ticks again within 10 s;
 * {@code after}: if the after channel gets its value within 10 s. Otherwise prints what the timer executor has left
 * (its threads and queued tasks).
 */
final class TickerOutOfMemoryProbe {
    private static volatile Object hog;

    private TickerOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        Ticker ticker = new Ticker(Duration.ofMillis(1));
        if (ticker.chan().poll(10, TimeUnit.SECONDS) == null) {
            System.out.println("precondition: no tick within 10 s");
            System.exit(0);
        }
        Chan<Instant> later = Chan.after(Duration.ofSeconds(3));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        ticker.chan().poll(); // room for the next tick: it must allocate its Instant
        fillHeap();
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        hog = null;
        Instant got;
        if (args[0].equals("ticker")) {
            ticker.chan().poll();
            got = ticker.chan().poll(10, TimeUnit.SECONDS);
        } else {
            got = later.poll(10, TimeUnit.SECONDS);
        }
        System.out.println(got != null ? "OK" : "FAILED: " + (args[0].equals("ticker")
                ? "the ticker never ticked again once memory was back"
                : "Chan.after(3 s) made before the heap was full never got its value once memory was back")
                + " (queued timers: " + Timers.queued() + ")");
        System.exit(0);
    }

    private static void fillHeap() {
        hog = HeapFill.fill(null);
    }
}
