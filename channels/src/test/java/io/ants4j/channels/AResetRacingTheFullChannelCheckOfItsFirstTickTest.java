package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Reviews 75 and 76. Ticker.reset: "the next tick one period from now; a tick left in the channel is taken out"; a
 * tick is dropped only when its channel is full (Go's non-blocking send of a tick no receiver took), and Go's timer
 * cannot fire during its Reset. The timer thread reads, without the channel's lock, that the channel is full and
 * whether what fills it is the ticker's stale tick. A reset held up by the channel's lock past the new period took
 * the stale tick out while the thread looked, and the thread dropped the new period's first tick into the channel
 * the reset emptied (review 75, the thread held between its look at the count and its read of the last tick: "TICK
 * none 1520 ms after the reset (a period is 1000 ms)"; that interleaving cannot occur since: the new timer's ticks
 * see the reset under way). {@link AResetRacingTheFullChannelCheckOfItsFirstTickProbe} holds the reset inside its take
 * of the stale tick with the pool module's JDI harness ({@code pool/src/test/jdi/ThreadHoldingDebugger.java}, a
 * single-file program), as a preemption there would.
 */
class AResetRacingTheFullChannelCheckOfItsFirstTickTest {

    private static final String COUNT_LOWERED = "        COUNT.setOpaque(this, count - 1);";

    /**
     * The reset held inside its take of the stale tick, the slot cleared and the count not yet lowered, while the
     * new timer's first tick looks at the channel: full, and not of the stale tick, as far as the thread can see
     * without the lock; the reset is under way, so the tick waits for the lock instead of being dropped, and is sent
     * once the reset has emptied the channel ("TICK none 1546 ms after the reset" before).
     */
    @Test
    void theNewPeriodsFirstTickIsSentThoughItLookedAtTheChannelWhileTheResetWasTakingTheStaleTickOut()
            throws Exception {
        assertTickArrives(Chan.class, "resetter", COUNT_LOWERED, "resetter");
    }

    private static void assertTickArrives(Class<?> in, String thread, String heldAt, String mode) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator + Path.of(AResetRacingTheFullChannelCheckOfItsFirstTickProbe.class
                        .getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Ddebug.class=" + in.getName(), "-Ddebug.thread=" + thread,
                "-Ddebug.line=" + lineOf(in, heldAt), "../pool/src/test/jdi/ThreadHoldingDebugger.java", classPath,
                AResetRacingTheFullChannelCheckOfItsFirstTickProbe.class.getName(), mode)
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(ended, "the debugger did not end:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.equals("HELD")), "the timer thread was never held:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("TICK arrived")),
                "the new period's first tick was lost (held at '" + heldAt.strip() + "'):\n" + out);
    }

    private static int lineOf(Class<?> in, String text) throws Exception {
        List<String> src = Files.readAllLines(Path.of("src/main/java/" + in.getName().replace('.', '/') + ".java"));
        int line = src.indexOf(text);
        assertTrue(line >= 0 && src.lastIndexOf(text) == line,
                "not one line '" + text.strip() + "' in " + in.getSimpleName());
        return line + 1;
    }
}
