package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review 63: a counterpart taken out of its queue must stay where close() sees it until it is claimed, and an
 * operation whose unlock cannot wake the thread queued next for the lock must still complete and wake its
 * counterpart. A plain send or receive that took its counterpart out under the lock and claimed it after the unlock
 * (tried in session 31 for speed, docs/benchmark-notes.md) failed the first four cases; the last three failed on the
 * lock as it was. Each case runs {@link HandOffWindowProbe}, which holds the operation between its unlock and what
 * follows deterministically, in a JVM of its own.
 *
 * <ul>
 *   <li>selectAtClose: Chan.close "receivers waiting now return null"; Select "a case that was not chosen ... received
 *       nothing" and the "close happens-before a receive that observes it": a select waiting on c and other
 *       at close(c) takes a value offered on other after close() returned, and the racing send throws.
 *   <li>senderAtClose: Chan.send "throws ChanClosedException if the channel is closed, or is closed while this
 *       thread waits": a sender blocked at the close, interrupted after close() returned, throws
 *       InterruptedException.
 *   <li>receiverAtClose: Chan.close "receivers waiting now return null": a receiver blocked at the close,
 *       interrupted after close() returned, throws InterruptedException.
 *   <li>selectSendAtClose: Chan.send's "closed while this thread waits" for a select's send case (Go: close wakes
 *       the send case's sudog, the select panics): a select waiting to send on c and to receive on other at close(c)
 *       returns other's case with a value offered after close() returned.
 *   <li>rejectedUnpark: Chan "a waiter that the JDK cannot unpark ... is lost alone"; close "receivers waiting now
 *       return null": a send whose unlock cannot unpark the virtual thread queued for the lock threw, and the
 *       receiver it had claimed was never woken, not even by close().
 *   <li>rejectedUnparkInReceive, rejectedUnparkInClose: the same unlock in a receive (the sender claimed was never
 *       woken, not even by close()) and in close (it threw, and the receiver it claimed was never woken): the
 *       channel's ReentrantLock unlock may throw from its unpark of the next thread queued for the lock, after the
 *       operation changed the channel and before it woke its counterpart.
 *   <li>rejectedUnparkInTickerStop: Ticker.stop "no tick is sent after this method returns" (Go's Stop never
 *       fails): the same unlock on the timers' lock made a stop that had stopped the ticker throw.
 * </ul>
 */
class HandOffWindowTest {
    @ParameterizedTest
    @ValueSource(strings = {"selectAtClose", "senderAtClose", "receiverAtClose", "selectSendAtClose", "rejectedUnpark",
        "rejectedUnparkInReceive", "rejectedUnparkInClose", "rejectedUnparkInTickerStop"})
    void aCounterpartTakenOutOfItsQueueIsStillSeenByCloseAndNeverLost(String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(HandOffWindowProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", classPath, HandOffWindowProbe.class.getName(), probe)
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }
}
