package io.ants4j.systematic;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Ends the JVM, with a thread dump (on the process's stderr and in {@code fray-report/watchdog.txt}), when one test runs longer than {@code fray.testTimeout} seconds (set by the
 * build's Fray run; without it this listener does nothing). JUnit registers it through
 * {@code META-INF/services}.
 *
 * <p>A Fray test runs all its iterations in one call, and a schedule can livelock: a spin-wait that Fray's
 * scheduler keeps choosing over the thread it waits for. Neither JUnit's timeout (it would interrupt the call
 * and leave Fray's run going) nor surefire's fork timeout (it asks the fork to exit, and Fray intercepts
 * {@code System.exit}) ends that. This thread is started outside every Fray run, so Fray does not schedule it,
 * and {@link Runtime#halt} is not intercepted.
 */
public final class FrayWatchdog implements TestExecutionListener {
    private static final long LIMIT_SECONDS = Long.getLong("fray.testTimeout", 0L);

    private static volatile long deadline = Long.MAX_VALUE;
    private static volatile String current = "";
    private static Thread watchdog;

    /** Called by JUnit's launcher, which finds this listener through the service loader. */
    public FrayWatchdog() {
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        if (LIMIT_SECONDS <= 0 || !test.isTest()) {
            return;
        }
        current = test.getUniqueId();
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
        startOnce();
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (test.isTest()) {
            deadline = Long.MAX_VALUE;
        }
    }

    private static synchronized void startOnce() {
        if (watchdog != null) {
            return;
        }
        watchdog = Thread.ofPlatform().daemon(true).name("fray-watchdog").start(() -> {
            for (;;) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                if (System.nanoTime() - deadline > 0L) {
                    halt();
                }
            }
        });
    }

    private static void halt() {
        StringBuilder dump = new StringBuilder("FrayWatchdog: " + current + " ran longer than " + LIMIT_SECONDS
                + " s (fray.testTimeout): a livelocked schedule? Threads:\n");
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            dump.append('"').append(e.getKey().getName()).append("\" ").append(e.getKey().getState()).append('\n');
            for (StackTraceElement frame : e.getValue()) {
                dump.append("\tat ").append(frame).append('\n');
            }
        }
        // To the process's own stderr (surefire's System.err is a channel that halt() would cut) and to a file.
        byte[] bytes = dump.toString().getBytes(StandardCharsets.UTF_8);
        try (FileOutputStream err = new FileOutputStream(FileDescriptor.err)) {
            err.write(bytes);
        } catch (IOException ignored) {
            // the file below may still be written
        }
        try {
            Path dir = Path.of(System.getProperty("fray.workDir", "."));
            Files.createDirectories(dir);
            Files.write(dir.resolve("watchdog.txt"), bytes);
        } catch (IOException ignored) {
            // the stderr copy is all there is
        }
        Runtime.getRuntime().halt(3);
    }
}
