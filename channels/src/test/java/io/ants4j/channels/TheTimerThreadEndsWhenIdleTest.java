package io.ants4j.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Timers' notes: the timer thread "ends when it has nothing to do: finding the heap empty, it parks for IDLE_NANOS
 * (1 s) and if, back under the lock once that time has passed, the heap is still empty, it clears the field thread
 * and returns ... a schedule made before it put a timer in the heap ..., which the thread sees, and stays; a schedule
 * made after it finds thread null and starts another". The two races are made to happen with the timers' lock held
 * by the test: the thread, its idle time over, queues on the lock; a schedule is made before it gets the lock (the
 * test's own, reentrant) or right after its decision (a thread queued behind it).
 */
class TheTimerThreadEndsWhenIdleTest {

    /**
     * No timer of an earlier test class may be left (one of a collected channel is purged only when looked at): each
     * test starts with an empty heap, and the removal that empties it wakes the thread into its idle time.
     */
    @BeforeEach
    void noTimerPending() {
        Threads.untilNoTimerPending();
    }

    /** With no timer pending the thread ends after its idle time, and the next schedule starts another. */
    @Test
    void theThreadEndsOnceIdleAndTheNextScheduleStartsAnother() throws Exception {
        Chan<Instant> first = Chan.after(Duration.ofMillis(1));
        Thread t = Timers.thread();
        assertNotNull(t, "no timer thread after a schedule");
        assertNotNull(first.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS));
        long idleFrom = System.nanoTime();
        t.join(TimeUnit.NANOSECONDS.toMillis(Threads.TIMEOUT_NANOS));
        assertFalse(t.isAlive(), () -> "the idle timer thread did not end: " + Threads.stack(t));
        assertTrue(System.nanoTime() - idleFrom >= Timers.IDLE_NANOS / 2, "the thread ended before its idle time");
        assertNull(Timers.thread(), "the ended thread is still the timers' thread");
        assertEquals(0, Timers.queued());
        assertTrue(Thread.getAllStackTraces().keySet().stream()
                .noneMatch(x -> x.getName().equals("ants4j-channels-timer")), "a timer thread is still alive");
        Chan<Instant> second = Chan.after(Duration.ofMillis(1));
        Thread t2 = Timers.thread();
        assertNotNull(t2, "the schedule after the thread ended started none");
        assertNotSame(t, t2);
        assertNotNull(second.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS), "the new thread did not fire");
    }

    /** A stop that empties the heap wakes the thread into its idle wait: a stopped one-day ticker keeps no thread. */
    @Test
    void aStoppedTickerKeepsNoThread() throws Exception {
        Ticker ticker = new Ticker(Duration.ofDays(1));
        Thread t = Timers.thread();
        assertNotNull(t);
        ticker.stop();
        t.join(TimeUnit.NANOSECONDS.toMillis(Threads.TIMEOUT_NANOS));
        assertFalse(t.isAlive(), () -> "the timer thread waits for the stopped ticker's day: " + Threads.stack(t));
    }

    /**
     * A schedule made after the thread's idle wait timed out but before it decided (it waits for the lock the test
     * holds): the thread sees the timer, stays, and fires it. Fails if the thread ends on a timed-out idle wait
     * without looking at the heap again: the timer is never fired.
     */
    @Test
    void aTimerScheduledAsTheIdleWaitTimesOutIsFiredByTheSameThread() throws Exception {
        Thread t = idleThread();
        ReentrantLock lock = Timers.lock();
        Chan<Instant> c;
        lock.lock();
        try {
            Threads.until("the idle wait times out and the thread waits for the lock", () -> lock.hasQueuedThread(t));
            c = Chan.after(Duration.ofMillis(1)); // reentrant: the thread has not decided yet
            assertSame(t, Timers.thread(), "the schedule started another thread though the first had not decided");
        } finally {
            lock.unlock();
        }
        assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS),
                "a timer scheduled as the idle thread timed out was never fired");
        assertTrue(t.isAlive() || Timers.thread() == null, "the thread ended though it fired a timer");
    }

    /**
     * A schedule made right after the thread decided to end (it queued on the timers' lock behind the thread, whose
     * wait had timed out): it must start another thread, since the one it sees may still be alive. Fails if the
     * deciding thread leaves the field set and relies on the schedule's {@code isAlive()}: the schedule, let in as
     * the thread lets go of the lock, finds it alive, starts none, and the timer is never fired.
     */
    @Test
    void aTimerScheduledRightAfterTheThreadDecidedToEndStartsAnother() throws Exception {
        Thread t = idleThread();
        ReentrantLock lock = Timers.lock();
        Threads.Failing scheduler;
        Chan<Instant>[] c = newChanHolder();
        lock.lock();
        try {
            Threads.until("the idle wait times out and the thread waits for the lock", () -> lock.hasQueuedThread(t));
            scheduler = Threads.start(() -> c[0] = Chan.after(Duration.ofMillis(1)));
            Threads.until("the scheduler queues behind the thread", () -> lock.hasQueuedThread(scheduler.thread));
        } finally {
            lock.unlock(); // the thread goes first (it queued first), decides to end, then the schedule
        }
        scheduler.join();
        Thread started = Timers.thread();
        assertNotNull(started, "the schedule made after the decision started no thread");
        assertNotSame(t, started, "the schedule made after the decision kept the thread that decided to end");
        assertNotNull(c[0].poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS),
                "a timer scheduled right after the idle thread decided to end was never fired");
        t.join(TimeUnit.NANOSECONDS.toMillis(Threads.TIMEOUT_NANOS));
        assertFalse(t.isAlive(), "the thread that decided to end did not");
    }

    /**
     * Fires a timer and returns the thread once it is in its idle wait (the heap empty; a timed park with the timers
     * as its blocker, not a wait for the lock): a thread queued on the lock later has its idle wait behind it.
     */
    private static Thread idleThread() throws InterruptedException {
        Chan<Instant> c = Chan.after(Duration.ofMillis(1));
        Thread t = Timers.thread();
        assertNotNull(t);
        assertNotNull(c.poll(Threads.TIMEOUT_NANOS, TimeUnit.NANOSECONDS));
        assertEquals(0, Timers.queued());
        Threads.until("the thread starts its idle wait", () -> t.getState() == Thread.State.TIMED_WAITING
                && LockSupport.getBlocker(t) != null && !Timers.lock().hasQueuedThread(t));
        return t;
    }

    @SuppressWarnings("unchecked")
    private static Chan<Instant>[] newChanHolder() {
        return (Chan<Instant>[]) new Chan<?>[1];
    }
}
