package io.ants4j.pool;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool's idle stack whose next growths, once {@linkplain #armed armed}, throw an {@link OutOfMemoryError}, as
 * growing the real one does on an exhausted heap; set in place of a {@link PoolCore}'s {@code workers}.
 */
final class FailingIdleStack implements WorkerQueue {
    private final WorkerStack delegate = new WorkerStack(1);
    /** How many of the next {@link #insert}s throw (each one that throws counts one down); 0: disarmed. */
    final AtomicInteger armed = new AtomicInteger();

    @Override
    public int len() {
        return delegate.len();
    }

    @Override
    public boolean insert(Worker w) {
        if (armed.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new OutOfMemoryError("Java heap space (injected: growing the idle stack)");
        }
        return delegate.insert(w);
    }

    @Override
    public Worker detach() {
        return delegate.detach();
    }

    @Override
    public void refresh(long cutoff, List<Worker> expired) {
        delegate.refresh(cutoff, expired);
    }

    @Override
    public void raiseStamps(long stale, long raised) {
        delegate.raiseStamps(stale, raised);
    }

    /** Puts a failing idle stack, armed to fail the next {@code failures} growths, in place of {@code pool}'s. */
    static FailingIdleStack installedIn(Pool pool, int failures) throws ReflectiveOperationException {
        FailingIdleStack idle = new FailingIdleStack();
        java.lang.reflect.Field core = AbstractWorkerPool.class.getDeclaredField("core");
        core.setAccessible(true);
        java.lang.reflect.Field workers = PoolCore.class.getDeclaredField("workers");
        workers.setAccessible(true);
        workers.set(core.get(pool), idle);
        idle.armed.set(failures);
        return idle;
    }
}
