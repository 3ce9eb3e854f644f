package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review 15 of the unpark-failure fixes: cases the fixes left out. Each runs {@link UnparkFailureReviewProbe} in a
 * JVM of its own, as {@link UnparkFailureTest} runs its probe (the unpark of a virtual thread whose scheduler
 * rejects its continuation throws {@code RejectedExecutionException}).
 */
@Timeout(120)
class UnparkFailureReviewTest {

    /**
     * CHANGELOG (Fixed): "a TaskGroup.go interrupted while a slot was handed to it keeps its interrupt status when
     * passing the slot on throws". RWMutex's writer interrupted while it waits for the readers passes on what it
     * held back the same way ({@code leave}, whose {@code finally} this session added): the interrupt must not be
     * lost when that throws. Lock.lockInterruptibly: "If the current thread ... is interrupted while acquiring the
     * lock ... InterruptedException is thrown".
     */
    @Test
    void anInterruptedWriterWhoseHeldBackReaderUnparkThrowsKeepsItsInterrupt() throws Exception {
        runProbe("rwmutex-interrupted-writer-keeps-interrupt");
    }

    /** The same for WeightedSemaphore.acquire: an interrupted head waiter grants the waiter behind it. */
    @Test
    void anInterruptedSemaphoreWaiterWhoseGrantUnparkThrowsKeepsItsInterrupt() throws Exception {
        runProbe("semaphore-interrupted-head-keeps-interrupt");
    }

    /**
     * Cond.await javadoc: whatever the lock's unlock throws leaves "its holds unchanged"; "An error thrown by the
     * unlock of the JDK's locks or of this library's after it released the lock (failing to wake one of its
     * waiters) is thrown with the lock held again". Cond.releasedBefore counts only an Error from our locks as
     * "released": a RuntimeException from the unpark (the stand-in of every other probe) leaves the Mutex free.
     */
    @Test
    void condAwaitOverAMutexWhoseUnlockThrowsARuntimeExceptionAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-mutex-runtime-exception");
    }

    /**
     * The same javadoc names "the JDK's locks"; Cond.releasedBefore knows only ReentrantLock and the write lock,
     * so over a ReentrantReadWriteLock's read lock the error escapes with the read lock released.
     */
    @Test
    void condAwaitOverAJdkReadLockWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-jdk-read-lock");
    }

    private static void runProbe(String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Mutex.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(UnparkFailureReviewProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", classPath, UnparkFailureReviewProbe.class.getName(), probe)
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }
}
