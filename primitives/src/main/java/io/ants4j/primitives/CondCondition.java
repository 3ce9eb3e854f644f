package io.ants4j.primitives;

import java.util.Date;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * {@link Condition} view of a {@link Cond}, returned by {@link SpinLock#newCondition()}. Keeps
 * {@code Cond}'s guarantees: FIFO {@code signal}, no spurious wake-ups.
 */
final class CondCondition implements Condition {
    private final Cond cond;

    CondCondition(Cond cond) {
        this.cond = cond;
    }

    @Override
    public void await() throws InterruptedException {
        cond.await();
    }

    @Override
    public void awaitUninterruptibly() {
        cond.awaitUninterruptibly();
    }

    /**
     * Returns the timeout less the time waited; {@code Long.MIN_VALUE} when that would not fit
     * (a timeout near {@code Long.MIN_VALUE}), as {@code AbstractQueuedSynchronizer} does.
     */
    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        long start = System.nanoTime();
        cond.await(nanosTimeout, TimeUnit.NANOSECONDS);
        long remaining = nanosTimeout - (System.nanoTime() - start);
        return remaining <= nanosTimeout ? remaining : Long.MIN_VALUE; // larger only if it wrapped
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        return cond.await(time, unit);
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        long until = Objects.requireNonNull(deadline, "deadline").getTime();
        long now = System.currentTimeMillis();
        long millis = until <= now ? 0L : until - now;
        return cond.await(millis < 0L ? Long.MAX_VALUE : millis, TimeUnit.MILLISECONDS); // < 0: wrapped
    }

    @Override
    public void signal() {
        cond.signal();
    }

    @Override
    public void signalAll() {
        cond.broadcast();
    }

    @Override
    public String toString() {
        return super.toString() + "[" + cond + "]";
    }
}
