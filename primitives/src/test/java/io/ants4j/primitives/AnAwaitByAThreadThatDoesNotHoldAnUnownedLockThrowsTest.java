package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cond.java:101-104, {@link Cond#await()} (and {@code await(timeout)} "as await()"): "@throws
 * IllegalMonitorStateException (or whatever the lock's unlock throws) if the calling thread does not hold the lock
 * [...]; the thread is then not left waiting and its holds are unchanged"; SpinLock.java:226-227 and
 * Mutex.java:269-271, newCondition: "Signalling does not require holding the lock; awaiting does"; and
 * {@link java.util.concurrent.locks.Lock#newCondition()}: "Before waiting on the condition the lock must be held by
 * the current thread."
 *
 * <p>With this library's locks, which are not owned, a thread that does not hold the lock while another thread
 * does is not refused: its await releases the other thread's hold (the unlock succeeds), waits, and then takes the
 * lock for itself. Here the holder is a thread that locked and is still in its critical section; the misusing
 * thread's await(0) returns false, without the documented IllegalMonitorStateException, and the lock the holder
 * thinks it holds has been released and re-taken under it by the misuser.
 */
@Timeout(60)
class AnAwaitByAThreadThatDoesNotHoldAnUnownedLockThrowsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SpinLock", "Mutex", "RWMutex.writeLock"})
    void anAwaitOfAThreadThatDoesNotHoldTheLockThrowsIllegalMonitorStateException(String kind) throws Exception {
        Lock lock = switch (kind) {
            case "SpinLock" -> new SpinLock();
            case "Mutex" -> new Mutex();
            default -> new RWMutex().writeLock();
        };
        Condition condition = lock.newCondition();
        Thread holder = Thread.ofPlatform().start(lock::lock); // the holder, in its critical section (it stays held)
        holder.join(TimeUnit.SECONDS.toMillis(20));
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread misuser = Thread.ofPlatform().start(() -> {
            try {
                outcome.set(condition.await(0L, TimeUnit.NANOSECONDS));
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        misuser.join(TimeUnit.SECONDS.toMillis(20));
        assertEquals(false, misuser.isAlive(), "the misuser still waits");
        assertInstanceOf(IllegalMonitorStateException.class, outcome.get(),
                "the await of a thread that does not hold the " + kind + " (another thread does) "
                        + (outcome.get() instanceof Throwable ? "threw " : "returned ") + outcome.get()
                        + ": it released the holder's lock and took it for itself");
    }
}
