package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.ref.WeakReference;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Ticker.java:321, "Go's time.Ticker"; README's Channels table maps time.NewTicker to new Ticker and lists no
 * difference. Go's NewTicker (Go 1.23 and later): "the garbage collector can recover unreferenced tickers, even if
 * they haven't been stopped". Here the timer thread's queue keeps every ticker that was not stopped, and keeps
 * running its ticks, for the life of the JVM. Issue 28's brief: "memory leaks".
 */
class AnUnreferencedTickerIsCollectedTest {

    @Test
    void aTickerNobodyReferencesIsCollected() {
        WeakReference<Ticker> ref = new WeakReference<>(new Ticker(Duration.ofHours(1)));
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
        }
        assertNull(ref.get(), "an unreferenced, unstopped Ticker was not collected (the timer queue holds it: "
                + Timers.queued() + " queued timers)");
    }
}
