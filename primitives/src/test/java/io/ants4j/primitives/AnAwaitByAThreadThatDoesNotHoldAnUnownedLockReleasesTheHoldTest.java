package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Cond#await()}: this library's locks record no owner, so an await by a thread that does not hold the lock
 * while another thread does cannot be told from a rightful one: the misuser's unlock releases the other thread's
 * hold, it waits, and it takes the lock for itself, as the javadoc says (review 47 found the javadoc promising an
 * {@code IllegalMonitorStateException} there). Here the holder is a thread that locked and is still in its
 * critical section; the misusing thread's {@code await(0)} returns false holding the lock.
 */
@Timeout(60)
class AnAwaitByAThreadThatDoesNotHoldAnUnownedLockReleasesTheHoldTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SpinLock", "Mutex", "RWMutex.writeLock"})
    void anAwaitOfAThreadThatDoesNotHoldTheLockReleasesTheHoldersHoldAndTakesTheLock(String kind) throws Exception {
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
        assertEquals(Boolean.FALSE, outcome.get(), "the await of a thread that does not hold the " + kind
                + " (another thread does)");
        assertFalse(lock.tryLock(), "the misuser took the lock when its await returned, and still holds it");
    }
}
