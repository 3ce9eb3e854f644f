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

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        long deadline = System.nanoTime() + nanosTimeout;
        cond.await(nanosTimeout, TimeUnit.NANOSECONDS);
        return deadline - System.nanoTime();
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        return cond.await(time, unit);
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        long millis = Objects.requireNonNull(deadline, "deadline").getTime() - System.currentTimeMillis();
        return cond.await(millis, TimeUnit.MILLISECONDS);
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
