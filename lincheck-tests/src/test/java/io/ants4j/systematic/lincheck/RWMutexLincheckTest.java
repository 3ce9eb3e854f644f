package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.RWMutex;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link RWMutex}'s operations that never wait: {@code readLock().tryLock()},
 * {@code readLock().unlock()}, {@code writeLock().tryLock()}, {@code writeLock().unlock()} and
 * {@code readers()}. Proves: a read {@code tryLock} succeeds if and only if no writer held the
 * lock at one instant of the call, a write {@code tryLock} if and only if nobody held it; an
 * unlock by any thread releases one hold of its kind, and an unlock of a kind not held throws
 * {@link IllegalMonitorStateException} and changes nothing; {@code readers()} is a count that
 * existed. The random scenarios run every operation in any thread, writers' included;
 * {@link #concurrentWriters} adds the two scenarios in which a write {@code tryLock()} used to fail
 * on a free lock.
 */
public class RWMutexLincheckTest {
    private final RWMutex rw = new RWMutex();

    @Operation
    public boolean readTryLock() {
        return rw.readLock().tryLock();
    }

    @Operation
    public void readUnlock() {
        rw.readLock().unlock();
    }

    @Operation
    public boolean writeTryLock() {
        return rw.writeLock().tryLock();
    }

    @Operation
    public void writeUnlock() {
        rw.writeLock().unlock();
    }

    @Operation
    public int readers() {
        return rw.readers();
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(3)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    /**
     * The write operations in two threads at once, in the two scenarios where a
     * {@code writeLock().tryLock()} failed on a free lock (as Go's {@code TryLock} does) because
     * another thread held the inner {@code Mutex} for a moment: a {@code writeLock().tryLock()}
     * that fails for a reader, and a {@code writeLock().unlock()} between its release of the word
     * and that of the inner {@code Mutex}. Found by this test.
     */
    @Test
    void concurrentWriters() throws NoSuchMethodException {
        ExecutionScenario failingWriter = new ExecutionScenario(
                List.of(),
                List.of(List.of(actor("readTryLock"), actor("writeTryLock")),
                        List.of(actor("readUnlock"), actor("writeTryLock"))),
                List.of(),
                null);
        ExecutionScenario unlockingWriter = new ExecutionScenario(
                List.of(actor("writeTryLock")),
                List.of(List.of(actor("writeUnlock")),
                        List.of(actor("readTryLock"), actor("readUnlock"), actor("writeTryLock"))),
                List.of(),
                null);
        LincheckBudget.modelChecking(0, 1_000).addCustomScenario(failingWriter).addCustomScenario(unlockingWriter)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    private static Actor actor(String operation) throws NoSuchMethodException {
        return new Actor(RWMutexLincheckTest.class.getMethod(operation), List.of());
    }

    /** The sequential read-write lock: a number of readers or a writer. */
    public static final class Spec {
        private int readers;
        private boolean writer;

        public boolean readTryLock() {
            if (writer) {
                return false;
            }
            readers++;
            return true;
        }

        public void readUnlock() {
            if (readers == 0) {
                throw new IllegalMonitorStateException();
            }
            readers--;
        }

        public boolean writeTryLock() {
            if (writer || readers != 0) {
                return false;
            }
            writer = true;
            return true;
        }

        public void writeUnlock() {
            if (!writer) {
                throw new IllegalMonitorStateException();
            }
            writer = false;
        }

        public int readers() {
            return readers;
        }
    }
}
