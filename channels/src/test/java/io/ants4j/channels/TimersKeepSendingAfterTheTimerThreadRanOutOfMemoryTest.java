package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ticker.java:321: "sends the current time on chan() once per period, until stopped"; Chan.java:99-101, after: "a
 * channel on which the current time is sent once delay has passed ... The channel holds the value until it is
 * received". Brief: an OutOfMemoryError at any allocation an operation makes must leave no state broken. The one
 * timer thread (Timers.java:237) runs out of memory in a tick (a 1 ms ticker while the heap is full for 2 s): the
 * thread dies of it (the JVM reports "OutOfMemoryError thrown from the UncaughtExceptionHandler in thread
 * ants4j-channels-timer"), the executor cannot replace it, and the ticker's periodic task is lost with it. Once memory
 * is back: the ticker, never stopped, never ticks again, and a Chan.after(3 s) made before, with memory to spare,
 * never gets its value (timer threads: 0, queued timers: 1), until some later Chan.after or Ticker happens to
 * start a thread. Runs {@link TickerOutOfMemoryProbe} in a JVM of its own with a 24 MB heap.
 */
class TimersKeepSendingAfterTheTimerThreadRanOutOfMemoryTest {

    @ParameterizedTest
    @ValueSource(strings = {"ticker", "after"})
    void aTimerMadeBeforeTheHeapFilledSendsOnceMemoryIsBack(String timer) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(TickerOutOfMemoryProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=2",
                "-cp", classPath, TickerOutOfMemoryProbe.class.getName(), timer)
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertTrue(ended, "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }
}
