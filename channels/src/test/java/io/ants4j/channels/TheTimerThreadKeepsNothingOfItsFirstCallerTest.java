package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Timers.java:237: "The one daemon thread that sends the values of Chan.after and Tickers; started at first use."
 * Brief: "memory leaks". The thread is made by Thread.ofPlatform(), which inherits the context class loader and the
 * inheritable thread-locals of the thread that happens to make the JVM's first timer: that thread's class loader (a
 * web application's, say) and its inheritable values stay reachable from the JVM-wide timer thread for ever (the
 * classic redeploy leak; the JDK's own shared threads, InnocuousThread, inherit neither). Runs
 * {@link TimerThreadInheritanceProbe} in a JVM of its own, whose first Chan.after it makes. Review 62: the thread
 * took its creator's ThreadGroup and priority too (a MIN_PRIORITY caller of a group of its own: the group kept
 * reachable for the JVM's life, every timer run at MIN_PRIORITY).
 */
class TheTimerThreadKeepsNothingOfItsFirstCallerTest {

    @Test
    void theTimerThreadKeepsNeitherTheGroupNorThePriorityNorTheContextClassLoaderNorTheInheritableValuesOfItsFirstCaller()
            throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator + Path.of(TimerThreadInheritanceProbe.class.getProtectionDomain().getCodeSource()
                        .getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Xmx64m", "-cp", classPath, TimerThreadInheritanceProbe.class.getName())
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
