package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An unpark that throws, in the middle of waking waiters. CHANGELOG (Unreleased, Fixed): "Waking several parked
 * threads (WaitGroup, Cond.broadcast, Mutex, RWMutex, WeightedSemaphore, TaskGroup): if unparking one throws (on
 * JDK 21 an OutOfMemoryError can escape the unpark of a virtual thread), the others are still unparked ... before
 * the error propagates." Each test runs {@link UnparkFailureProbe} in a JVM of its own, where a virtual thread's
 * scheduler rejects its continuation (a JDK-internal builder, hence {@code --add-opens}): its unpark then throws
 * {@code RejectedExecutionException}, the JDK 25 stand-in for JDK 21's {@code OutOfMemoryError}. The thread whose
 * unpark fails is lost; the tests check what happens to everyone else.
 */
@Timeout(120)
class UnparkFailureTest {

    /**
     * RWMutex javadoc: "{@code tryLock()} takes a free lock ... it waits the few steps that takes." A write
     * {@code unlock()} whose grant to a waiting reader fails to unpark it must still release the writers' inner
     * {@code Mutex} (it is released after the readers are let in, not in a {@code finally}); else, once the lock is
     * free, the write {@code tryLock()} spins for ever and every writer waits for ever.
     */
    @Test
    void aWriteUnlockWhoseReaderUnparkThrowsStillReleasesTheWriters() throws Exception {
        runProbe("rwmutex-write-unlock");
    }

    /**
     * RWMutex javadoc: "a writer that was waiting for the readers to leave lets in the readers it held back and
     * gives up its place." Also when unparking one of those readers throws: the writers' inner {@code Mutex} must
     * be released.
     */
    @Test
    void aWriterGivingUpWhoseHeldBackReaderUnparkThrowsStillReleasesTheWriters() throws Exception {
        runProbe("rwmutex-writer-gives-up");
    }

    /**
     * Once.value javadoc: "Concurrent callers wait for the first call to finish"; "then returns the same value
     * every time". If unparking one waiter throws, the waiters pushed before it must still be woken (they park until
     * the call is complete, and only an unpark makes them look again), and the caller that ran the supplier must get
     * its value, not the unpark's exception.
     */
    @Test
    void onceValueWakesEveryWaiterEvenIfOneUnparkThrows() throws Exception {
        runProbe("once-value");
    }

    /**
     * TaskGroup javadoc: "A submitter that has to wait, and is interrupted before it starts waiting or while it
     * waits, gets a RejectedExecutionException caused by an InterruptedException, and its interrupt status is set
     * again: ... this holds also if a slot was handed to it ...; a slot handed to it goes on to the next in line."
     * Also when unparking the next in line throws.
     */
    @Test
    void anInterruptedSubmitterPassingItsSlotToALostOneKeepsItsInterrupt() throws Exception {
        runProbe("taskgroup-interrupted-submitter");
    }

    /**
     * Cond.await javadoc: "@throws OutOfMemoryError (or any other error) if the wait cannot be set up or continued;
     * the lock is held again and the thread is not left waiting, so a caller's finally can restore its state and
     * release the lock." Over a {@link Mutex} whose {@code unlock()} wakes a waiter whose unpark throws an error
     * (the CHANGELOG: the error propagates once the state is changed), the lock has been released when the error
     * reaches {@code await}, which must take it again before it throws.
     */
    @Test
    void condAwaitOverAMutexWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-mutex");
    }

    /**
     * An RWMutex writer interrupted while it waits for the readers lets in the readers it held back: when waking
     * one throws, its lockInterruptibly throws that with the interrupt status set again (Lock.lockInterruptibly:
     * the interrupt is not lost), as a TaskGroup submitter passing its slot on does.
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
     * As {@link #condAwaitOverAMutexWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain}, the unpark throwing a
     * RuntimeException: whatever our locks' unlock throws but IllegalMonitorStateException comes after the release.
     */
    @Test
    void condAwaitOverAMutexWhoseUnlockThrowsARuntimeExceptionAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-mutex-runtime-exception");
    }

    /** As {@link #condAwaitOverAMutexWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain}, over a {@code ReentrantLock}. */
    @Test
    void condAwaitOverAReentrantLockWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-reentrant-lock");
    }

    /** The same over a {@code ReentrantReadWriteLock}'s write lock. */
    @Test
    void condAwaitOverAJdkWriteLockWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-jdk-write-lock");
    }

    /** The same over an {@link RWMutex}'s write lock view. */
    @Test
    void condAwaitOverAnRWMutexWriteViewWhoseUnlockThrowsAfterReleasingHoldsTheLockAgain() throws Exception {
        runProbe("cond-over-rwmutex-write-view");
    }

    static void runProbe(String probe) throws Exception {
        runProbe(UnparkFailureProbe.class, probe);
    }

    /** Runs {@code main}'s {@code main(probe)} in a JVM of its own; its last line must be {@code OK}. */
    static void runProbe(Class<?> main, String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classPath = Path.of(Mutex.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", classPath, main.getName(), probe)
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals("OK", out.lines().reduce((a, b) -> b).orElse(""), out);
    }
}
