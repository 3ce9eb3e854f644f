package io.ants4j.pool;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool's idle stack whose next growth, once {@linkplain #armed armed}, throws an {@link OutOfMemoryError}, as
 * growing the real one does on an exhausted heap; set in place of a {@link PoolCore}'s {@code workers}.
 */
final class FailingIdleStack implements WorkerQueue {
    private final WorkerStack delegate = new WorkerStack(1);
    /** 1: the next {@link #insert} throws (and disarms); 0: disarmed. */
    final AtomicInteger armed = new AtomicInteger();

    @Override
    public int len() {
        return delegate.len();
    }

    @Override
    public boolean insert(Worker w) {
        if (armed.compareAndSet(1, 0)) {
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
}
