package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * docs/failures.md:25-27: "A class first used on an exhausted heap may fail to initialize, as any class with a
 * VarHandle may, and the JVM then refuses it for good; ants4j adds nothing there that can fail (the linking of its
 * call sites is retried by the first constructor)." (docs/testing.md:859 "Class initialization": the class must be
 * usable afterwards whenever the margin left room for its VarHandle lookups, 12 KB.) Timers has no VarHandle; were
 * its initialization to make anything (its instance, a lambda of a test's hook), it could run out of memory there and
 * be refused for good: every later Chan.after and new Ticker would throw NoClassDefFoundError. Runs
 * {@link ClassInitOutOfMemoryProbe} in a JVM of its own with a 24 MB heap, as the primitives' ClassInitOutOfMemoryTest
 * does.
 */
class TimersWhoseInitializationRanOutOfMemoryCanBeUsedOnceMemoryIsBackTest {

    @Test
    void chanAfterWorksOnceMemoryIsBackAfterTimersRanOutOfMemoryInItsInitialization() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Chan.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(ClassInitOutOfMemoryProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=2",
                "-cp", classPath, ClassInitOutOfMemoryProbe.class.getName())
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        assertTrue(ended, "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }
}
