package io.ants4j.stress.channels;

import io.ants4j.channels.Chan;
import io.ants4j.stress.support.Spin;

/** Fixtures of the channel tests. */
final class Chans {
    static final int INTERRUPTED = 2;
    static final int CLOSED = 3;

    private Chans() {
    }

    /** Waits (bounded) until {@code t} is parked: blocked in a channel operation. */
    static void untilBlocked(Thread t) {
        if (!Spin.until(() -> t.getState() == Thread.State.WAITING)) {
            throw new IllegalStateException(t + " did not block");
        }
    }

    /** Receives from {@code c}: 1 if it got {@code 1}, CLOSED if null, INTERRUPTED if interrupted. */
    static int receiveOne(Chan<Integer> c) {
        try {
            Integer v = c.receive();
            return v == null ? CLOSED : v;
        } catch (InterruptedException e) {
            return INTERRUPTED;
        }
    }
}
