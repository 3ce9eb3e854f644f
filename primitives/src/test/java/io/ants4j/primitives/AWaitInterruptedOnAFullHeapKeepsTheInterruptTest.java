package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An interrupted wait on a full heap keeps the interrupt: the wait throws the {@code InterruptedException}, or, with no
 * memory to make it, the {@code OutOfMemoryError} with the interrupt status set. Review 39 found it lost (fixed by
 * {@code Interrupts} in the same session, whose sweep scenarios found it first, while this review ran on the
 * earlier code): the waiter's park ended, the wait cleared the interrupt
 * status ({@code Thread.interrupted()} in {@code WaitQueue.park}), leaves the queue, and then makes the
 * {@code InterruptedException} it throws; without memory for it, the wait threw {@code OutOfMemoryError} with the
 * status cleared, the interrupt neither thrown nor kept. Against:
 * <ul>
 *   <li>{@code Mutex.lockInterruptibly} (Mutex.java:185): "@throws InterruptedException if the current thread is
 *       interrupted before or while waiting"; so {@code RWMutex}'s views ("Both views have ... interruptible
 *       acquisition", RWMutex.java:31);
 *   <li>{@code WeightedSemaphore.acquire} (WeightedSemaphore.java:159), {@code WaitGroup.await}
 *       (WaitGroup.java:204): "@throws InterruptedException if the thread is interrupted on entry or while
 *       waiting";
 *   <li>{@code Cond.await} (Cond.java:99): "@throws InterruptedException if the thread is interrupted before being
 *       signalled", and "@throws OutOfMemoryError ... if the wait cannot be set up or continued" (here the wait
 *       ended by the interrupt, which is then lost);
 *   <li>the {@code Future} of {@code TaskGroup.go}: {@code get} as {@code Future.get}'s contract.
 * </ul>
 * The project's own standard, which {@code SingleFlight} meets (its waiter makes the exception before it clears the
 * status: "an OutOfMemoryError then leaves it gone with its interrupt status set", SingleFlight.java:143): the
 * {@code singleflight} control passes. The README's "Failures" lists no such limit for the primitives. Each case
 * runs {@link AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe} in a JVM of its own (24 MB heap, no TLABs, so
 * that the filler leaves no buffer to the waiter); a run whose wait never ran out of memory is skipped as
 * inconclusive. Review 39.
 */
class AWaitInterruptedOnAFullHeapKeepsTheInterruptTest {

    @Test
    void mutexLockInterruptibly() throws Exception {
        run("mutex");
    }

    @Test
    void rwMutexReadLockInterruptibly() throws Exception {
        run("rwmutex-read");
    }

    @Test
    void rwMutexWriteLockInterruptibly() throws Exception {
        run("rwmutex-write");
    }

    @Test
    void weightedSemaphoreAcquire() throws Exception {
        run("semaphore");
    }

    @Test
    void waitGroupAwait() throws Exception {
        run("waitgroup");
    }

    @Test
    void condAwait() throws Exception {
        run("cond");
    }

    @Test
    void taskGroupFutureGet() throws Exception {
        run("taskgroup-future-get");
    }

    /** The control: a caller waiting in SingleFlight.run keeps the interrupt status when its exception cannot be made; passes. */
    @Test
    void singleFlightRunJoined() throws Exception {
        run("singleflight");
    }

    private static void run(String probe) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Class<?> probeClass = AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe.class;
        String classPath = Path.of(Mutex.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                + File.pathSeparator
                + Path.of(probeClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(java, "-Xmx24m", "-XX:+UseSerialGC", "-XX:-UseTLAB",
                "-XX:ActiveProcessorCount=2", "-cp", classPath, probeClass.getName(), probe)
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(Threads.TIMEOUT.toMillis() * 6, TimeUnit.MILLISECONDS), "the probe JVM did not end");
        String out = new String(p.getInputStream().readAllBytes()).strip();
        String last = out.lines().reduce((a, b) -> b).orElse("");
        assumeFalse(last.startsWith("INCONCLUSIVE"), out);
        assertEquals("OK", last, out);
    }
}
