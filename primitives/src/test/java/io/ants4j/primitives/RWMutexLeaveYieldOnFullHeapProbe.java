package io.ants4j.primitives;

import java.lang.reflect.Field;
import java.time.Duration;

/**
 * Run in a JVM of its own with a small heap ({@link AVirtualReaderThatCannotQueueOnAFullHeapLeavesNoReadHoldTest}).
 * A virtual reader behind a writer cannot allocate its queue node (full heap) and leaves ({@code RWMutex.leave}
 * with no node) just as the writer's unlock has counted it in (its CAS) and is about to grant it, on readerSem's
 * queue lock, which this thread holds meanwhile. {@code leave} then waits for that grant with {@code Thread.yield()}
 * (RWMutex.java ~416), which on a virtual thread on a full heap throws {@code OutOfMemoryError}: the reader's
 * {@code lock()} throws, and the writer's grant becomes a stored permit with the reader still counted, a read hold
 * nobody has; no writer gets the lock again. Reader and writer race for the queue lock once this thread lets it
 * go; a round the writer wins ends cleanly, and the probe tries again. Prints {@code OK} if no round leaves a read
 * hold behind, with how many rounds the reader threw.
 */
final class RWMutexLeaveYieldOnFullHeapProbe {
    private static final int ROUNDS = 20;
    private static final long WAIT_NANOS = Duration.ofSeconds(10).toNanos();
    private static final long COUNT_IN_NANOS = Duration.ofMillis(20).toNanos();

    private static volatile boolean go;
    private static volatile boolean unlockNow;
    private static volatile boolean ended;
    private static volatile boolean acquired;
    private static volatile Throwable thrown;

    private RWMutexLeaveYieldOnFullHeapProbe() {
    }

    public static void main(String[] args) throws Exception {
        Field readerSemField = RWMutex.class.getDeclaredField("readerSem");
        readerSemField.setAccessible(true);
        int readerThrew = 0;
        for (int round = -1; round < ROUNDS; round++) { // round -1 runs every call site once, the heap not full
            go = false;
            unlockNow = false;
            ended = false;
            acquired = false;
            thrown = null;
            RWMutex rw = new RWMutex();
            SpinLock queueLock = ((Sema) readerSemField.get(rw)).queue.lock;
            rw.writeLock().lock();
            Thread reader = Thread.ofVirtual().start(() -> {
                while (!go) {
                    Thread.onSpinWait();
                }
                try {
                    rw.readLock().lock();
                    acquired = true;
                } catch (Throwable t) {
                    thrown = t;
                }
                ended = true;
            });
            Thread writer = Thread.ofPlatform().daemon(true).start(() -> {
                while (!unlockNow) {
                    Thread.onSpinWait();
                }
                rw.writeLock().unlock();
            });
            rw.readers(); // run once before the heap is full
            queueLock.lock();
            if (round >= 0) {
                LifecycleFill.fill();
            }
            go = true;
            long until = System.nanoTime() + COUNT_IN_NANOS; // the reader counts itself in
            while (System.nanoTime() - until < 0L) {
                Thread.onSpinWait();
            }
            unlockNow = true;
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (rw.readers() != 1 && System.nanoTime() - deadline < 0L) { // the writer's CAS counted the reader
                Thread.onSpinWait();
            }
            queueLock.unlock();
            while (!ended && System.nanoTime() - deadline < 0L) {
                Thread.onSpinWait();
            }
            LifecycleFill.free();
            boolean readerEnded = reader.join(Duration.ofSeconds(10));
            boolean writerEnded = writer.join(Duration.ofSeconds(10));
            if (acquired) {
                rw.readLock().unlock();
            } else if (thrown instanceof OutOfMemoryError && round >= 0) {
                readerThrew++;
            }
            boolean writable = rw.writeLock().tryLock();
            if (!(readerEnded && writerEnded && writable)) {
                System.out.println("FAILED: round " + round + ": a virtual reader whose node could not be allocated,"
                        + " leaving while the writer's unlock was granting it: reader ended " + readerEnded
                        + ", acquired " + acquired + ", threw " + thrown + "; writer ended " + writerEnded
                        + "; afterwards the write lock is free: " + writable + " " + rw);
                System.exit(0);
            }
            rw.writeLock().unlock();
        }
        System.out.println("rounds where the reader threw: " + readerThrew + " of " + ROUNDS);
        System.out.println("OK");
        System.exit(0);
    }

    /** Fills the heap and lets it go, as {@link OutOfMemoryProbe}. */
    private static final class LifecycleFill {
        static void fill() {
            OutOfMemoryProbe.fillHeap();
        }

        static void free() {
            OutOfMemoryProbe.releaseHeap();
        }
    }
}
