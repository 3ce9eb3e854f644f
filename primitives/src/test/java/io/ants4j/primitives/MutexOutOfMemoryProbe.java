package io.ants4j.primitives;

import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own with a small heap by {@link MutexTest}: a thread fills the heap, then
 * calls {@code lock()} on a held {@link Mutex} with a waiter already parked. It spins first, taking
 * WOKEN, and then fails to allocate its node. Prints {@code OK} if the OutOfMemoryError came out
 * of {@code lock()}, left the state as it was, and the parked waiter still gets the lock when the
 * holder unlocks (a WOKEN left behind would make unlock() wake nobody).
 */
final class MutexOutOfMemoryProbe {
    private static volatile Object[] hog;
    private static volatile Throwable thrown;

    private MutexOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        Mutex lock = new Mutex();
        lock.lock();
        Thread waiter = Thread.ofPlatform().start(() -> {
            lock.lock();
            lock.unlock();
        });
        while (!lock.toString().endsWith("waiters=1]")) {
            Thread.onSpinWait();
        }
        Thread victim = Thread.ofPlatform().start(() -> {
            fillHeap();
            try {
                lock.lock();
            } catch (OutOfMemoryError e) {
                hog = null;
                thrown = e;
            }
        });
        if (!victim.join(java.time.Duration.ofSeconds(60))) {
            System.out.println("victim hung");
            System.exit(1);
        }
        hog = null;
        if (!(thrown instanceof OutOfMemoryError)) {
            System.out.println("lock() did not throw OutOfMemoryError but " + thrown + "; " + lock);
            System.exit(1);
        }
        String state = lock.toString();
        lock.unlock();
        boolean woken = waiter.join(java.time.Duration.ofSeconds(20));
        boolean free = lock.tryLock(1, TimeUnit.SECONDS);
        System.out.println(state.endsWith("[locked, waiters=1]") && woken && free ? "OK" : "FAILED: state after the error "
                + state + ", waiter woken " + woken + ", lock free at the end " + free);
        System.exit(0);
    }

    /** Allocates until the heap is full, keeping everything reachable through {@link #hog}. */
    private static void fillHeap() {
        Object[] head = null;
        for (int size = 1 << 16; size > 0; size >>= 1) {
            try {
                for (;;) {
                    Object[] next = new Object[size];
                    next[0] = head;
                    head = next;
                }
            } catch (OutOfMemoryError e) {
                hog = head; // keep it; try smaller pieces
            }
        }
        hog = head;
    }
}
