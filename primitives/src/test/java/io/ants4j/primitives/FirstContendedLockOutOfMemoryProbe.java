package io.ants4j.primitives;

import static io.ants4j.primitives.FirstRunOutOfMemoryProbe.waiterOnHeldMutex;
import static io.ants4j.primitives.FirstRunOutOfMemoryProbe.waiterOnOpenRound;
import static io.ants4j.primitives.FirstRunOutOfMemoryProbe.where;

import java.lang.reflect.Field;
import java.time.Duration;

/**
 * Run in a JVM of its own with a small heap ({@link FirstContendedLockOutOfMemoryTest}): the first contended
 * {@link SpinLock#lock()} of the JVM comes after its caller changed a primitive's state, on a full heap.
 * {@code SpinLock}'s class initialization links {@code lock()}'s CAS and {@code unlock()}'s call sites, but a
 * contended {@code lock()} spins on {@code tryLock()}, whose {@code getAcquire} call site nothing links: its first
 * run allocates. Prints {@code OK} if the waiter got what the state change gave it.
 * <ul>
 *   <li>{@code mutex-unlock}: a {@link Mutex} held, a waiter parked on it; its queue's {@code SpinLock} is held by
 *       another thread (a waiter enqueueing or leaving, as it happens) while the holder unlocks on a full heap.
 *       {@code unlock} has cleared LOCKED when it takes the queue's lock to wake the waiter.</li>
 *   <li>{@code waitgroup-done}: a {@link WaitGroup} counting one task, a waiter parked in {@code await}; its queue's
 *       lock held while the {@code done()} that ends the round runs on a full heap. {@code done} has counted down
 *       to zero when it takes the queue's lock to release the round.</li>
 *   <li>{@code taskgroup-slot}: a {@link TaskGroup} with a limit of one; its task leaves the heap full as it
 *       returns, while the group's lock is held a moment (a submitter, as it happens). The returning member marks
 *       its slot given back, then takes the group's lock to give it back: afterwards a slot must be free.</li>
 * </ul>
 * A name ending in {@code -virtual} makes the call in a virtual thread (it is stripped first, so
 * {@code mutex-unlock-linked-virtual} is the linked case in a virtual thread). A name ending in {@code -linked} first
 * runs an uncontended {@code tryLock()} of another {@code SpinLock} with
 * memory to spare (the control: the call site linked).
 */
final class FirstContendedLockOutOfMemoryProbe {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** How long the unlocking thread is given to fail before the queue's lock is let go. */
    private static final Duration SPIN = Duration.ofSeconds(2);

    private FirstContendedLockOutOfMemoryProbe() {
    }

    /** Whether the call under test runs in a virtual thread. */
    private static boolean virtual;
    /** How the contended lock() ran, for the report. */
    private static String how = "the JVM's first contended SpinLock.lock()";

    public static void main(String[] args) throws Exception {
        String probe = args[0];
        if (probe.endsWith("-virtual")) {
            virtual = true;
            probe = probe.substring(0, probe.length() - "-virtual".length());
        }
        String thread = virtual ? ", in a virtual thread" : "";
        if (probe.endsWith("-linked")) {
            how = "a contended SpinLock.lock(), tryLock linked first";
            new SpinLock().tryLock();
            probe = probe.substring(0, probe.length() - "-linked".length());
        }
        String result = switch (probe) {
            case "mutex-unlock" -> mutexUnlock();
            case "waitgroup-done" -> waitGroupDone();
            case "taskgroup-slot" -> taskGroupSlot();
            default -> "unknown probe " + args[0];
        };
        System.out.println(result.replace("the JVM's first contended SpinLock.lock()", how + thread));
        System.exit(0);
    }

    private static String mutexUnlock() throws Exception {
        Mutex lock = new Mutex();
        Thread waiter = waiterOnHeldMutex(lock);
        if (waiter == null) {
            return "the waiter never parked: " + lock;
        }
        SpinLock queueLock = ((Sema) field(lock, "sema")).queue.lock;
        Throwable thrown = whileHeld(queueLock, lock::unlock);
        boolean woken = waiter.join(WAIT);
        return woken ? "OK" : "FAILED: unlock() on a full heap, with its queue's lock held a moment (the JVM's first "
                + "contended SpinLock.lock()), threw " + where(thrown) + "; the waiter got the lock: " + woken
                + ", " + lock + " (free, with a waiter parked for good)";
    }

    private static String waitGroupDone() throws Exception {
        WaitGroup wg = new WaitGroup();
        Thread waiter = waiterOnOpenRound(wg);
        if (waiter == null) {
            return "the waiter never parked: " + wg;
        }
        SpinLock queueLock = ((WaitQueue) field(wg, "queue")).lock;
        Throwable thrown = whileHeld(queueLock, wg::done);
        boolean woken = waiter.join(WAIT);
        return woken ? "OK" : "FAILED: the done() that ends the round, on a full heap with its queue's lock held a "
                + "moment (the JVM's first contended SpinLock.lock()), threw " + where(thrown)
                + "; the waiter returned: " + woken + ", " + wg;
    }

    private static String taskGroupSlot() throws Exception {
        Thread[] runner = new Thread[1];
        TaskGroup<Object> group = TaskGroup.create(1, task -> runner[0] = Thread.ofPlatform().daemon(true).start(task));
        SpinLock groupLock = (SpinLock) field(group, "lock");
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        group.go(() -> {
            held.await();
            OutOfMemoryProbe.fillHeap(); // the task leaves the heap full behind it
            return "done";
        });
        groupLock.lock();
        try {
            held.countDown();
            long until = System.nanoTime() + SPIN.toNanos();
            while (runner[0].isAlive() && System.nanoTime() - until < 0L) {
                Thread.onSpinWait();
            }
        } finally {
            groupLock.unlock();
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (runner[0].isAlive() && System.nanoTime() - deadline < 0L) {
            Thread.onSpinWait();
        }
        OutOfMemoryProbe.releaseHeap();
        boolean ended = !runner[0].isAlive();
        java.util.Optional<?> again = group.tryGo(() -> "again");
        return again.isPresent() ? "OK" : "FAILED: the task of a TaskGroup with a limit of 1 returned on a full heap, "
                + "with the group's lock held a moment (the JVM's first contended SpinLock.lock()); its thread ended: "
                + ended + "; tryGo afterwards found no free slot: " + group;
    }

    /**
     * Holds {@code held} while a new thread fills the heap and runs {@code call}; lets go once that thread has
     * ended or after {@link #SPIN} (it then spins on the lock, its call sites linked), then waits for it. Returns
     * what the call threw, or null.
     */
    private static Throwable whileHeld(SpinLock held, Runnable call) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        held.lock();
        Thread t;
        try {
            t = (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true)).start(() -> {
                OutOfMemoryProbe.fillHeap();
                try {
                    call.run();
                } catch (Throwable e) {
                    OutOfMemoryProbe.releaseHeap();
                    thrown[0] = e;
                }
                OutOfMemoryProbe.releaseHeap();
            });
            t.join(SPIN);
        } finally {
            held.unlock();
        }
        boolean ended = t.join(WAIT);
        OutOfMemoryProbe.releaseHeap();
        return ended ? thrown[0] : new IllegalStateException("the call did not end within " + WAIT);
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        Field f = target.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
    }
}
