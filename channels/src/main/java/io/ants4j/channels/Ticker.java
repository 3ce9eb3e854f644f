package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Go's {@code time.Ticker}: sends the current time on {@link #chan()} once per period, until stopped. A receiver that
 * falls behind misses ticks: the channel holds one, and a tick that finds it full is dropped, as in Go. Stopping the
 * ticker does not close the channel.
 *
 * <pre>{@code
 * try (Ticker ticker = new Ticker(Duration.ofSeconds(1))) {
 *     for (;;) {
 *         if (Select.select(done.onReceive(v -> { }), ticker.chan().onReceive(t -> report(t))) == 0) {
 *             return;
 *         }
 *     }
 * }
 * }</pre>
 */
public final class Ticker implements AutoCloseable {
    /*
     * Each schedule has a generation; a tick is sent only under the lock and only by the current generation, and
     * stop or reset moves the generation under the lock: so no tick of an old schedule is sent once they return,
     * even one whose task was already running when it was cancelled.
     */
    private final Chan<Instant> chan = new Chan<>(1);
    final ReentrantLock lock = new ReentrantLock(); // package-private: TimersTest stalls a tick behind a stop
    private long generation;
    private ScheduledFuture<?> ticks;

    /**
     * Starts a ticker whose first tick comes one period from now.
     *
     * @param period the time between ticks
     * @throws IllegalArgumentException if {@code period} is zero or negative
     * @throws NullPointerException if {@code period} is null
     */
    public Ticker(Duration period) {
        ticks = schedule(period, 0L);
    }

    /**
     * Returns the channel the ticks are sent on.
     *
     * @return the channel of the ticks, of capacity 1
     */
    public Chan<Instant> chan() {
        return chan;
    }

    /**
     * Stops the ticker: no tick is sent after this method returns (a tick already in the channel stays there). Stopping
     * a stopped ticker does nothing.
     */
    public void stop() {
        lock.lock();
        try {
            generation++;
            ticks.cancel(false);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the ticker and starts it again with a new period, the next tick one period from now (Go's
     * {@code Reset}).
     *
     * @param period the new time between ticks
     * @throws IllegalArgumentException if {@code period} is zero or negative
     * @throws NullPointerException if {@code period} is null
     */
    public void reset(Duration period) {
        lock.lock();
        try {
            ScheduledFuture<?> next = schedule(period, generation + 1);
            generation++;
            ticks.cancel(false);
            ticks = next;
        } finally {
            lock.unlock();
        }
    }

    /** Stops the ticker, as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private ScheduledFuture<?> schedule(Duration period, long generation) {
        long nanos = Chan.saturatedNanos(Objects.requireNonNull(period, "period"));
        if (nanos <= 0) {
            throw new IllegalArgumentException("non-positive period for a Ticker: " + period);
        }
        return Timers.SCHEDULER.scheduleAtFixedRate(() -> tick(generation), nanos, nanos, TimeUnit.NANOSECONDS);
    }

    private void tick(long of) {
        lock.lock();
        try {
            if (of == generation) {
                chan.offer(Instant.now());
            }
        } finally {
            lock.unlock();
        }
    }
}
