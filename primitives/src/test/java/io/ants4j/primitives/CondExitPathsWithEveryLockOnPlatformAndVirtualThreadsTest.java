package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Review 49 probe: every ordinary exit path of {@link Cond} with every kind of lock, on platform and virtual
 * threads. Cond.java:96-100 ("re-acquires the lock before returning or throwing"; "@throws InterruptedException if
 * the thread is interrupted before being signalled [...] the lock is held again when it is thrown"); Cond.java:40-44
 * ("a waiter chosen first returns normally, with its interrupt status set if it was interrupted too");
 * Cond.java:146-147 (awaitUninterruptibly: "the interrupt status is set again when it returns"); Cond.java:130
 * ("false if the timeout elapsed first"). Each case reports what the waiter saw: the outcome, whether it held the
 * lock, and its interrupt status. Passes (kept as a regression probe).
 */
@Timeout(60)
class CondExitPathsWithEveryLockOnPlatformAndVirtualThreadsTest {

    private record Subject(Lock lock, BooleanSupplier heldByCaller) {
        static Subject of(String kind) {
            return switch (kind) {
                case "spin" -> {
                    SpinLock l = new SpinLock();
                    yield new Subject(l, l::isLocked);
                }
                case "mutex" -> {
                    Mutex l = new Mutex();
                    yield new Subject(l, l::isLocked);
                }
                case "rwmutex" -> {
                    RWMutex m = new RWMutex();
                    Lock w = m.writeLock();
                    yield new Subject(w, () -> !w.tryLock() || unlockAnd(w));
                }
                case "reentrant" -> {
                    ReentrantLock l = new ReentrantLock();
                    yield new Subject(l, l::isHeldByCurrentThread);
                }
                default -> {
                    ReentrantReadWriteLock.WriteLock w = new ReentrantReadWriteLock().writeLock();
                    yield new Subject(w, w::isHeldByCurrentThread);
                }
            };
        }

        private static boolean unlockAnd(Lock l) {
            l.unlock();
            return false;
        }
    }

    private static Thread.Builder builder(boolean virtual) {
        return virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true);
    }

    /** Runs {@code await} holding the lock; returns "outcome held=... interrupted=...". */
    private static Threads.Task<String> waiter(boolean virtual, Subject s, Cond cond, AwaitCall await) {
        return Threads.start(builder(virtual), () -> {
            s.lock().lock();
            String outcome;
            try {
                outcome = String.valueOf(await.call(cond));
            } catch (Throwable t) {
                outcome = t.getClass().getSimpleName();
            }
            String report = outcome + " held=" + s.heldByCaller().getAsBoolean()
                    + " interrupted=" + Thread.currentThread().isInterrupted();
            s.lock().unlock();
            return report;
        });
    }

    @FunctionalInterface
    private interface AwaitCall {
        Object call(Cond cond) throws Exception;
    }

    private static void untilWaiting(Threads.Task<String> t, Subject s) {
        Threads.until("the waiter waits", () -> {
            Thread.State st = t.thread().getState();
            return (st == Thread.State.WAITING || st == Thread.State.TIMED_WAITING) && s.lock().tryLock() && unlock(s);
        });
    }

    private static boolean unlock(Subject s) {
        s.lock().unlock();
        return true;
    }

    @ParameterizedTest
    @CsvSource({"spin,false", "spin,true", "mutex,false", "mutex,true", "rwmutex,false", "rwmutex,true",
            "reentrant,false", "reentrant,true", "jdkwrite,false", "jdkwrite,true"})
    void interruptedBeforeASignalThrowsHoldingTheLockWithTheStatusCleared(String kind, boolean virtual) {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        Threads.Task<String> t = waiter(virtual, s, cond, c -> c.await(10, TimeUnit.SECONDS));
        untilWaiting(t, s);
        t.thread().interrupt();
        assertEquals("InterruptedException held=true interrupted=false", Threads.get(t));
    }

    @ParameterizedTest
    @CsvSource({"spin,false", "spin,true", "mutex,false", "mutex,true", "rwmutex,false", "rwmutex,true",
            "reentrant,false", "reentrant,true", "jdkwrite,false", "jdkwrite,true"})
    void signalledThenInterruptedReturnsTrueWithTheStatusSet(String kind, boolean virtual) {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        Threads.Task<String> t = waiter(virtual, s, cond, c -> c.await(10, TimeUnit.SECONDS));
        untilWaiting(t, s);
        s.lock().lock();
        cond.signal(); // chosen first
        t.thread().interrupt(); // then interrupted, before it can relock
        s.lock().unlock();
        assertEquals("true held=true interrupted=true", Threads.get(t));
    }

    @ParameterizedTest
    @CsvSource({"spin,false", "spin,true", "mutex,false", "mutex,true", "rwmutex,false", "rwmutex,true",
            "reentrant,false", "reentrant,true", "jdkwrite,false", "jdkwrite,true"})
    void anUninterruptibleWaitKeepsAnInterruptAndReturnsOnTheSignal(String kind, boolean virtual) {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        Threads.Task<String> t = waiter(virtual, s, cond, c -> {
            c.awaitUninterruptibly();
            return "returned";
        });
        untilWaiting(t, s);
        t.thread().interrupt();
        Threads.until("the interrupted waiter parks again", () -> t.thread().getState() == Thread.State.WAITING
                && !t.result().isDone());
        cond.signal();
        assertEquals("returned held=true interrupted=true", Threads.get(t));
    }

    @ParameterizedTest
    @CsvSource({"spin,false", "spin,true", "mutex,false", "mutex,true", "rwmutex,false", "rwmutex,true",
            "reentrant,false", "reentrant,true", "jdkwrite,false", "jdkwrite,true"})
    void aTimeoutReturnsFalseHoldingTheLockAndTakesNoLaterSignal(String kind, boolean virtual) {
        Subject s = Subject.of(kind);
        Cond cond = new Cond(s.lock());
        assertEquals("false held=true interrupted=false",
                Threads.get(waiter(virtual, s, cond, c -> c.await(1, TimeUnit.MILLISECONDS))));
        Threads.Task<String> t = waiter(virtual, s, cond, c -> c.await(10, TimeUnit.SECONDS));
        untilWaiting(t, s);
        cond.signal(); // must reach the waiter, not the node of the one that timed out
        assertEquals("true held=true interrupted=false", Threads.get(t));
    }
}
