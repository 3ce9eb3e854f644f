package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review 37. RWMutex's class javadoc (RWMutex.java:15-17): "once a thread waits for the write lock, new readers
 * block until that writer has had the lock, so a steady stream of readers cannot starve a writer. The readers that
 * arrive while a writer waits or holds the lock go in together when it unlocks." A reader counted in behind writer
 * W1 but not yet queued when W1 unlocks (descheduled between its count and its queueing: any preemption there)
 * leaves W1's release for it stored as a permit; the next writer W2 then waits for that reader, and a new reader R2
 * arriving while W2 waits takes the stored permit and goes in at once (a read {@code tryLock(1 ns)} returns true
 * with W2 waiting), while the reader W1 let in waits behind W2. Runs
 * {@link RWMutexReaderOvertakesAWaitingWriterProbe} in a JVM of its own (a virtual thread on a test scheduler
 * stands for the descheduled reader, as in {@link MutexLostHandOffTest}).
 */
@Timeout(120)
class ANewReaderDoesNotOvertakeAWaitingWriterTest {

    @Test
    void aReaderArrivingWhileAWriterWaitsDoesNotTakeThePermitOfAReaderTheLastUnlockLetIn() throws Exception {
        UnparkFailureTest.runProbe(RWMutexReaderOvertakesAWaitingWriterProbe.class, "reader-overtakes-waiting-writer");
    }
}
