package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * RWMutex's class javadoc: "a reader that an unlock lets in but that has not yet begun to wait (it was descheduled
 * on its way) can have its place taken by a reader that arrives after the next writer began to wait: the later
 * reader goes in ahead of that writer, and the earlier one waits for it. The writer waits for as many readers as
 * before, and gets the lock once they leave." Shown with writer W1 holding the lock, reader R1 counted in behind it
 * and descheduled before it queues, W1's unlock, writer W2 waiting for R1, and a new reader R2: R2's timed
 * {@code tryLock} takes R1's place, R2's unlock gives W2 the lock, and R1 gets in after W2's unlock. Review 37 found
 * the javadoc promising that no new reader goes in while a writer waits (this test, first written to show that
 * broken); the behaviour is Go's, and the javadoc now says it. Runs {@link RWMutexReaderTakesAnotherReadersPlaceProbe}
 * in a JVM of its own (a virtual thread on a test scheduler stands for the descheduled reader, as in
 * {@link MutexLostHandOffTest}).
 */
@Timeout(120)
class ANewReaderMayTakeThePlaceOfAReaderAnUnlockLetInTest {

    @Test
    void aReaderArrivingWhileAWriterWaitsMayGoInForALetInReaderAndTheWriterStillGetsTheLockWhenItLeaves()
            throws Exception {
        UnparkFailureTest.runProbe(RWMutexReaderTakesAnotherReadersPlaceProbe.class, "reader-takes-another-readers-place");
    }
}
