package io.ants4j.channels;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/** The one daemon thread that sends the values of {@link Chan#after} and {@link Ticker}s; started at first use. */
final class Timers {
    /*
     * A timer's send is an offer into a channel of capacity 1: it never blocks, so one thread serves every timer, and
     * a tick that finds the previous one not yet received is dropped, as Go's ticker drops ticks for a slow receiver.
     * Cancelled timers are removed from the queue at once, so that stopped tickers leave nothing behind.
     */
    static final ScheduledThreadPoolExecutor SCHEDULER;

    static {
        SCHEDULER = new ScheduledThreadPoolExecutor(1,
                r -> Thread.ofPlatform().daemon().name("ants4j-channels-timer").unstarted(r));
        SCHEDULER.setRemoveOnCancelPolicy(true);
    }

    private Timers() {
    }
}
