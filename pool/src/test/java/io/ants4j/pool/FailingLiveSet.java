package io.ants4j.pool;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A pool's set of live workers, set in place of a {@link PoolCore}'s {@code live}, whose next removal or next
 * iterator, once armed, throws an {@link OutOfMemoryError}, as the real {@code ConcurrentHashMap} set does on an
 * exhausted heap (a removal after it removed, when it cannot allocate a counter cell; the tests also arm one before).
 */
final class FailingLiveSet extends AbstractSet<Worker> {
    private final Set<Worker> delegate = ConcurrentHashMap.newKeySet();
    private final boolean removesFirst;
    /** The next {@link #remove} throws (and disarms). */
    final AtomicBoolean removalArmed = new AtomicBoolean();
    /** The next {@link #iterator} throws (and disarms). */
    final AtomicBoolean walkArmed = new AtomicBoolean();

    /** @param removesFirst whether a removal that throws has removed the worker first */
    FailingLiveSet(boolean removesFirst) {
        this.removesFirst = removesFirst;
    }

    @Override
    public boolean add(Worker w) {
        return delegate.add(w);
    }

    @Override
    public boolean remove(Object o) {
        if (removalArmed.compareAndSet(true, false)) {
            if (removesFirst) {
                delegate.remove(o);
            }
            throw new OutOfMemoryError("Java heap space (injected: removal from the live workers)");
        }
        return delegate.remove(o);
    }

    @Override
    public Iterator<Worker> iterator() {
        if (walkArmed.compareAndSet(true, false)) {
            throw new OutOfMemoryError("Java heap space (injected: the live set's iterator)");
        }
        return delegate.iterator();
    }

    @Override
    public int size() {
        return delegate.size();
    }
}
