package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review 49. Cond.java:101-103 (await): "@throws IllegalMonitorStateException (or whatever the lock's unlock throws)
 * if the calling thread does not hold the lock [...]; the thread is then not left waiting and its holds are
 * unchanged"; Cond.java:108-110: "What the unlock [...] of a ReentrantLock [...] throws after it released the lock
 * [...] is thrown with the lock held again"; the implementation notes (Cond.java:57-59): "if a signal picked it in
 * that window the signal is passed on to the next waiter, so misuse costs the caller an exception and nobody else a
 * wake-up".
 *
 * <p>A waiter whose {@code unlock()} throws, and whose node a signal took in that window, passes the signal on
 * (leaveWithoutWaiting calls signal()). If waking the next waiter throws (its unpark: on JDK 21 an
 * {@code OutOfMemoryError} for a virtual thread, here a virtual thread whose scheduler refuses it), that throwable
 * replaces what the unlock threw: the caller gets the next waiter's unpark failure, and the
 * {@code IllegalMonitorStateException} (misuse) or the unlock's own exception is dropped, neither thrown nor
 * suppressed. The same holds in the park-failure path ({@code catch (Throwable t)}: a throw from
 * leaveWithoutWaiting replaces {@code t}). Each case runs
 * {@link ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewProbe} in a JVM of its own.
 */
@Timeout(120)
class ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewTest {

    @Test
    void aMisusersAwaitThrowsIllegalMonitorStateExceptionAlsoWhenPassingTheSignalOnThrows() throws Exception {
        UnparkFailureTest.runProbe(ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewProbe.class, "misuse");
    }

    @Test
    void anAwaitWhoseUnlockReleasedAndThrewThrowsThatAlsoWhenPassingTheSignalOnThrows() throws Exception {
        UnparkFailureTest.runProbe(ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewProbe.class, "released");
    }
}
