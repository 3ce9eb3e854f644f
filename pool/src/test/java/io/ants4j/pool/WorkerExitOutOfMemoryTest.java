package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A worker's way in and out of the pool running out of memory: the set of live workers failing to remove one
 * (a {@code ConcurrentHashMap} allocates a counter cell under contention, after it has unlinked the entry), and
 * the idle stack failing to grow in a revert. Every count is given back, the fast lane is free, the pool runs new
 * tasks and terminates. The failures are injected, through reflection, where the real structures allocate.
 */
class WorkerExitOutOfMemoryTest {
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The uncaught throwables of the pool's platform workers. */
    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private final ThreadFactory platform = Thread.ofPlatform().daemon(true)
            .uncaughtExceptionHandler((t, e) -> uncaught.add(e)).factory();

    private PoolCore pool(int cap, ThreadFactory factory) {
        return new PoolCore("exit-oom", cap, PoolOptions.builder().disablePurge(true).threadFactory(factory).build(),
                task -> ((Runnable) task).run(), new SpinningWorkers());
    }

    private static void replace(PoolCore core, String field, Object value) throws ReflectiveOperationException {
        Field f = PoolCore.class.getDeclaredField(field);
        f.setAccessible(true);
        f.set(core, value);
    }

    /** The pool runs a new task, then releases and terminates with every thread ended. */
    private static void worksAndTerminates(PoolCore core) throws InterruptedException {
        AtomicInteger ran = new AtomicInteger();
        assertTrue(core.dispatch((Runnable) ran::incrementAndGet, false, 0L));
        eventually("a new task runs", () -> ran.get() == 1, core::toString);
        core.release();
        assertTrue(core.awaitTermination(WAIT_NANOS), "not terminated: " + core);
        assertEquals(0, core.running(), core.toString());
    }

    /**
     * PoolCore's notes: a worker that cannot start gives its count back. When {@code Thread.start} fails,
     * startWorker takes the worker out of the live set first; a removal that runs out of memory skipped the
     * count, so the pool's capacity shrank by one for good and it could never terminate.
     */
    @Test
    void workerThatCannotStartGivesItsCountBackWhenTheLiveSetCannotRemoveIt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory startFails = r -> {
            if (calls.incrementAndGet() == 1) { // a thread that has run already: start() throws
                Thread done = Thread.ofPlatform().daemon(true).start(() -> { });
                try {
                    done.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return done;
            }
            return platform.newThread(r);
        };
        PoolCore core = pool(1, startFails);
        FailingLiveSet live = new FailingLiveSet(true);
        replace(core, "live", live);
        live.removalArmed.set(true);
        Throwable thrown = assertThrows(Throwable.class, () -> core.dispatch((Runnable) () -> { }, false, 0L));
        assertInstanceOf(OutOfMemoryError.class, thrown);
        assertEquals(0, core.running(), "the count of the worker that could not start: " + core);
        assertEquals(0, live.size(), "the worker that could not start is still listed live");
        worksAndTerminates(core);
    }

    /**
     * A worker's thread whose last action, leaving the live set, runs out of memory (worst case: before it is
     * removed) ends on that error with its count given back, whether it still held the count (it ended on an
     * unexpected error: here its revert could not grow the idle stack) or release had taken it: nothing counted
     * is left, and the dead worker still listed only gets a no-op interrupt from shutdownNow.
     */
    @Test
    void workerWhoseExitCannotLeaveTheLiveSetLeavesNoCountBehind() throws Exception {
        PoolCore core = pool(1, platform);
        FailingLiveSet live = new FailingLiveSet(false);
        replace(core, "live", live);
        FailingIdleStack idle = new FailingIdleStack();
        replace(core, "workers", idle);
        idle.armed.set(1);
        live.removalArmed.set(true);
        AtomicInteger ran = new AtomicInteger();
        assertTrue(core.dispatch((Runnable) ran::incrementAndGet, false, 0L));
        eventually("the worker ends on the errors", () -> uncaught.size() == 1 && !live.removalArmed.get(),
                core::toString);
        assertEquals(0, core.running(), "the count of the worker that ended on an error: " + core);

        assertTrue(core.dispatch((Runnable) ran::incrementAndGet, false, 0L));
        eventually("the next worker is idle", () -> ran.get() == 2 && core.queued() == 1, core::toString);
        live.removalArmed.set(true);
        core.release(); // stops the idle worker: it exits, and its removal fails
        eventually("the worker ends on the error", () -> uncaught.size() == 2, core::toString);
        assertInstanceOf(OutOfMemoryError.class, uncaught.get(1));
        assertTrue(core.awaitTermination(WAIT_NANOS), "not terminated: " + core);
        assertEquals(0, core.running(), core.toString());
        core.reboot();
        core.shutdownNow(); // walks the live set, the dead workers included
        core.reboot();
        worksAndTerminates(core);
    }

    /**
     * A revert whose idle stack cannot grow ends the worker on the error, with its count given back (a
     * submitter that came meanwhile is granted it) and the fast lane free, whether the worker withdrew from it
     * or never entered it.
     */
    @Test
    void revertThatCannotGrowTheIdleStackEndsTheWorkerWithNothingBehind() throws Exception {
        PoolCore core = pool(1, platform);
        FailingIdleStack idle = new FailingIdleStack();
        replace(core, "workers", idle);
        idle.armed.set(1);
        AtomicInteger ran = new AtomicInteger();
        assertTrue(core.dispatch((Runnable) ran::incrementAndGet, false, 0L));
        eventually("the worker ends on the error", () -> uncaught.size() == 1, core::toString);
        assertInstanceOf(OutOfMemoryError.class, uncaught.get(0));
        assertEquals(1, ran.get());
        eventually("its count is given back", () -> core.running() == 0, core::toString);
        assertEquals(0, core.idle(), "an idle worker is left in the lane or on the queue: " + core);
        worksAndTerminates(core);
    }
}
