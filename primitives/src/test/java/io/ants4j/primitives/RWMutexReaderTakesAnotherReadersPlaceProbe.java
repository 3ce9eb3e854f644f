package io.ants4j.primitives;

import static io.ants4j.primitives.UnparkFailureProbe.parked;
import static io.ants4j.primitives.UnparkFailureProbe.startVirtual;
import static io.ants4j.primitives.UnparkFailureProbe.until;

import io.ants4j.primitives.MutexLostHandOffProbe.SwitchingScheduler;
import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own by {@link ANewReaderMayTakeThePlaceOfAReaderAnUnlockLetInTest} (a virtual thread on a scheduler
 * of the test's, which needs {@code --add-opens java.base/java.lang}); prints {@code OK} last, or {@code FAIL: }
 * and what went wrong.
 *
 * <p>{@code reader-takes-another-readers-place}: writer W1 holds the lock; reader R1 arrives, counts itself in and,
 * before it reaches readerSem's queue, is descheduled (here: its continuation is held by its scheduler while it
 * spins for readerSem's lock; on a real machine, any preemption at that point). W1 unlocks: the release meant for
 * R1 finds nobody queued and is stored. Writer W2 arrives, announces itself and waits for R1, which W1's unlock
 * let in. A new reader R2 comes now: its untimed {@code tryLock} fails (a writer waits), its timed one takes the
 * stored permit, R1's place, as the javadoc allows; R2's unlock then gives W2 the lock (it waited for one reader),
 * and R1, run on, waits for W2 and gets in at W2's unlock.
 */
final class RWMutexReaderTakesAnotherReadersPlaceProbe {
    private static final int MAX_READERS = 1 << 30;

    private RWMutexReaderTakesAnotherReadersPlaceProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> switch (args[0]) {
            case "reader-takes-another-readers-place" -> readerTakesAnotherReadersPlace();
            default -> "FAIL: unknown probe " + args[0];
        });
    }

    private static long state(RWMutex rw) throws ReflectiveOperationException {
        Field f = RWMutex.class.getDeclaredField("state");
        f.setAccessible(true);
        return f.getLong(rw);
    }

    private static Sema readerSem(RWMutex rw) throws ReflectiveOperationException {
        Field f = RWMutex.class.getDeclaredField("readerSem");
        f.setAccessible(true);
        return (Sema) f.get(rw);
    }

    private static int count(long s) {
        return (int) (s >> 32);
    }

    private static int waiting(long s) {
        return (int) s;
    }

    private static boolean stateIs(RWMutex rw, int count, int waiting) {
        try {
            long s = state(rw);
            return count(s) == count && waiting(s) == waiting;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static String readerTakesAnotherReadersPlace() throws Exception {
        RWMutex rw = new RWMutex();
        rw.writeLock().lock(); // W1 (this thread) holds the lock
        SpinLock readerSemLock = readerSem(rw).queue.lock;
        readerSemLock.lock(); // R1 will count itself in, then spin for readerSem's lock

        SwitchingScheduler scheduler = new SwitchingScheduler();
        CompletableFuture<String> r1Got = new CompletableFuture<>();
        Thread r1 = startVirtual(scheduler, () -> {
            rw.readLock().lock();
            r1Got.complete("acquired");
        });
        if (!until(() -> stateIs(rw, 1 - MAX_READERS, 0))) {
            return "FAIL: setup: R1 did not count itself in behind W1 (" + rw + ")";
        }
        scheduler.mode = SwitchingScheduler.HOLD; // R1's next yield (it spins for readerSem's lock) is held
        if (!until(() -> !scheduler.held.isEmpty())) {
            return "FAIL: setup: R1 was not descheduled";
        }
        readerSemLock.unlock();

        rw.writeLock().unlock(); // W1: lets R1 in; R1 has not queued, so its permit is stored

        CompletableFuture<String> w2Got = new CompletableFuture<>();
        Thread w2 = new Thread(() -> {
            rw.writeLock().lock();
            w2Got.complete("acquired");
        }, "W2");
        w2.setDaemon(true);
        w2.start();
        if (!until(() -> parked(w2) && stateIs(rw, 1 - MAX_READERS, 1))) {
            return "FAIL: setup: W2 did not announce itself and wait for R1 (" + rw + ", W2 " + w2.getState() + ")";
        }

        // R2, a new reader, while W2 waits for the write lock
        boolean untimed = rw.readLock().tryLock();
        boolean timed = rw.readLock().tryLock(1, TimeUnit.NANOSECONDS);
        boolean w2Waits = !w2Got.isDone();
        String seen = "tryLock() " + untimed + ", tryLock(1 ns) " + timed + ", W2 still waiting " + w2Waits
                + ", " + rw;
        System.out.println("R2 " + seen);
        if (untimed || !timed || !w2Waits) {
            return "FAIL: expected R2's tryLock() to fail and its tryLock(1 ns) to take R1's place while W2 waits ("
                    + seen + ")";
        }
        rw.readLock().unlock(); // R2 leaves in R1's stead: W2 waited for one reader
        if (!until(w2Got::isDone)) {
            return "FAIL: W2 did not get the write lock once the reader in had left (" + rw + ")";
        }
        scheduler.runHeld(); // R1 runs on: its place taken, it queues behind W2, which holds the lock now
        if (!until(() -> r1.getState() == Thread.State.WAITING) || r1Got.isDone()) {
            return "FAIL: R1 did not wait for W2 (" + rw + ", R1 " + r1Got.getNow("waiting") + ")";
        }
        rw.writeLock().unlock(); // W2's unlock (not owned: any thread may unlock) lets R1 in
        if (!until(r1Got::isDone)) {
            return "FAIL: R1 did not get in at W2's unlock (" + rw + ")";
        }
        rw.readLock().unlock();
        return rw.writeLock().tryLock() ? "OK" : "FAIL: the lock is not free at the end (" + rw + ")";
    }
}
