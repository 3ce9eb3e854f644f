package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Chan.java:99, after: "Returns a channel on which the current time is sent once delay has passed (Go's
 * time.After)". Go's time.After (Go 1.23 and later): "the garbage collector can recover unreferenced timers, even if
 * they haven't expired" - so Go's idiom, a select on a result and on time.After(timeout) in a loop, keeps nothing of
 * the iterations that the result won. Here every Chan.after stays reachable from the timer thread's queue (the task
 * captures the channel) until its delay has passed: a loop of selects with a one-hour budget keeps one channel, one
 * buffer and one scheduled task per iteration for an hour. Issue 28's brief: "memory leaks".
 */
class AnUnreferencedAfterChannelIsCollectedTest {

    @Test
    void anAfterChannelNobodyReferencesIsCollected() throws InterruptedException {
        int queuedBefore = Timers.queued();
        WeakReference<Chan<Instant>> ref = new WeakReference<>(Chan.after(Duration.ofHours(1)));
        for (int i = 0; i < 10_000; i++) { // the Go idiom: the value won, the timeout case is dropped
            Chan<Integer> result = new Chan<>(1);
            result.offer(i);
            Select.select(result.onReceive(v -> { }), Chan.after(Duration.ofHours(1)).onReceive(t -> { }));
        }
        int queuedAfter = Timers.queued();
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
        }
        assertNull(ref.get(), "an unreferenced Chan.after(1 hour) was not collected; the timer queue grew from "
                + queuedBefore + " to " + queuedAfter + " tasks over 10000 selects that the value won");
    }
}
