package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Chan.after: "a value sent on it by anyone else that is still in it when the delay has passed takes the place of the
 * time, which is then dropped" (review 69 found the drop undocumented: Go's channel is receive-only, so its time never
 * finds the buffer full). A value the user sent is in the channel when the timer fires: once the timer has left the
 * heap with no tick pending, the channel holds the user's value, and no time comes after it is taken.
 */
class AValueSentOnAnAfterChannelTakesThePlaceOfTheTimeTest {

    @Test
    void theTimeIsDroppedWhenAValueTheUserSentFillsTheChannel() throws Exception {
        Threads.untilNoTimerPending();
        Chan<Instant> c = new Chan<>(1); // what Chan.after(20 ms) makes
        Instant mine = Instant.EPOCH;
        c.offer(mine);
        Timers.Timer t = Timers.after(c, TimeUnit.MILLISECONDS.toNanos(20));
        Threads.until("the timer has fired", () -> t.index < 0 && t.pendingTick == null);
        assertSame(mine, c.poll(), "the user's value is not the one in the channel");
        assertNull(c.poll(100, TimeUnit.MILLISECONDS), "the time came after the user's value");
    }
}
