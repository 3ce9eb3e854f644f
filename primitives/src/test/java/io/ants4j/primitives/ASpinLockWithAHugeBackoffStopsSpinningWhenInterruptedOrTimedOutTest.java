package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SpinLock#lockInterruptibly()}: "Acquires the lock unless the current thread is interrupted, in which case it
 * stops spinning and throws"; {@link SpinLock#tryLock(long, TimeUnit)}: "if it becomes free within the given
 * waiting time", false "if the time elapsed first". A platform thread's backoff doubles up to {@code maxBackoff}
 * yields, which the constructor honours up to {@code Integer.MAX_VALUE}: after a few seconds of spinning one round of
 * yields lasts seconds, and the interrupt or the deadline must still end the wait within a fraction of that, not when
 * the round is over.
 */
@Timeout(120)
class ASpinLockWithAHugeBackoffStopsSpinningWhenInterruptedOrTimedOutTest {
    /** How long the waiter spins before the interrupt or its deadline: rounds of yields then last seconds. */
    private static final Duration SPUN = Duration.ofSeconds(8);
    /** The most the interrupt or the deadline may take to end the wait, far below a round's length. */
    private static final Duration PROMPT = Duration.ofSeconds(1);

    /**
     * The two waits spin side by side, each on a lock of its own, so that the build pays {@link #SPUN} once: the
     * interrupt comes to one when SPUN has passed, the other's deadline is SPUN after its call.
     */
    @Test
    void anInterruptAndADeadlineEachEndTheirSpinPromptly() throws Exception {
        SpinLock interruptedLock = new SpinLock(Integer.MAX_VALUE);
        SpinLock timedLock = new SpinLock(Integer.MAX_VALUE);
        interruptedLock.lock();
        timedLock.lock();
        AtomicReference<Throwable> interruptedOutcome = new AtomicReference<>();
        AtomicLong interruptedEndedAt = new AtomicLong();
        Thread interrupted = Thread.ofPlatform().start(() -> {
            try {
                interruptedLock.lockInterruptibly();
                interruptedOutcome.set(new AssertionError("acquired a held lock"));
            } catch (Throwable t) {
                interruptedOutcome.set(t);
            } finally {
                interruptedEndedAt.set(System.nanoTime());
            }
        });
        AtomicReference<Object> timedOutcome = new AtomicReference<>();
        AtomicLong deadline = new AtomicLong();
        AtomicLong timedEndedAt = new AtomicLong();
        Thread timed = Thread.ofPlatform().start(() -> {
            try {
                deadline.set(System.nanoTime() + SPUN.toNanos());
                timedOutcome.set(timedLock.tryLock(SPUN.toNanos(), TimeUnit.NANOSECONDS));
            } catch (Throwable t) {
                timedOutcome.set(t);
            } finally {
                timedEndedAt.set(System.nanoTime());
            }
        });
        letTimePass(SPUN);
        long interruptedAt = System.nanoTime();
        interrupted.interrupt();
        interrupted.join(TimeUnit.SECONDS.toMillis(60));
        timed.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(interrupted.isAlive(), "still spinning a minute after the interrupt");
        assertFalse(timed.isAlive(), "still spinning a minute after the call");
        assertTrue(interruptedOutcome.get() instanceof InterruptedException, "ended with " + interruptedOutcome.get());
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(interruptedEndedAt.get() - interruptedAt);
        assertTrue(tookMillis <= PROMPT.toMillis(), "the interrupt ended the spin only after " + tookMillis + " ms");
        assertTrue(Boolean.FALSE.equals(timedOutcome.get()), "tryLock ended with " + timedOutcome.get());
        long lateMillis = TimeUnit.NANOSECONDS.toMillis(timedEndedAt.get() - deadline.get());
        assertTrue(lateMillis <= PROMPT.toMillis(), "tryLock returned " + lateMillis + " ms after its deadline");
        interruptedLock.unlock();
        timedLock.unlock();
    }

    /** Lets {@code d} pass on this thread (no other thread is waited for: the waiter only has to spin meanwhile). */
    private static void letTimePass(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        for (long left; (left = end - System.nanoTime()) > 0L; ) {
            LockSupport.parkNanos(left);
        }
    }
}
