package io.ants4j.channels;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Go's {@code time.Ticker}: sends the current time on {@link #chan()} once per period, until stopped. A receiver that
 * falls behind misses ticks: the channel holds one, and a tick that finds it full is dropped, as in Go. Stopping or
 * resetting the ticker takes a tick left in the channel out (as Go 1.23 does: no stale tick is received after
 * {@code Stop} or {@code Reset} returns); it does not close the channel. A tick is known by identity: a receiver that
 * sends the ticker's last tick (that very {@code Instant}) back into the channel has it taken out by a stop or reset
 * as the tick it is. A ticker nobody refers to any more (neither it nor its channel) is collected, stopped or not (as
 * in Go 1.23).
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
    /** The channel of the ticks; referred to weakly by the timer. */
    final Chan<Instant> chan = new Chan<>(1);
    /** The last tick sent, for a stop or reset to take out; guarded by the channel's lock. */
    final Timers.LastTick lastTick = new Timers.LastTick();
    /** The current timer; read and written under the timers' lock once constructed. */
    Timers.Timer timer;

    /**
     * Starts a ticker whose first tick comes one period from now.
     *
     * @param period the time between ticks
     * @throws IllegalArgumentException if {@code period} is zero or negative
     * @throws NullPointerException if {@code period} is null
     */
    public Ticker(Duration period) {
        timer = Timers.tick(chan, positive(period), lastTick);
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
     * Stops the ticker: no tick is sent after this method returns, and a tick left in the channel is taken out.
     * Stopping a stopped ticker does nothing.
     */
    public void stop() {
        Timers.stop(this);
    }

    /**
     * Stops the ticker and starts it again with a new period, the next tick one period from now (Go's
     * {@code Reset}); a tick left in the channel is taken out.
     *
     * @param period the new time between ticks
     * @throws IllegalArgumentException if {@code period} is zero or negative
     * @throws NullPointerException if {@code period} is null
     */
    public void reset(Duration period) {
        Timers.reset(this, positive(period));
    }

    /** Stops the ticker, as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private static long positive(Duration period) {
        long nanos = Chan.saturatedNanos(Objects.requireNonNull(period, "period"));
        if (nanos <= 0) {
            throw new IllegalArgumentException("non-positive period for a Ticker: " + period);
        }
        return nanos;
    }
}
