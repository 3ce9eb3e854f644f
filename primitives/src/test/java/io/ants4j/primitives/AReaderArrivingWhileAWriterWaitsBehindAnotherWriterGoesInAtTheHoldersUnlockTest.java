package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * RWMutex's class javadoc: "once a writer is next in line for the write lock (it holds it, or waits for the readers
 * in to leave), new readers block until that writer has had the lock ... The readers that arrive while a writer is
 * next in line or holds the lock go in together when it unlocks, before the writers queued behind it: a writer that
 * waits while another holds the write lock holds no reader back until its turn" (Go's: its RWMutex promises writer
 * preference against a lock held by readers). W0 holds the write lock, W1 then waits for it, a reader R arrives
 * after W1: W0's unlock lets R in before W1, which waits for R to leave. Review 41 found the javadoc saying "once a
 * thread waits for the write lock, new readers block" (this test, first written to show that broken); the javadoc
 * now says which writer holds readers back.
 */
class AReaderArrivingWhileAWriterWaitsBehindAnotherWriterGoesInAtTheHoldersUnlockTest {

    @Test
    void aReaderArrivingWhileAWriterWaitsBehindAnotherWriterGoesInBeforeThatWriter() throws Exception {
        RWMutex rw = new RWMutex();
        rw.writeLock().lock(); // W0: this thread

        CompletableFuture<String> w1Got = new CompletableFuture<>();
        CountDownLatch w1MayUnlock = new CountDownLatch(1);
        Thread w1 = Thread.ofPlatform().daemon().name("W1").start(() -> {
            rw.writeLock().lock();
            w1Got.complete("W1");
            try {
                w1MayUnlock.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                rw.writeLock().unlock();
            }
        });
        Threads.untilParked(w1); // W1 waits for the write lock

        CompletableFuture<String> rGot = new CompletableFuture<>();
        CountDownLatch rMayUnlock = new CountDownLatch(1);
        Thread r = Thread.ofPlatform().daemon().name("R").start(() -> {
            rw.readLock().lock(); // a new reader, arriving while W1 waits
            rGot.complete("R");
            try {
                rMayUnlock.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                rw.readLock().unlock();
            }
        });
        Threads.untilParked(r);
        assertFalse(w1Got.isDone() || rGot.isDone(), "setup: W0 still holds the write lock");

        rw.writeLock().unlock(); // W0 leaves

        String first = (String) CompletableFuture.anyOf(w1Got, rGot).get(20, TimeUnit.SECONDS);
        boolean w1WaitsBehindR = "R".equals(first) && !w1Got.isDone();
        // clean up either way
        rMayUnlock.countDown();
        w1MayUnlock.countDown();
        assertTrue(w1.join(java.time.Duration.ofSeconds(20)) && r.join(java.time.Duration.ofSeconds(20)),
                "cleanup: W1 or R did not finish");
        assertTrue(w1WaitsBehindR, "W0's unlock let in " + first + " first; the reader that arrived behind the waiting"
                + " W1 should go in at W0's unlock, and W1 wait for it");
        assertTrue(rw.writeLock().tryLock(), "the lock is not free at the end: " + rw);
        rw.writeLock().unlock();
    }
}
