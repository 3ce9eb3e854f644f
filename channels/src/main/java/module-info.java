/**
 * Go's channels and {@code select} for Java: {@link io.ants4j.channels.Chan}, {@link io.ants4j.channels.Select}
 * and {@link io.ants4j.channels.ChanClosedException}.
 */
module io.ants4j.channels {
    exports io.ants4j.channels;
}
