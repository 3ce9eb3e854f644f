package io.ants4j.stress.primitives;

import io.ants4j.primitives.RWMutex;
import io.ants4j.stress.support.Helper;
import io.ants4j.stress.support.Spin;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * RWMutex writer preference: with a reader inside and a writer waiting for it, a new reader's
 * tryLock() fails, also while the first reader leaves and the writer goes in (the writer keeps
 * the lock until the arbiter lets it go), and a new reader that waits gets in after the writer.
 */
@JCStressTest
@Description("RWMutex: a pending writer holds back new readers, racing the last reader's unlock.")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "The new reader was held back; the writer got the lock; the waiting reader came after it; consistent.")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "A new reader got in past the pending (or holding) writer.")
@Outcome(expect = FORBIDDEN, desc = "The writer or the waiting reader never got the lock, or the lock is corrupt afterwards.")
@State
public class RWMutexWriterPreferenceTest {

    final RWMutex rw = new RWMutex();
    final CountDownLatch letGo = new CountDownLatch(1);
    final Thread writer;
    volatile int writerResult = -1;
    volatile boolean writerDone;
    Thread waitingReader;
    volatile int waitingReaderResult = -1;

    public RWMutexWriterPreferenceTest() {
        rw.readLock().lock();
        writer = Helper.start(() -> {
            try {
                if (rw.writeLock().tryLock(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                    try {
                        writerResult = rw.readers() == 0 && letGo.await(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS) ? 1 : 0;
                        writerDone = true;
                    } finally {
                        rw.writeLock().unlock();
                    }
                } else {
                    writerResult = 0;
                }
            } catch (InterruptedException e) {
                writerResult = 2;
            }
        });
        Locks.until(rw, "writer pending");
    }

    @Actor
    public void lastReaderLeaves() {
        rw.readLock().unlock();
    }

    @Actor
    public void newReader(IIII_Result r) {
        if (rw.readLock().tryLock()) {
            rw.readLock().unlock();
            r.r1 = 1;
        }
        waitingReader = Helper.start(() -> {
            try {
                if (rw.readLock().tryLock(Spin.PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                    waitingReaderResult = writerDone ? 1 : 0;
                    rw.readLock().unlock();
                } else {
                    waitingReaderResult = 0;
                }
            } catch (InterruptedException e) {
                waitingReaderResult = 2;
            }
        });
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        letGo.countDown();
        r.r2 = Helper.join(writer) ? writerResult : 0;
        r.r3 = Helper.join(waitingReader) ? waitingReaderResult : 0;
        r.r4 = Locks.consistent(rw) ? 1 : 0;
    }
}
