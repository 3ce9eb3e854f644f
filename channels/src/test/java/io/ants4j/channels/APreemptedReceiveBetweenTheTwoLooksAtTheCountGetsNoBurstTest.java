package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 76. Ticker's javadoc: "A receiver that falls behind misses ticks: the channel holds one, and a tick that
 * finds it full is dropped, as in Go"; the brief: slow receivers lose ticks, never a burst (two ticks back to back
 * after a receive that was preempted holding the lock); APreemptedReceiverGetsNoBurstOfTicksTest. Since 68a31a0
 * the timer thread looks at the channel's count twice, and drops a tick that found the channel full (of a live
 * tick: no stop or reset anywhere) only if the second look finds it full too. A receiver preempted inside its
 * receive, holding the channel's lock, that took the tick out between the two looks, makes the second look see the
 * channel empty: the tick goes the lock path, is kept pending for the held lock, and is sent as soon as the receiver
 * lets go, a period old: two ticks back to back. (Before 68a31a0 the first look decided, and the tick was dropped.)
 * {@link APreemptedReceiveBetweenTheTwoLooksAtTheCountGetsNoBurstProbe} holds the timer thread between the two looks
 * with the pool module's JDI harness ({@code pool/src/test/jdi/ThreadHoldingDebugger.java}), as a preemption would,
 * at its read of the last tick (after the first look, before the second, here and in a fix that drops the second).
 * The sequence lock (LastTick.takes) alone, read before the first look, would keep review 75's fix without this.
 */
class APreemptedReceiveBetweenTheTwoLooksAtTheCountGetsNoBurstTest {
    private static final String AFTER_THE_FULL_CHECK = "        Instant stale = last.tick;";

    @Test
    void aTickThatFoundTheChannelFullIsDroppedThoughThePreemptedReceiverTookTheTickOutBeforeTheSecondLook()
            throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Class<?> probe = APreemptedReceiveBetweenTheTwoLooksAtTheCountGetsNoBurstProbe.class;
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator + Path.of(probe.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Ddebug.class=" + Timers.class.getName(),
                "-Ddebug.thread=ants4j-channels-timer", "-Ddebug.line=" + lineOf(Timers.class, AFTER_THE_FULL_CHECK),
                "../pool/src/test/jdi/ThreadHoldingDebugger.java", classPath, probe.getName())
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(ended, "the debugger did not end:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.equals("HELD")), "the timer thread was never held:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("TICK ")), "the probe did not finish:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("TICK none")), "a tick that found the channel full of "
                + "the ticker's live tick, taken out by a receiver preempted holding the lock before the thread's "
                + "second look at the count, was kept for the lock and sent right after the receive (a burst):\n"
                + out);
    }

    private static int lineOf(Class<?> in, String text) throws Exception {
        List<String> src = Files.readAllLines(Path.of("src/main/java/" + in.getName().replace('.', '/') + ".java"));
        int line = src.indexOf(text);
        assertTrue(line >= 0 && src.lastIndexOf(text) == line,
                "not one line '" + text.strip() + "' in " + in.getSimpleName());
        return line + 1;
    }
}
