package io.ants4j.primitives;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Run in a JVM of its own ({@link ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewTest}), with
 * {@code --add-opens java.base/java.lang} for {@link UnparkFailureProbe#startVirtual}. A Cond waiter ("failing")
 * whose unlock throws, and whose node a signal took in that window (so it passes the signal on to the next waiter),
 * while the next waiter is a virtual thread whose scheduler refuses it (its unpark throws
 * {@link RejectedExecutionException}, JDK 25's stand-in for JDK 21's {@code OutOfMemoryError}). Prints {@code OK}
 * if the failing await throws what its unlock threw, else {@code FAIL: } and what it threw.
 * <ul>
 *   <li>{@code misuse}: the caller does not hold the {@code ReentrantLock}: its unlock throws
 *       {@code IllegalMonitorStateException} before releasing anything;
 *   <li>{@code released}: the caller holds it once; its unlock releases and then throws an
 *       {@code IllegalStateException} (Cond relocks).
 * </ul>
 */
final class ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewProbe {
    private ACondWaitWhoseUnlockThrowsThrowsWhatItsUnlockThrewProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> run(args[0].equals("misuse")));
    }

    private static String run(boolean misuse) throws Exception {
        CountDownLatch failingUnlocking = new CountDownLatch(1);
        CountDownLatch signalSent = new CountDownLatch(1);
        ReentrantLock lock = new ReentrantLock() {
            @Override
            public void unlock() {
                if (Thread.currentThread().getName().equals("failing") && failingUnlocking.getCount() > 0) {
                    if (!misuse) {
                        super.unlock(); // released: the next waiter can take the lock and queue
                    }
                    failingUnlocking.countDown();
                    try {
                        signalSent.await(); // queued on the Cond: held here until the signal has taken its node
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    if (!misuse) {
                        throw new IllegalStateException("injected: unlock failed after releasing");
                    }
                }
                super.unlock(); // misuse: throws IllegalMonitorStateException
            }
        };
        Cond cond = new Cond(lock);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread failing = new Thread(() -> {
            if (!misuse) {
                lock.lock();
            }
            try {
                cond.await(5, TimeUnit.SECONDS);
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "failing");
        failing.setDaemon(true);
        failing.start();
        if (!failingUnlocking.await(5, TimeUnit.SECONDS)) {
            return "FAIL: the failing waiter did not reach its unlock";
        }
        UnparkFailureProbe.RejectingScheduler scheduler = new UnparkFailureProbe.RejectingScheduler();
        Thread next = UnparkFailureProbe.startVirtual(scheduler, () -> {
            lock.lock();
            try {
                cond.await();
            } catch (InterruptedException e) {
                // not expected
            } finally {
                lock.unlock();
            }
        });
        if (!UnparkFailureProbe.until(() -> UnparkFailureProbe.parked(next) && !lock.isLocked())) {
            return "FAIL: the next waiter did not park in await";
        }
        scheduler.reject = true;
        cond.signal(); // takes the head: the failing waiter's node
        signalSent.countDown();
        failing.join(5_000);
        if (failing.isAlive()) {
            return "FAIL: the failing waiter did not return";
        }
        Throwable t = thrown.get();
        Class<?> expected = misuse ? IllegalMonitorStateException.class : IllegalStateException.class;
        if (t == null || t.getClass() != expected) {
            return "FAIL: the failing await threw " + t + " (suppressed: "
                    + (t == null ? "-" : java.util.Arrays.toString(t.getSuppressed()))
                    + ") instead of the " + expected.getSimpleName() + " its unlock threw"
                    + (misuse ? "" : "; lock held again: " + lock.isLocked());
        }
        Throwable[] suppressed = t.getSuppressed();
        if (suppressed.length != 1 || !(suppressed[0] instanceof RejectedExecutionException)) {
            return "FAIL: the failure to pass the signal on is not attached to what the unlock threw: suppressed "
                    + java.util.Arrays.toString(suppressed);
        }
        return "OK";
    }
}
