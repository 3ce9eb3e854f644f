package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Review 76. Ticker.reset: "the next tick one period from now; a tick left in the channel is taken out"; a tick is
 * dropped only when its channel is full of something other than the ticker's stale tick (Go 1.23's Reset drains the
 * stale tick before a send can look; AResetHeldByItsChannelsLockLosesNoTickOfTheNewPeriodTest, review 75's
 * AResetRacingTheFullChannelCheckOfItsFirstTickTest). A receive of the stale tick under way (not a take: LastTick.takes
 * is unchanged) while the new period's first tick looks at the channel: the receiver, preempted inside
 * {@code Chan.takeBuffered}, has cleared the slot and not yet lowered the count, its lock held, so the reset's look
 * waits. The timer thread reads the count (full, both looks) and the first value, which is no longer the stale tick
 * (null: the slot cleared), so it takes the channel as full of something else and drops the tick; the receive then
 * empties the channel, the reset returns, and no tick comes until a period after the one dropped.
 * {@link AReceiveOfTheStaleTickOverlappingTheFullChannelCheckProbe} holds the receiver there with the pool module's
 * JDI harness ({@code pool/src/test/jdi/ThreadHoldingDebugger.java}), as a preemption would.
 */
class AReceiveOfTheStaleTickOverlappingTheFullChannelCheckTest {
    private static final String COUNT_LOWERED = "        COUNT.setOpaque(this, count - 1);";

    @Test
    void theNewPeriodsFirstTickIsSentThoughItLookedWhileAReceiverWasTakingTheStaleTickOut() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Class<?> probe = AReceiveOfTheStaleTickOverlappingTheFullChannelCheckProbe.class;
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator + Path.of(probe.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Ddebug.class=" + Chan.class.getName(), "-Ddebug.thread=receiver",
                "-Ddebug.line=" + lineOf(Chan.class, COUNT_LOWERED), "../pool/src/test/jdi/ThreadHoldingDebugger.java",
                classPath, probe.getName())
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(ended, "the debugger did not end:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.equals("HELD")), "the receiver was never held:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("TICK ")), "the probe did not finish:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("TICK arrived")), "the new period's first tick, which "
                + "looked at the channel while a receiver was taking the stale tick out, was dropped:\n" + out);
    }

    private static int lineOf(Class<?> in, String text) throws Exception {
        List<String> src = Files.readAllLines(Path.of("src/main/java/" + in.getName().replace('.', '/') + ".java"));
        int line = src.indexOf(text);
        assertTrue(line >= 0 && src.lastIndexOf(text) == line,
                "not one line '" + text.strip() + "' in " + in.getSimpleName());
        return line + 1;
    }
}
