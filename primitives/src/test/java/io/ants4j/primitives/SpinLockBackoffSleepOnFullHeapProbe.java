package io.ants4j.primitives;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM of its own with a small heap ({@link AVirtualSpinLockWaiterOnAFullHeapTakesTheLockOnceFreeTest}).
 * A thread waits in {@link SpinLock#lock()} for a lock this thread holds; a virtual one reaches its backoff cap and
 * sleeps 20 us between attempts ({@code LockSupport.parkNanos}). Then the heap is full for a moment and let go again,
 * twenty times, and the lock is released. The wake-up of a virtual thread's timed park is a task the JDK's timer runs; on a
 * full heap that task's unpark cannot allocate the continuation's scheduling task ({@code ForkJoinTask.adapt}), its
 * {@code OutOfMemoryError} is swallowed by the timer's {@code ForkJoinTask.doExec}, and the virtual thread stays
 * parked for good: nothing else unparks a {@code SpinLock} waiter, so its {@code lock()} never returns, though the
 * lock is free and memory is back. Prints {@code OK} if the waiter took the lock in each of {@link #ROUNDS} rounds.
 * {@code platform}: the waiter is a platform thread, which only yields (the control); {@code virtual}.
 */
final class SpinLockBackoffSleepOnFullHeapProbe {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long FULL_NANOS = Duration.ofMillis(1).toNanos();
    private static final int FULL_TIMES = 20;
    private static final int ROUNDS = 3;

    private static volatile boolean acquired;

    private SpinLockBackoffSleepOnFullHeapProbe() {
    }

    public static void main(String[] args) throws Exception {
        boolean virtual = args[0].equals("virtual");
        for (int round = 0; round < ROUNDS; round++) {
            acquired = false;
            SpinLock lock = new SpinLock();
            lock.lock();
            Thread waiter = (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true)).start(() -> {
                lock.lock();
                acquired = true;
                lock.unlock();
            });
            long deadline = System.nanoTime() + WAIT.toNanos();
            // a virtual waiter at its backoff cap sleeps between attempts; a platform one keeps yielding
            while (virtual ? LockSupport.getBlocker(waiter) != lock : waiter.getState() != Thread.State.RUNNABLE) {
                if (System.nanoTime() - deadline > 0L) {
                    System.out.println("setup: the waiter never reached its backoff cap");
                    System.exit(0);
                }
                Thread.yield();
            }
            for (int full = 0; full < FULL_TIMES; full++) { // a moment of full heap, again and again
                OutOfMemoryProbe.fillHeap();
                long until = System.nanoTime() + FULL_NANOS;
                while (System.nanoTime() - until < 0L) {
                    Thread.onSpinWait();
                }
                OutOfMemoryProbe.releaseHeap();
                until = System.nanoTime() + FULL_NANOS;
                while (System.nanoTime() - until < 0L) {
                    Thread.onSpinWait();
                }
            }
            lock.unlock();
            boolean ended = waiter.join(WAIT);
            if (!(ended && acquired)) {
                System.out.println("FAILED: round " + round + ": a " + (virtual ? "virtual" : "platform")
                        + " thread in SpinLock.lock(), whose lock was free and the heap let go again after a moment"
                        + " full, took the lock within " + WAIT + ": " + acquired + "; the lock " + lock
                        + "; the waiter " + waiter.getState()); // no getStackTrace: it waits for a thread never run
                System.exit(0);
            }
        }
        System.out.println("OK");
        System.exit(0);
    }
}
