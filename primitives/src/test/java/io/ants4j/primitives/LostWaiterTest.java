package io.ants4j.primitives;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter the JDK cannot unpark (on JDK 21 an {@code OutOfMemoryError} can escape the unpark of a virtual thread)
 * is lost alone: the thread that tried to wake it keeps its interrupt, the other waiters are still woken, and what
 * the lost one was given does not block the primitive for later threads. Each case runs {@link LostWaiterProbe}
 * in a JVM of its own (see {@link UnparkFailureTest}).
 */
@Timeout(120)
class LostWaiterTest {

    /**
     * Mutex javadoc: "A thread whose lockInterruptibly is interrupted ... leaves the queue without taking a wake-up
     * meant for another: if unlock had already chosen it, the wake-up goes to the next waiter". When waking that
     * next waiter throws, the interrupt the thread consumed must not be lost.
     */
    @Test
    void anInterruptedMutexWaiterPassingItsWakeUpToALostOneKeepsItsInterrupt() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "mutex-interrupted-waiter-keeps-interrupt");
    }

    /** The same through RWMutex: a writer interrupted while it waits for another writer (the inner Mutex). */
    @Test
    void anInterruptedWriterWaitingForAWriterPassingItsWakeUpToALostOneKeepsItsInterrupt() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "rwmutex-writer-on-inner-mutex-keeps-interrupt");
    }

    /**
     * WaitGroup javadoc: "If the count reached zero before it could leave, its wait succeeded: ... await() returns
     * normally with the interrupt status set." A waiter that completes the release of its round itself, whose
     * unpark of another waiter throws, must at least keep the interrupt it consumed.
     */
    @Test
    void anInterruptedWaitGroupWaiterReleasingItsRoundToALostOneKeepsItsInterrupt() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "waitgroup-interrupted-waiter-keeps-interrupt");
    }

    /**
     * TaskGroup.cancel() javadoc: "interrupts the tasks that run ... Every task is cancelled and every submitter let go
     * all the same". A thread waiting in a running task's {@code Future.get()} whose unpark throws must not spare
     * the task its interrupt (else close() waits until the task ends by itself).
     */
    @Test
    void cancellingTheGroupInterruptsARunningTaskEvenIfWakingAGetterOfItsFutureThrows() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "taskgroup-cancel-interrupts-running-task");
    }

    /** TaskGroup javadoc: "cancel(true) throws what interrupting the task's thread throws, once the Future is cancelled". */
    @Test
    void cancelTrueOfATasksFutureInterruptsItEvenIfWakingAGetterThrows() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "taskgroup-future-cancel-interrupts-running-task");
    }

    /**
     * Once javadoc: "every other call, concurrent or later, returns only after that action has returned"; the
     * caller that ran an action that returned returns normally. Once.value was fixed for the same case.
     */
    @Test
    void onceRunWakesEveryWaiterAndReturnsNormallyEvenIfAnUnparkThrows() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "once-run-wakes-every-waiter");
    }

    /**
     * CHANGELOG: "Waking several parked threads (..., TaskGroup): if unparking one throws ..., the others are still
     * unparked". A task's Future is the group's: a thread waiting in its get() must get the result although a
     * later getter's unpark throws.
     */
    @Test
    void aTasksFutureWakesEveryGetterEvenIfOneUnparkThrows() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "taskgroup-future-wakes-every-getter");
    }

    /**
     * Mutex.unlock javadoc: "Releases the lock, waking a waiter if there is one and nobody else is about to take the
     * lock". After one unlock chose a waiter whose unpark threw (that thread is lost), a waiter queued later on a
     * free lock must still be woken by the next unlock.
     */
    @Test
    void aMutexWhoseWokenWaiterWasLostStillWakesLaterWaiters() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "mutex-lost-wake-up-still-wakes-later-waiters");
    }

    /** WaitQueue.unparkAll: "If an unpark throws, the walk still unparks the others" (the lost waiter first). */
    @Test
    void aWaitGroupWakesAWaiterQueuedAfterALostOne() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "waitgroup-wakes-a-waiter-queued-after-a-lost-one");
    }

    /** The same with the lost waiter second. */
    @Test
    void aWaitGroupWakesAWaiterQueuedBeforeALostOne() throws Exception {
        UnparkFailureTest.runProbe(LostWaiterProbe.class, "waitgroup-wakes-a-waiter-queued-before-a-lost-one");
    }
}
