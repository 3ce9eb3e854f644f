package io.ants4j.primitives;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Run in a JVM of its own with one carrier for virtual threads
 * ({@link AVirtualHolderIsNotStarvedBySpinnersOfALargeBackoffSpinLockTest}). A virtual thread takes a
 * {@link SpinLock} of the given {@code maxBackoff} and is unmounted inside its critical section (it waits on a
 * latch, as any blocking call would); a virtual spinner then calls {@code lock()}. The latch is opened from this
 * platform thread, so the holder's continuation is submitted to the scheduler from outside. Prints {@code OK} if
 * the holder finishes its critical section (and so the spinner gets the lock) within {@link #WAIT}.
 */
final class SpinLockLargeBackoffStarvationProbe {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static volatile boolean trying;

    private SpinLockLargeBackoffStarvationProbe() {
    }

    public static void main(String[] args) throws Exception {
        int maxBackoff = Integer.parseInt(args[0]);
        SpinLock lock = new SpinLock(maxBackoff);
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Thread holder = Thread.ofVirtual().start(() -> {
            lock.lock();
            held.countDown();
            try {
                go.await(); // unmounted inside the critical section
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lock.unlock();
        });
        held.await();
        Thread spinner = Thread.ofVirtual().start(() -> {
            trying = true;
            lock.lock();
            lock.unlock();
        });
        while (!trying) {
            Thread.onSpinWait();
        }
        go.countDown(); // the holder can go on: it needs a carrier, which the spinner has
        long start = System.nanoTime();
        boolean holderDone = holder.join(WAIT);
        boolean spinnerDone = holderDone && spinner.join(WAIT);
        long millis = (System.nanoTime() - start) / 1_000_000L;
        System.out.println(holderDone && spinnerDone ? "OK"
                : "FAILED: maxBackoff " + maxBackoff + ": the holder, unmounted inside its critical section, did not get"
                        + " a carrier back within " + millis + " ms while a virtual thread spun for the lock (holder done "
                        + holderDone + ", spinner done " + spinnerDone + ")");
        System.exit(0);
    }
}
